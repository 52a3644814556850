#!/usr/bin/env bash
# `make bench`: seeds a synthetic company into a fresh database, serves it with a release sgserver on 127.0.0.1,
# drives it with wrk, times sgadmin beside it, checks every balance invariant, and writes a table (stdout) and a
# JSON file (bench/results/). Each load runs for a fixed time and stops by itself.
#
# Settings (environment): BENCH_SECONDS (per scenario, default 15), BENCH_CONNECTIONS (64), BENCH_THREADS (wrk
# threads, 2), BENCH_SEED (42), BENCH_EMPLOYEES (10000), BENCH_REQUESTS (30 per employee), BENCH_YEARS (5),
# BENCH_PACED_DELAY_MS (per-connection pause of the paced write mix and of baseline_paced, 100), BENCH_RUNS (rounds
# of the scenarios with targets, each figure reported as the median over the rounds, 1), BENCH_DAY_WRITERS
# (connections of the write trickle in scenario "day", 8) and BENCH_DAY_WRITE_DELAY_MS (their pause, 130: about 50
# writes a second), BENCH_UNCACHED_CHANGE_MS (pause between two company changes in scenario "uncached", 50, longer
# when the run would pass the largest allowance), BENCH_DIR (./var/bench), BENCH_POSTGRES (1: the main scenarios
# again on PostgreSQL, bench/postgres.sh; 0: SQLite only), BENCH_BEFORE (the commit before the leave model, 8d3245c,
# whose year view and write mix are measured beside this version's in every round, bench/before.sh; 0: not). The
# write scenarios book days only in the free year, so scenario 7 (who is off, June of the busiest year) reads data
# they never change.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"

seconds=${BENCH_SECONDS:-15}
connections=${BENCH_CONNECTIONS:-64}
threads=${BENCH_THREADS:-2}
seed=${BENCH_SEED:-42}
employees=${BENCH_EMPLOYEES:-10000}
requests=${BENCH_REQUESTS:-$((30 * employees))}
years=${BENCH_YEARS:-5}
paced_delay=${BENCH_PACED_DELAY_MS:-100}
runs=${BENCH_RUNS:-1}
day_writers=${BENCH_DAY_WRITERS:-8}
day_write_delay=${BENCH_DAY_WRITE_DELAY_MS:-130}
# At most about 300 raises of the default allowance a run, so that it stays under 366 days.
change_delay=${BENCH_UNCACHED_CHANGE_MS:-50}
[ $((seconds * 1000 / change_delay)) -le 300 ] || change_delay=$(( (seconds * 1000 + 299) / 300 ))
dir=${BENCH_DIR:-./var/bench}
before_commit=${BENCH_BEFORE:-8d3245c}

say() { printf '== %s\n' "$*" >&2; }
fail() { printf 'bench: FAILED: %s\n' "$*" >&2; exit 1; }
# wait_for_server PORT PID LOG WHAT: until the sgserver PID answers /v1/health on PORT (at most 30 s); its LOG and a
# failure if it stops or never answers.
wait_for_server() {
    local _
    for _ in $(seq 1 150); do
        curl -sf "http://127.0.0.1:$1/v1/health" >/dev/null && return 0
        kill -0 "$2" 2>/dev/null || { cat "$3" >&2; fail "$4 did not start"; }
        sleep 0.2
    done
    cat "$3" >&2
    fail "$4 does not answer /v1/health"
}

scripts/install-deps.sh wrk time
command -v python3 >/dev/null || scripts/install-deps.sh python3

say "release build"
# A failed build must stop the run, not leave it to measure binaries left over from an earlier build.
build_log=$(mktemp)
if ! swift build -c release > "$build_log" 2>&1; then
    grep -E "error|warning: .*Sources" "$build_log" >&2 || tail -40 "$build_log" >&2
    rm -f "$build_log"
    fail "release build failed"
fi
grep -E "warning: .*Sources|Build complete" "$build_log" >&2 || true
rm -f "$build_log"
bin=$(swift build -c release --show-bin-path)
for tool in sgserver sgadmin sgbench; do [ -x "$bin/$tool" ] || fail "release build did not produce $tool"; done

rm -rf "$dir"
mkdir -p "$dir" bench/results
cat /proc/loadavg > "$dir/loadavg-start"
db="$dir/bench.sqlite"
export SG_DATABASE="$db"

say "seeding $employees employees, $requests requests over $years years (seed $seed)"
"$bin/sgbench" seed --database "$db" --tokens "$dir/tokens.tsv" --free-days "$dir/days.txt" --seed "$seed" \
    --employees "$employees" --requests "$requests" --years "$years" | tee "$dir/seed.txt" >&2

