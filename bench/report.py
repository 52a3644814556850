#!/usr/bin/env python3
"""Turns the files bench/run.sh collected into a table (stdout) and a JSON file under bench/results/.

Exits 1 when an invariant is broken or a load saw errors, so `make bench` fails loudly."""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys


def read_json(path):
    with open(path) as handle:
        return json.loads(handle.read().strip().splitlines()[-1])


def command_output(*command):
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def machine():
    model = ""
    with open("/proc/cpuinfo") as handle:
        for line in handle:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    memory_kib = 0
    with open("/proc/meminfo") as handle:
        for line in handle:
            if line.startswith("MemTotal:"):
                memory_kib = int(line.split()[1])
    commit = command_output("git", "rev-parse", "--short", "HEAD")
    if command_output("git", "status", "--porcelain", "--untracked-files=no"):
        commit += "+changes"
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "memory_gib": round(memory_kib / 1024 / 1024, 1),
        "kernel": platform.release(),
        "os": command_output("sh", "-c", ". /etc/os-release && echo $PRETTY_NAME"),
        "swift": (command_output("swift", "--version").splitlines() or [""])[0],
        "sqlite": command_output("sqlite3", "--version").split(" ")[0],
        "wrk": command_output("sh", "-c", "wrk -v 2>&1 | head -1"),
        "commit": commit,
        "load_average_at_start": open(os.path.join(ARGS.dir, "loadavg-start")).read().split()[:3],
    }


parser = argparse.ArgumentParser()
for name in ["dir", "seed", "seconds", "connections", "threads", "employees", "requests", "years", "runs", "day-writers",
             "day-write-delay", "change-delay", "paced-delay", "busiest-year", "free-year", "pending-rows", "export-rows",
             "server-rss-kib", "server-hwm-kib"]:
    parser.add_argument("--" + name, required=True)
ARGS = parser.parse_args()
RUNS = int(ARGS.runs)


def error_count(result):
    # wrk counts every answer of 400 or more in errors.status; the write mix's own `failures` are those again.
    return sum(result["errors"].values()) + result.get("unreadable", 0)


def median(values):
    return round(statistics.median(values), 3)


# The scenarios with targets run in BENCH_RUNS rounds (files NAME.ROUND.json); each figure and each ratio is the
# median over the rounds, each ratio taken within its own round first.
round_scenarios = [
    ("baseline", "1 baseline: GET /v1/health (no auth, no database)"),
    ("me_holidays", "2 employee: GET /v1/me/holidays"),
    ("admin_pending", "3 admin: GET /v1/holidays?status=pending, first page"),
    ("day", f"day: scenario 2 beside a write trickle ({ARGS.day_writers} conn., {ARGS.day_write_delay} ms pause)"),
    ("uncached", f"uncached: scenario 2, default allowance raised every {ARGS.change_delay} ms"),
    ("writes", "4 write mix, saturated: create, approve/reject/revert/cancel"),
    ("baseline_paced", f"1p baseline, paced ({ARGS.paced_delay} ms pause per connection)"),
    ("writes_paced", f"4p write mix, paced ({ARGS.paced_delay} ms pause per connection)"),
]
once_scenarios = [
    ("sgadmin_load", "5 load beside sgadmin (scenario 2's requests)"),
    ("absences", f"7 team: GET /v1/absences, June {ARGS.busiest_year}, a page of 50"),
    ("home", "8 home: GET /v1/home, a random employee"),
]
MOVES = ("creates", "approves", "rejects", "reverts", "cancels")
readers = sum(1 for line in open(os.path.join(ARGS.dir, "tokens.tsv")) if line.split("\t")[2:3] == ["0"])
rounds = []
for number in range(1, RUNS + 1):
    def load(key):
        return read_json(os.path.join(ARGS.dir, f"{key}.{number}.json"))
    results = {key: load(key) for key, _ in round_scenarios}
    base, paced_base = results["baseline"], results["baseline_paced"]
    for key, result in results.items():
        result["ratio_to_baseline"] = round(result["rps"] / base["rps"], 3)
        result["error_count"] = error_count(result)
    writes = load("day_writes")
    results["day"]["writes"] = writes
    results["day"]["writes_per_second"] = round(sum(writes.get(move, 0) for move in MOVES) / writes["seconds"], 1)
    results["day"]["error_count"] += error_count(writes)
    changes = load("uncached_changes")
    results["uncached"]["changes"] = changes["changes"]
    results["uncached"]["error_count"] += error_count(changes)
    # How often the company changed, and how long each wrk thread takes to read all of its employees once: an
    # employee's next read comes a whole lap later, after lap / interval changes.
    results["uncached"]["change_interval_ms"] = round(changes["seconds"] * 1000 / max(changes["changes"], 1), 1)
    results["uncached"]["lap_ms"] = round(readers * 1000 / max(results["uncached"]["rps"], 0.001), 1)
    ratios = {
        "year_view": results["me_holidays"]["ratio_to_baseline"],
        "day": results["day"]["ratio_to_baseline"],
        "day_p99": round(results["day"]["p99_ms"] / base["p99_ms"], 3),
        "uncached": results["uncached"]["ratio_to_baseline"],
        "pending_list": results["admin_pending"]["ratio_to_baseline"],
        "pending_list_p99": round(results["admin_pending"]["p99_ms"] / base["p99_ms"], 3),
        "write_mix": results["writes"]["ratio_to_baseline"],
        "paced_writes_p99": round(results["writes_paced"]["p99_ms"] / paced_base["p99_ms"], 3),
    }
    rounds.append({"round": number, "scenarios": results, "ratios": ratios})

