# Sourced by bench/run.sh after the SQLite scenarios: the same company, copied into PostgreSQL (a throwaway cluster of
# scripts/postgres.sh on 127.0.0.1), served by one and then two release sgserver processes, driven by the same wrk
# scenarios. Results: $dir/pg_*.json (one server) and $dir/pg2_*.json (two servers: a wrk per server, half the
# connections each, requests added up). Uses run.sh's run_wrk, $bin, $db, $dir, $connections, $seconds.

postgres_scenarios() {
    local pgdir="$dir/postgres" url pg_url servers=() ports=() pids=()
    say "PostgreSQL: a cluster on 127.0.0.1, the company copied in with sgadmin copy"
    scripts/postgres.sh start "$pgdir" >&2 || fail "cannot start a PostgreSQL cluster"
    eval "$(scripts/postgres.sh env "$pgdir" | sed 's/^/export /')"
    pg_cleanup() {
        for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
        for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
        scripts/postgres.sh stop "$pgdir" >/dev/null 2>&1 || true
    }
    trap pg_cleanup EXIT
    url="${SG_TEST_POSTGRES_URL}?sslmode=disable"
    local copy_start copy_end
    copy_start=$(date +%s%N)
    "$bin/sgadmin" copy --database "$db" --to "$url" > "$dir/pg_copy.txt" 2>&1 || { cat "$dir/pg_copy.txt" >&2; fail "sgadmin copy into PostgreSQL"; }
    copy_end=$(date +%s%N)
    printf '{"copy_seconds":%.1f}\n' "$(( (copy_end - copy_start) / 1000000 ))e-3" > "$dir/pg_copy.json"
    say "copied in $(cat "$dir/pg_copy.json")"

    # start_pg_server: one more release sgserver on the database; its port and pid join ports and pids.
    start_pg_server() {
        local server_port
        server_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
        SG_DATABASE="$url" "$bin/sgserver" --host 127.0.0.1 --port "$server_port" --log-level warning \
            --writes-per-minute 1000000 --database-pool-size 16 > "$dir/pg_server_${#ports[@]}.log" 2>&1 &
        pids+=($!)
        ports+=("$server_port")
        wait_for_server "$server_port" "${pids[-1]}" "$dir/pg_server_$(( ${#ports[@]} - 1 )).log" "sgserver on PostgreSQL"
    }

    # The targets compare the cached year view: before it is measured, each server reads every employee's year once,
    # in turn (uncached.lua), as SQLite's warm-up does. PostgreSQL computes a view in several round trips (about 1,700
    # a second cold, against SQLite's 5,000 or more), so it is given employees / 1,000 + 3 seconds: a 3 s warm-up read
    # half of them, and the first reads of the other half were in the measured run: 20,032 req/s and p99 33 ms, against
    # 27,377 and 4.1 ms warm (by hand, 26 November 2026).
    local warm_seconds=$(( employees / 1000 + 3 ))
    start_pg_server
    local saved_port=$port
    port=${ports[0]}
    say "PostgreSQL, one server: warm-up, every employee's year read once (${warm_seconds} s, not reported)"
    run_wrk pg_warmup uncached.lua /v1/me/holidays "$warm_seconds"
    say "PostgreSQL, one server: 1 baseline, 2 employee, 3 admin pending, 4 write mix"
    run_wrk pg_baseline baseline.lua /v1/health "$seconds"
    run_wrk pg_me_holidays me_holidays.lua /v1/me/holidays "$seconds"
    run_wrk pg_admin_pending admin_pending.lua "/v1/holidays?status=pending" "$seconds"
    # The last share of the free year, which no SQLite run booked: their unfinished chains would overlap its requests.
    run_wrk pg_writes writes.lua / "$seconds" BENCH_WRITE_RUNS="$write_runs" BENCH_WRITE_RUN="$((write_runs - 1))"

    start_pg_server
    say "PostgreSQL, two servers: warm-up of each (${warm_seconds} s each, not reported)"
    (port=${ports[0]}; run_wrk pg2_warmup_a uncached.lua /v1/me/holidays "$warm_seconds")
    (port=${ports[1]}; run_wrk pg2_warmup_b uncached.lua /v1/me/holidays "$warm_seconds")
    say "PostgreSQL, two servers (a wrk for each, half the connections each)"
    local scenario name script path half=$((connections / 2))
    for scenario in "baseline baseline.lua /v1/health" "me_holidays me_holidays.lua /v1/me/holidays" \
        "admin_pending admin_pending.lua /v1/holidays?status=pending"; do
        read -r name script path <<< "$scenario"
        (port=${ports[0]}; connections=$half; run_wrk "pg2_${name}_a" "$script" "$path" "$seconds") &
        local first=$!
        (port=${ports[1]}; connections=$half; run_wrk "pg2_${name}_b" "$script" "$path" "$seconds") &
        local second=$!
        wait "$first" || fail "wrk on the first PostgreSQL server ($name)"
        wait "$second" || fail "wrk on the second PostgreSQL server ($name)"
        python3 - "$dir/pg2_${name}_a.json" "$dir/pg2_${name}_b.json" "$dir/pg2_${name}.json" <<'PY'
import json, sys
a, b = (json.load(open(path)) for path in sys.argv[1:3])
errors = {key: a["errors"][key] + b["errors"][key] for key in a["errors"]}
json.dump({"requests": a["requests"] + b["requests"], "seconds": max(a["seconds"], b["seconds"]),
           "rps": round(a["rps"] + b["rps"], 1), "p50_ms": max(a["p50_ms"], b["p50_ms"]),
           "p99_ms": max(a["p99_ms"], b["p99_ms"]), "errors": errors}, open(sys.argv[3], "w"))
PY
    done
    port=$saved_port

    say "PostgreSQL: invariants"
    "$bin/sgadmin" check --json --database "$url" > "$dir/pg_check.json" || true
    pg_cleanup
    trap - EXIT
}