# The company as seeded, for the comparison with the version before the leave model (bench/before.sh).
if [ "$before_commit" != 0 ]; then
    sqlite3 "$db" ".backup '$dir/fresh.sqlite'" || fail "cannot copy the seeded company"
fi

q() { sqlite3 -batch -noheader "$db" "$@"; }
free_year=$(head -c 4 "$dir/days.txt")
busiest_year=$(q "SELECT year FROM holiday_request_days GROUP BY year ORDER BY COUNT(*) DESC, year LIMIT 1;")

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
say "starting sgserver on 127.0.0.1:$port"
# Each of the 20 admins decides thousands of requests a minute in scenario 4: far past the per-employee write limit
# (SG_WRITES_PER_MINUTE) that a real person never reaches, so the limit is lifted here as in scripts/api-check.sh.
server_options=(--host 127.0.0.1 --port "$port" --database "$db" --log-level warning --writes-per-minute 1000000)
"$bin/sgserver" "${server_options[@]}" > "$dir/server.log" 2>&1 &
server=$!
background=""
cleanup() {
    [ -n "$background" ] && kill "$background" 2>/dev/null || true
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
}
trap cleanup EXIT
wait_for_server "$port" "$server" "$dir/server.log" sgserver

export BENCH_TOKENS="$dir/tokens.tsv" BENCH_DAYS="$dir/days.txt" BENCH_LUA_DIR="$PWD/bench/lua" BENCH_THREADS="$threads"

# run_wrk NAME SCRIPT PATH SECONDS [VAR=VALUE ...]: one time-bounded wrk run; its results go to $dir/NAME.json.
run_wrk() {
    local name=$1 script=$2 path=$3 duration=$4
    shift 4
    env "$@" timeout --signal=INT $((duration + 30)) \
        wrk -t "$threads" -c "$connections" -d "${duration}s" --timeout 5s --latency -s "bench/lua/$script" \
        "http://127.0.0.1:$port$path" > "$dir/$name.out" 2> "$dir/$name.err" || true
    grep -o 'BENCH_RESULT .*' "$dir/$name.out" | sed 's/^BENCH_RESULT //' > "$dir/$name.json" || true
    [ -s "$dir/$name.json" ] || { cat "$dir/$name.out" "$dir/$name.err" >&2; fail "wrk gave no result for $name"; }
    say "$name: $(cat "$dir/$name.json")"
    [ -s "$dir/$name.err" ] && head -5 "$dir/$name.err" >&2 || true
}

# Warm-ups read every employee's year once (uncached.lua: each wrk thread reads its employees in turn), so that
# scenario 2 and "day" measure the kept views they are about. A 3 s warm-up of random reads (me_holidays.lua) left
# about 450 of 10,000 employees unread, and 73,000 of 100,000, whose first reads were then renders in the measured
# run. At 5,000 renders a second or more, employees / 4,000 + 3 seconds reads them all with room to spare.
warm_seconds=$(( employees / 4000 + 3 ))
say "warm-up, every employee's year read once (${warm_seconds} s, not reported)"
run_wrk warmup uncached.lua /v1/me/holidays "$warm_seconds"