FIGURES = ("requests", "seconds", "rps", "p50_ms", "p90_ms", "p99_ms", "max_ms", "mean_ms", "ratio_to_baseline",
           "writes_per_second", "changes", "change_interval_ms", "lap_ms")
results = {}
for key, title in round_scenarios:
    runs = [each["scenarios"][key] for each in rounds]
    result = {name: median([run[name] for run in runs]) for name in FIGURES if name in runs[0]}
    result["title"] = title
    result["error_count"] = sum(run["error_count"] for run in runs)
    for name in MOVES:
        if name in runs[0]:
            result[name] = sum(run[name] for run in runs)
    results[key] = result
ratios = {name: median([each["ratios"][name] for each in rounds]) for name in rounds[0]["ratios"]}
baseline_rps = results["baseline"]["rps"]
for key, title in once_scenarios:
    result = read_json(os.path.join(ARGS.dir, key + ".json"))
    result["title"] = title
    result["ratio_to_baseline"] = round(result["rps"] / baseline_rps, 3)
    result["error_count"] = error_count(result)
    results[key] = result
scenarios = round_scenarios + once_scenarios

sgadmin = {}
with open(os.path.join(ARGS.dir, "sgadmin.jsonl")) as handle:
    for line in handle:
        run = json.loads(line)
        sgadmin.setdefault(run["command"], []).append(run)
commands = {}
for name, runs in sgadmin.items():
    walls = [run["wall_ms"] for run in runs]
    commands[name] = {
        "runs": len(runs),
        "wall_ms_median": round(statistics.median(walls), 1),
        "wall_ms_max": round(max(walls), 1),
        "peak_rss_mib_max": round(max(run["peak_rss_kib"] for run in runs) / 1024, 1),
    }
commands["pending"]["rows"] = int(ARGS.pending_rows)
commands["export"]["rows"] = int(ARGS.export_rows)
commands["export"]["year"] = int(ARGS.busiest_year)
# The references, timed beside the sgadmin commands under the same load: the sqlite3 shell reading the same rows,
# and sgadmin's own start.
reference = {
    "sqlite3_export_ms": commands.pop("sqlite3_export")["wall_ms_median"],
    "sqlite3_pending_ms": commands.pop("sqlite3_pending")["wall_ms_median"],
    "sgadmin_start_ms": commands.pop("sgadmin_start")["wall_ms_median"],
}

invariants = []
with open(os.path.join(ARGS.dir, "invariants.txt")) as handle:
    for line in handle:
        name, _, count = line.strip().rpartition("|")
        if name:
            invariants.append({"check": name, "violations": int(count)})
broken = [check for check in invariants if check["violations"] != 0]

server_rss_mib = round(int(ARGS.server_rss_kib) / 1024, 1)
server_rss_mb = int(ARGS.server_rss_kib) * 1024 / 1e6
export_rss_mb = commands["export"]["peak_rss_mib_max"] * 1024 * 1024 / 1e6
writes, paced, employee, day, uncached = (results[key] for key in ("writes", "writes_paced", "me_holidays", "day", "uncached"))
round_errors = sum(results[key]["error_count"] for key, _ in scenarios)
export_limit = 2 * reference["sqlite3_export_ms"]
pending_limit = reference["sgadmin_start_ms"] + 2 * reference["sqlite3_pending_ms"]
# Issue 20's targets (ratios to references of the same run, medians over the rounds), then the earlier ones that
# still stand.
targets = [
    ("day: year view >= 60% of baseline req/s", ratios["day"] >= 0.60,
     f'{ratios["day"]:.0%} ({day["rps"]:.0f} req/s beside {day["writes_per_second"]:.0f} writes/s)'),
    ("day: year-view p99 <= 1.5x baseline's", ratios["day_p99"] <= 1.5,
     f'{ratios["day_p99"]:.2f}x ({day["p99_ms"]:.2f} ms)'),
    ("uncached: year view >= 50% of baseline req/s", ratios["uncached"] >= 0.50,
     f'{ratios["uncached"]:.0%} ({uncached["rps"]:.0f} req/s)'),
    ("3 pending list >= 30% of baseline req/s", ratios["pending_list"] >= 0.30, f'{ratios["pending_list"]:.0%}'),
    ("3 pending list p99 <= 3x baseline's", ratios["pending_list_p99"] <= 3,
     f'{ratios["pending_list_p99"]:.1f}x ({results["admin_pending"]["p99_ms"]:.2f} ms)'),
    ("4p paced transitions p99 <= 1.5x baseline_paced p99", ratios["paced_writes_p99"] <= 1.5,
     f'{ratios["paced_writes_p99"]:.2f}x ({paced["p99_ms"]:.2f} ms against {results["baseline_paced"]["p99_ms"]:.2f} ms)'),
    ("4 saturated write mix >= 26% of baseline req/s (twice 13-16%)", ratios["write_mix"] >= 0.26,
     f'{ratios["write_mix"]:.0%} ({writes["rps"]:.0f} req/s)'),
    ("sgadmin export <= 2x sqlite3's", commands["export"]["wall_ms_median"] <= export_limit,
     f'{commands["export"]["wall_ms_median"]:.0f} ms against {export_limit:.0f} ms'),
    ("sgadmin pending <= sgadmin start + 2x sqlite3's", commands["pending"]["wall_ms_median"] <= pending_limit,
     f'{commands["pending"]["wall_ms_median"]:.0f} ms against {pending_limit:.0f} ms'),
    ("sgadmin export peak RSS <= 100 MB", export_rss_mb <= 100, f"{export_rss_mb:.0f} MB"),
    ("server RSS <= 100 MB", server_rss_mb <= 100, f"{server_rss_mb:.0f} MB"),
    ("2 year view >= 60% of baseline req/s", ratios["year_view"] >= 0.60, f'{ratios["year_view"]:.0%}'),
    ("2 year view p99 <= 10 ms", employee["p99_ms"] <= 10, f'{employee["p99_ms"]:.2f} ms'),
    ("errors = 0 in every load", round_errors == 0, str(round_errors)),
    ("invariants hold after the load", not broken, f"{len(invariants) - len(broken)}/{len(invariants)}"),
]