# The scenarios with targets, in BENCH_RUNS rounds: report.py takes each ratio within its round, then the median of
# each figure and each ratio over the rounds. Files: $dir/NAME.ROUND.json.
admin_token=$(awk -F'\t' '$3 == 1 { print $4; exit }' "$dir/tokens.tsv")
company_api() {
    curl -sf -H "Authorization: Bearer $admin_token" -H "Content-Type: application/json" "$@" "http://127.0.0.1:$port/v1/company"
}
# The company's PUT body as it is, with ALLOWANCE where company_changes.lua writes each new default allowance.
company_body=$(company_api | python3 -c '
import json, sys
company = json.load(sys.stdin)
company["defaultAllowance"] = "ALLOWANCE"
print(json.dumps(company, separators=(",", ":")).replace("\"ALLOWANCE\"", "ALLOWANCE"))') || fail "cannot read the company"
allowance=$(company_api | python3 -c 'import json, sys; print(json.load(sys.stdin)["defaultAllowance"])')
# Each run of writes.lua books days of its own share of the free year (day, 4 and 4p in each round, and the last
# share PostgreSQL's write mix).
write_runs=$((3 * runs + 1))
write_run=0
for round in $(seq 1 "$runs"); do
    if [ "$round" -gt 1 ]; then
        say "round $round of $runs: warm-up, every employee's year read once (${warm_seconds} s, not reported)"
        run_wrk "warmup.$round" uncached.lua /v1/me/holidays "$warm_seconds"
    fi
    say "round $round of $runs: 1 baseline: GET /v1/health"
    run_wrk "baseline.$round" baseline.lua /v1/health "$seconds"
    say "2 employee: GET /v1/me/holidays"
    run_wrk "me_holidays.$round" me_holidays.lua /v1/me/holidays "$seconds"
    say "3 admin: GET /v1/holidays?status=pending"
    run_wrk "admin_pending.$round" admin_pending.lua "/v1/holidays?status=pending" "$seconds"
    say "day: scenario 2's reads beside the write mix on $day_writers connections pausing ${day_write_delay} ms"
    (connections=$day_writers; run_wrk "day_writes.$round" writes.lua / "$seconds" BENCH_DELAY_MS="$day_write_delay" \
        BENCH_WRITE_RUNS="$write_runs" BENCH_WRITE_RUN="$write_run") &
    background=$!
    run_wrk "day.$round" me_holidays.lua /v1/me/holidays "$seconds"
    wait "$background" || fail "the writes of scenario day gave no result"
    background=""
    write_run=$((write_run + 1))
    say "uncached: scenario 2's reads, each employee in turn, the default allowance raised every ${change_delay} ms"
    (connections=1; threads=1; run_wrk "uncached_changes.$round" company_changes.lua / "$seconds" \
        BENCH_DELAY_MS="$change_delay" BENCH_COMPANY_BODY="$company_body" BENCH_ALLOWANCE_FROM="$allowance") &
    background=$!
    run_wrk "uncached.$round" uncached.lua /v1/me/holidays "$seconds"
    wait "$background" || fail "the company changes of scenario uncached gave no result"
    background=""
    company_api -X PUT --data "${company_body/ALLOWANCE/$allowance}" > /dev/null \
        || fail "cannot put the default allowance back to $allowance days"
    say "4 write mix, saturated: create -> approve/reject/revert/cancel"
    run_wrk "writes.$round" writes.lua / "$seconds" BENCH_WRITE_RUNS="$write_runs" BENCH_WRITE_RUN="$write_run"
    write_run=$((write_run + 1))
    say "baseline_paced: GET /v1/health, each connection pausing ${paced_delay} ms between requests"
    run_wrk "baseline_paced.$round" baseline.lua /v1/health "$seconds" BENCH_DELAY_MS="$paced_delay"
    say "4p write mix, paced: each connection pauses ${paced_delay} ms between requests"
    run_wrk "writes_paced.$round" writes.lua / "$seconds" BENCH_DELAY_MS="$paced_delay" \
        BENCH_WRITE_RUNS="$write_runs" BENCH_WRITE_RUN="$write_run"
    write_run=$((write_run + 1))
done

absence_month="$busiest_year-06"
say "7 team: GET /v1/absences for $absence_month, a random page of 50 employees"
run_wrk absences absences.lua "/v1/absences" "$seconds" \
    BENCH_ABSENCE_FROM="$absence_month-01" BENCH_ABSENCE_TO="$absence_month-30"
say "8 home: GET /v1/home as a random employee"
run_wrk home home.lua "/v1/home" "$seconds"

# 5: sgadmin beside a server kept busy with scenario 2's load.
say "5 sgadmin under load (pending, approve, export --year $busiest_year), and the sqlite3 shell doing the same reads"
load_seconds=$((seconds * 2 + 20))
run_wrk sgadmin_load me_holidays.lua /v1/me/holidays "$load_seconds" &
background=$!
sleep 2
# time_cmd NAME COMMAND...: wall time (ms, from the shell) and peak RSS (KiB, from /usr/bin/time -v), appended as JSON.
: > "$dir/sgadmin.jsonl"
time_cmd() {
    local name=$1
    shift
    local start end status=0
    start=$(date +%s%N)
    /usr/bin/time -v -o "$dir/time.txt" "$@" > "$dir/$name.stdout" 2> "$dir/$name.stderr" || status=$?
    end=$(date +%s%N)
    [ "$status" -eq 0 ] || { cat "$dir/$name.stderr" >&2; fail "$* exited $status"; }
    local rss
    rss=$(grep "Maximum resident set size" "$dir/time.txt" | grep -oE '[0-9]+$')
    printf '{"command":"%s","wall_ms":%.1f,"peak_rss_kib":%d}\n' "$name" "$(( (end - start) / 1000 ))e-3" "$rss" >> "$dir/sgadmin.jsonl"
}
# The references: the sqlite3 shell reading the same rows as `sgadmin export --year` (the statement of
# Sources/SGStore/Holidays/HolidayReports.swift, exportRows, with the export's columns) into a CSV file, and as
# `sgadmin pending` (its statuses, order and columns) as a table; and sgadmin's own start, `sgadmin --help`.
export_sql="SELECT e.username, e.name || ' ' || e.surname AS full_name, e.email, r.id AS request_id,
    (SELECT name FROM leave_types WHERE id = r.leave_type_id) AS leave_type, r.start_date AS start,
    CASE WHEN r.starts_afternoon THEN 'afternoon' ELSE 'morning' END AS start_half, r.end_date AS \"end\",
    CASE WHEN r.ends_morning THEN 'morning' ELSE 'afternoon' END AS end_half, r.halves / 2.0 AS working_days,
    COALESCE((SELECT d.halves FROM holiday_request_days d WHERE d.request_id = r.id AND d.year = $busiest_year), 0) / 2.0
        AS working_days_in_year,
    (SELECT t.draws_on_allowance FROM leave_types t WHERE t.id = r.leave_type_id) AS draws_on_allowance,
    r.status, r.created_at AS requested_at, r.decided_by, r.decided_at
  FROM holiday_requests r JOIN employees e ON e.id = r.employee_id
  WHERE r.start_date <= '$busiest_year-12-31' AND r.end_date >= '$busiest_year-01-01'
  ORDER BY e.surname, e.name, e.id, r.start_date, r.id;"
pending_sql="SELECT r.id, e.username, e.name || ' ' || e.surname AS name,
    (SELECT name FROM leave_types WHERE id = r.leave_type_id) AS type, r.start_date AS start, r.end_date AS \"end\",
    r.halves / 2.0 AS working_days, r.status, r.comment
  FROM holiday_requests r JOIN employees e ON e.id = r.employee_id
  WHERE r.status IN ('pending', 'approved-by-manager') ORDER BY r.id;"
pending_ids=$(q "SELECT id FROM holiday_requests WHERE status = 'pending' AND employee_id > (SELECT MAX(id) FROM employees WHERE is_admin = 1) ORDER BY id LIMIT 5;")
for round in 1 2 3 4 5; do
    time_cmd pending "$bin/sgadmin" pending
    id=$(echo "$pending_ids" | sed -n "${round}p")
    [ -n "$id" ] && time_cmd approve "$bin/sgadmin" approve "$id" --as admin01 --note "bench"
    time_cmd export "$bin/sgadmin" export --year "$busiest_year" --output "$dir/export-$busiest_year.csv"
    time_cmd sqlite3_export sqlite3 -readonly -batch -csv -header "$db" ".once $dir/reference-export.csv" "$export_sql"
    time_cmd sqlite3_pending sqlite3 -readonly -batch -column -header "$db" "$pending_sql"
    time_cmd sgadmin_start "$bin/sgadmin" --help
done
pending_rows=$(($(wc -l < "$dir/pending.stdout") - 1))
export_rows=$(($(wc -l < "$dir/export-$busiest_year.csv") - 1))
expected_rows=$(q "SELECT COUNT(*) FROM holiday_requests WHERE start_date <= '$busiest_year-12-31' AND end_date >= '$busiest_year-01-01';")
[ "$export_rows" -eq "$expected_rows" ] || fail "export has $export_rows rows, the database $expected_rows"
reference_rows=$(python3 -c 'import csv, sys; print(sum(1 for _ in csv.reader(open(sys.argv[1]))) - 1)' "$dir/reference-export.csv")
[ "$reference_rows" -eq "$expected_rows" ] || fail "sqlite3's export has $reference_rows rows, the database $expected_rows"
wait "$background" || fail "scenario 5's load (scenario 2's requests beside sgadmin) gave no result"
background=""

say "server memory"
rss_kib=$(grep VmRSS "/proc/$server/status" | grep -oE '[0-9]+')
hwm_kib=$(grep VmHWM "/proc/$server/status" | grep -oE '[0-9]+')

say "invariants"
# sgadmin check: the integrity check, Sources/SGStore/Invariants.sql with the core's rules written in, and every
# employee's balance in every year never below zero, as "name|violations" lines.
"$bin/sgadmin" check --json --database "$db" \
    | python3 -c 'import json, sys; [print(f"{c[\"check\"]}|{c[\"violations\"]}") for c in json.load(sys.stdin)["checks"]]' \
    > "$dir/invariants.txt"
cat "$dir/invariants.txt" >&2

cleanup
trap - EXIT

# 6: the outbox drained into a real SMTP server (aiosmtpd with STARTTLS, from .venv/) while scenario 2's load runs,
# then the same load again once the outbox is empty. A company notice to everyone queues one e-mail per employee.
# Reminders are off here, so that the notice's e-mails are all there is to send.
say "6 delivery: a notice e-mailed to every employee, drained into a local SMTP server beside scenario 2's load"
scripts/venv.sh >&2 || fail "cannot set up .venv for the SMTP server"
smtp_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$dir/mail" "$dir/tls"
.venv/bin/python scripts/delivery/smtp_server.py --port "$smtp_port" --dir "$dir/mail" --tls-dir "$dir/tls" \
    > "$dir/smtp.log" 2>&1 &
smtp=$!
cleanup() {
    [ -n "$background" ] && kill "$background" 2>/dev/null || true
    kill "$server" "$smtp" 2>/dev/null || true
    wait "$server" "$smtp" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 1 100); do
    [ -s "$dir/tls/cert.pem" ] && python3 -c "import socket; socket.create_connection(('127.0.0.1', $smtp_port), 1)" 2>/dev/null && break
    kill -0 "$smtp" 2>/dev/null || { cat "$dir/smtp.log" >&2; fail "the SMTP server did not start"; }
    sleep 0.2
done
"$bin/sgserver" "${server_options[@]}" \
    --smtp-url "smtp://127.0.0.1:$smtp_port" --mail-from "Bench <bench@example.com>" --tls-ca-file "$dir/tls/cert.pem" \
    --public-url "https://holidays.example.com" --reminder-after-hours 0 > "$dir/server-delivery.log" 2>&1 &
server=$!
wait_for_server "$port" "$server" "$dir/server-delivery.log" "sgserver with e-mail"
run_wrk delivery_warmup me_holidays.lua /v1/me/holidays 3
queued_before=$(q "SELECT COUNT(*) FROM outbox;")
posted_at=$(date +%s.%N)
"$bin/sgadmin" notice post --title "Bench: the office closes on Friday" --body "Enjoy the long weekend." --as admin01 \
    > /dev/null || fail "sgadmin notice post"
queued=$(( $(q "SELECT COUNT(*) FROM outbox WHERE channel = 'email';") - queued_before ))
run_wrk delivery_draining me_holidays.lua /v1/me/holidays "$seconds"
sent_during_load=$(q "SELECT COUNT(*) FROM outbox WHERE status = 'sent';")
# Bounded: at most ten minutes for the rest.
for _ in $(seq 1 3000); do
    [ "$(q "SELECT COUNT(*) FROM outbox WHERE status = 'pending';")" -eq 0 ] && break
    sleep 0.2
done
drained_at=$(date +%s.%N)
pending_left=$(q "SELECT COUNT(*) FROM outbox WHERE status = 'pending';")
dead=$(q "SELECT COUNT(*) FROM outbox WHERE status = 'dead';")
received=$(wc -l < "$dir/mail/messages.jsonl" 2>/dev/null || echo 0)
distinct=$(python3 -c "import json, sys; print(len({dict(json.loads(l)['headers']).get('Message-ID') for l in open(sys.argv[1])}))" \
    "$dir/mail/messages.jsonl" 2>/dev/null || echo 0)
run_wrk delivery_after me_holidays.lua /v1/me/holidays "$seconds"
python3 - "$dir/delivery.json" <<PY
import json, sys
json.dump({"queued": $queued, "received": $received, "distinct_message_ids": $distinct, "dead": $dead,
           "pending_left": $pending_left, "sent_during_load": $sent_during_load,
           "seconds": round($drained_at - $posted_at, 2),
           "messages_per_second": round($received / max($drained_at - $posted_at, 0.001), 1)}, open(sys.argv[1], "w"))
PY
say "delivery: $(cat "$dir/delivery.json")"
cleanup
trap - EXIT

# The same company on PostgreSQL, one and two servers (BENCH_POSTGRES=0 leaves it out).
if [ "${BENCH_POSTGRES:-1}" != 0 ]; then
    source bench/postgres.sh
    postgres_scenarios
fi

# The year view and approvals before and after the leave model, in this run (BENCH_BEFORE=0 leaves it out).
if [ "$before_commit" != 0 ]; then
    source bench/before.sh
    before_after_scenarios
fi

python3 bench/report.py --dir "$dir" --seed "$seed" --seconds "$seconds" --connections "$connections" --threads "$threads" \
    --employees "$employees" --requests "$requests" --years "$years" --runs "$runs" --day-writers "$day_writers" \
    --day-write-delay "$day_write_delay" --change-delay "$change_delay" --paced-delay "$paced_delay" --busiest-year "$busiest_year" --free-year "$free_year" --pending-rows "$pending_rows" \
    --export-rows "$export_rows" --server-rss-kib "$rss_kib" --server-hwm-kib "$hwm_kib"