# 6: delivery. Scenario 2's load while the outbox drains, and after.
delivery = read_json(os.path.join(ARGS.dir, "delivery.json"))
for key in ("delivery_draining", "delivery_after"):
    delivery[key] = read_json(os.path.join(ARGS.dir, key + ".json"))
    delivery[key]["ratio_to_baseline"] = round(delivery[key]["rps"] / baseline_rps, 3)
    delivery[key]["error_count"] = sum(delivery[key]["errors"].values())
targets += [
    ("delivery: every queued e-mail received once", delivery["received"] == delivery["queued"] == delivery["distinct_message_ids"]
     and delivery["dead"] == 0 and delivery["pending_left"] == 0,
     f'{delivery["received"]} of {delivery["queued"]} ({delivery["distinct_message_ids"]} Message-IDs, {delivery["dead"]} dead)'),
    ("delivery: scenario 2 errors = 0 while draining",
     delivery["delivery_draining"]["error_count"] + delivery["delivery_after"]["error_count"] == 0,
     str(delivery["delivery_draining"]["error_count"] + delivery["delivery_after"]["error_count"])),
]

# PostgreSQL (bench/postgres.sh): the same scenarios on one and two servers, each against its own baseline run, and
# that ratio against SQLite's.
postgres = None
if os.path.exists(os.path.join(ARGS.dir, "pg_baseline.json")):
    postgres = {"copy": read_json(os.path.join(ARGS.dir, "pg_copy.json")), "one_server": {}, "two_servers": {}}
    for label, prefix, keys in (("one_server", "pg_", ("baseline", "me_holidays", "admin_pending", "writes")),
                                ("two_servers", "pg2_", ("baseline", "me_holidays", "admin_pending"))):
        runs = {key: read_json(os.path.join(ARGS.dir, prefix + key + ".json")) for key in keys}
        for key, result in runs.items():
            result["error_count"] = sum(result["errors"].values())
            result["ratio_to_baseline"] = round(result["rps"] / runs["baseline"]["rps"], 3)
            if key in results:
                result["vs_sqlite"] = round(result["ratio_to_baseline"] / results[key]["ratio_to_baseline"], 3)
        postgres[label] = runs
    check = json.load(open(os.path.join(ARGS.dir, "pg_check.json")))
    postgres["check_clean"] = check.get("clean", False)
    one = postgres["one_server"]
    targets += [
        ("PostgreSQL: scenario 2 (year view) >= 70% of SQLite's share", one["me_holidays"]["vs_sqlite"] >= 0.70,
         f'{one["me_holidays"]["vs_sqlite"]:.0%} ({one["me_holidays"]["ratio_to_baseline"]:.0%} of its baseline)'),
        ("PostgreSQL: scenario 3 (pending list) >= 70% of SQLite's share", one["admin_pending"]["vs_sqlite"] >= 0.70,
         f'{one["admin_pending"]["vs_sqlite"]:.0%} ({one["admin_pending"]["ratio_to_baseline"]:.0%} of its baseline)'),
        ("PostgreSQL: invariants hold (sgadmin check)", postgres["check_clean"], "clean" if postgres["check_clean"] else "problems"),
    ]

# Before and after the leave model (bench/before.sh): the same scenarios on the version before it and on this one,
# in turn in each round; each after/before ratio is taken within its round, then the median over the rounds.
before_after = None
if os.path.exists(os.path.join(ARGS.dir, "ba_commit.json")):
    BA_KEYS = ("baseline", "me_holidays", "writes", "baseline_paced", "writes_paced")
    ba_rounds = []
    for number in range(1, RUNS + 1):
        sides = {side: {key: read_json(os.path.join(ARGS.dir, f"ba_{side}_{key}.{number}.json")) for key in BA_KEYS}
                 for side in ("before", "after")}
        for runs in sides.values():
            for result in runs.values():
                result["error_count"] = error_count(result)
        before, after = sides["before"], sides["after"]
        ba_rounds.append({"round": number, "before": before, "after": after, "after_vs_before": {
            "baseline": round(after["baseline"]["rps"] / before["baseline"]["rps"], 3),
            "year_view": round(after["me_holidays"]["rps"] / before["me_holidays"]["rps"], 3),
            "write_mix": round(after["writes"]["rps"] / before["writes"]["rps"], 3),
            "write_mix_p99": round(after["writes"]["p99_ms"] / before["writes"]["p99_ms"], 3),
            "paced_writes_p99": round(after["writes_paced"]["p99_ms"] / before["writes_paced"]["p99_ms"], 3),
        }})
    before_after = {
        "commit": read_json(os.path.join(ARGS.dir, "ba_commit.json"))["commit"],
        "medians": {side: {key: {name: median([each[side][key][name] for each in ba_rounds])
                                 for name in ("rps", "p50_ms", "p99_ms")} for key in BA_KEYS}
                    for side in ("before", "after")},
        "after_vs_before": {name: median([each["after_vs_before"][name] for each in ba_rounds])
                            for name in ba_rounds[0]["after_vs_before"]},
        "error_count": sum(result["error_count"] for each in ba_rounds for side in ("before", "after")
                           for result in each[side].values()),
        "rounds": ba_rounds,
    }
    versus = before_after["after_vs_before"]
    targets += [
        ("leave model: year view (scenario 2) no slower than before it, same run", versus["year_view"] >= 1.0,
         f'{versus["year_view"]:.2f}x the req/s before'),
        ("leave model: approvals (write mix, saturated) no slower than before it, same run", versus["write_mix"] >= 1.0,
         f'{versus["write_mix"]:.2f}x the req/s before, p99 {versus["write_mix_p99"]:.2f}x'),
        ("leave model: approvals paced (4p) p99 no longer than before it, same run", versus["paced_writes_p99"] <= 1.0,
         f'{versus["paced_writes_p99"]:.2f}x the p99 before'),
    ]

now = datetime.datetime.now(datetime.timezone.utc)
report = {
    "date": now.isoformat(timespec="seconds"),
    "machine": machine(),
    "settings": {
        "seed": int(ARGS.seed), "seconds_per_scenario": int(ARGS.seconds), "connections": int(ARGS.connections),
        "wrk_threads": int(ARGS.threads), "paced_delay_ms": int(ARGS.paced_delay), "free_year": int(ARGS.free_year),
        "employees": int(ARGS.employees), "requests": int(ARGS.requests), "years": int(ARGS.years), "runs": RUNS,
        "day_writers": int(ARGS.day_writers), "day_write_delay_ms": int(ARGS.day_write_delay),
        "uncached_change_ms": int(ARGS.change_delay),
    },
    "seed_summary": open(os.path.join(ARGS.dir, "seed.txt")).read().strip(),
    "scenarios": results,
    "ratios": ratios,
    "rounds": rounds,
    "sgadmin": commands,
    "reference": reference,
    "server": {"rss_mib_after_run": server_rss_mib, "peak_rss_mib": round(int(ARGS.server_hwm_kib) / 1024, 1)},
    "invariants": invariants,
    "delivery": delivery,
    "postgres": postgres,
    "before_after": before_after,
    "targets": [{"target": name, "met": met, "measured": value} for name, met, value in targets],
}
path = os.path.join("bench", "results", now.strftime("bench-%Y%m%d-%H%M%S.json"))
with open(path, "w") as handle:
    json.dump(report, handle, indent=2)
    handle.write("\n")

info = report["machine"]
print(f"\nSGEmployee bench, {now:%Y-%m-%d %H:%M} UTC, {info['cpu']} ({info['cores']} cores, {info['memory_gib']} GiB), "
      f"{info['os']}, commit {info['commit']}")
print(f"{ARGS.employees} employees, {ARGS.requests} requests; {ARGS.connections} connections, {ARGS.threads} wrk threads, "
      f"{ARGS.seconds} s per scenario, seed {ARGS.seed}; load average at start {' '.join(info['load_average_at_start'])}")
print(f"scenarios 1 to 4p: median of {RUNS} round{'s' if RUNS > 1 else ''} (each ratio taken within its round)\n")
print(f"| {'scenario':<62} | {'req/s':>8} | {'vs 1':>5} | {'p50 ms':>7} | {'p99 ms':>7} | {'errors':>6} |")
print(f"|{'-' * 64}|{'-' * 10}|{'-' * 7}|{'-' * 9}|{'-' * 9}|{'-' * 8}|")
for key, title in scenarios:
    result = results[key]
    # A paced load offers a fixed rate: its share of the saturated baseline says nothing.
    share = "—" if key.endswith("_paced") else f"{result['ratio_to_baseline']:.0%}"
    print(f"| {title:<62} | {result['rps']:>8.0f} | {share:>5} | {result['p50_ms']:>7.2f} | "
          f"{result['p99_ms']:>7.2f} | {result['error_count']:>6} |")
print(f"\nwrite mix (saturated, all rounds): {writes.get('creates', 0)} creates, {writes.get('approves', 0)} approves, "
      f"{writes.get('rejects', 0)} rejects, {writes.get('reverts', 0)} reverts, {writes.get('cancels', 0)} cancels")
print(f"day: {day['writes_per_second']:.0f} writes/s landed beside the reads")
print(f"uncached: the default allowance changed every {uncached['change_interval_ms']:.0f} ms; each employee was read "
      f"again after {uncached['lap_ms']:.0f} ms" + ("" if uncached["lap_ms"] >= 2 * uncached["change_interval_ms"] else
                                                   " (NOT after two changes: some reads may be answered from the cache)")
      + "\n")
print(f"| {'sgadmin, under scenario 2 load':<48} | {'median ms':>9} | {'max ms':>7} | {'peak RSS MiB':>12} |")
print(f"|{'-' * 50}|{'-' * 11}|{'-' * 9}|{'-' * 14}|")
labels = {
    "pending": f"sgadmin pending ({commands['pending']['rows']} rows)",
    "approve": "sgadmin approve N",
    "export": f"sgadmin export --year {ARGS.busiest_year} ({commands['export']['rows']} rows)",
}
for name in ["pending", "approve", "export"]:
    if name in commands:
        command = commands[name]
        print(f"| {labels[name]:<48} | {command['wall_ms_median']:>9.0f} | {command['wall_ms_max']:>7.0f} | "
              f"{command['peak_rss_mib_max']:>12.1f} |")
print(f"references at the same time (medians): sqlite3 shell, the export's rows to CSV {reference['sqlite3_export_ms']:.0f} ms, "
      f"the pending rows {reference['sqlite3_pending_ms']:.0f} ms; sgadmin --help {reference['sgadmin_start_ms']:.0f} ms")
draining, after = delivery["delivery_draining"], delivery["delivery_after"]
print(f"\n6 delivery: {delivery['queued']} e-mails queued by one notice, {delivery['received']} received by the SMTP server "
      f"in {delivery['seconds']:.1f} s ({delivery['messages_per_second']:.0f} messages/s; {delivery['sent_during_load']} "
      f"of them during the {ARGS.seconds} s load)")
print(f"| {'scenario 2 beside delivery':<48} | {'req/s':>8} | {'vs 1':>5} | {'p50 ms':>7} | {'p99 ms':>7} |")
print(f"|{'-' * 50}|{'-' * 10}|{'-' * 7}|{'-' * 9}|{'-' * 9}|")
for label, result in (("while the outbox drains", draining), ("after, outbox empty", after)):
    print(f"| {label:<48} | {result['rps']:>8.0f} | {result['ratio_to_baseline']:>5.0%} | {result['p50_ms']:>7.2f} | {result['p99_ms']:>7.2f} |")
if postgres:
    print(f"\nPostgreSQL (the company copied in: {postgres['copy']['copy_seconds']:.0f} s); 'vs 1' is against the same "
          "engine's baseline run, 'vs SQLite' that share against SQLite's")
    print(f"| {'scenario':<40} | {'req/s':>8} | {'vs 1':>5} | {'vs SQLite':>9} | {'p50 ms':>7} | {'p99 ms':>7} | {'errors':>6} |")
    print(f"|{'-' * 42}|{'-' * 10}|{'-' * 7}|{'-' * 11}|{'-' * 9}|{'-' * 9}|{'-' * 8}|")
    for label, runs in (("one server", postgres["one_server"]), ("two servers", postgres["two_servers"])):
        for key, result in runs.items():
            versus = f"{result['vs_sqlite']:.0%}" if "vs_sqlite" in result else ""
            print(f"| {label + ': ' + key:<40} | {result['rps']:>8.0f} | {result['ratio_to_baseline']:>5.0%} | {versus:>9} | "
                  f"{result['p50_ms']:>7.2f} | {result['p99_ms']:>7.2f} | {result['error_count']:>6} |")
if before_after:
    print(f"\nBefore and after the leave model ({before_after['commit'][:7]} and this commit, each on its own seeded company, "
          f"in turn in each round; medians of {RUNS} round{'s' if RUNS > 1 else ''})")
    print(f"| {'scenario':<40} | {'before req/s':>12} | {'after req/s':>11} | {'before p99':>10} | {'after p99':>9} |")
    print(f"|{'-' * 42}|{'-' * 14}|{'-' * 13}|{'-' * 12}|{'-' * 11}|")
    for key, title in (("baseline", "1 baseline"), ("me_holidays", "2 year view"), ("writes", "4 write mix, saturated"),
                       ("baseline_paced", "1p baseline, paced"), ("writes_paced", "4p write mix, paced")):
        b, a = before_after["medians"]["before"][key], before_after["medians"]["after"][key]
        print(f"| {title:<40} | {b['rps']:>12.0f} | {a['rps']:>11.0f} | {b['p99_ms']:>10.2f} | {a['p99_ms']:>9.2f} |")
    print("after/before, medians of the rounds' ratios: " + ", ".join(
        f"{name} {value:.2f}" for name, value in before_after["after_vs_before"].items()))
print(f"\nserver RSS after the run: {server_rss_mib:.0f} MiB (peak {report['server']['peak_rss_mib']:.0f} MiB)")
print(f"invariants: {'all hold' if not broken else 'BROKEN'} ({len(invariants)} checks)")
for check in broken:
    print(f"  BROKEN: {check['check']}: {check['violations']} violations")
print("\ntargets:")
for name, met, value in targets:
    print(f"  [{'met' if met else 'MISSED'}] {name}: {value}")
print(f"\nresults: {path}")

if broken:
    print("bench: FAILED: balance or history invariants are broken", file=sys.stderr)
    sys.exit(1)
if any(results[key]["error_count"] for key, _ in scenarios):
    print("bench: FAILED: a load saw errors", file=sys.stderr)
    sys.exit(1)
if postgres and (not postgres["check_clean"] or any(
        result["error_count"] for runs in (postgres["one_server"], postgres["two_servers"]) for result in runs.values())):
    print("bench: FAILED: PostgreSQL's runs saw errors or its invariants are broken", file=sys.stderr)
    sys.exit(1)
if before_after and before_after["error_count"]:
    print("bench: FAILED: the runs before and after the leave model saw errors", file=sys.stderr)
    sys.exit(1)
if not (delivery["received"] == delivery["queued"] == delivery["distinct_message_ids"]) or delivery["pending_left"] or delivery["dead"]:
    print("bench: FAILED: the outbox did not deliver every e-mail exactly once", file=sys.stderr)
    sys.exit(1)
