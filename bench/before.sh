# Sourced by bench/run.sh after the SQLite scenarios: the leave model's bar, that the year view and approvals are no
# slower than before it, measured in the same run. BENCH_BEFORE names the commit before the leave model (8d3245c, its
# parent; 0 leaves this out). Its tree is taken with `git archive` into var/bench-before/src and built there in
# release (the first time about five minutes, later only when BENCH_BEFORE changes); its own sgbench seeds its own
# company with the run's settings, and the current sgserver serves the copy of this run's company taken right after
# seeding (fresh.sqlite). Each round serves both in turn (the order alternating), each alone on the machine: the
# year view (scenario 2, after each employee's year was read once), the write mix (scenario 4: creates and the
# decisions on them) saturated, the baseline paced and the write mix paced (4p), with the same wrk scripts, which
# speak the API both versions share. Results: $dir/ba_SIDE_SCENARIO.ROUND.json. Uses run.sh's run_wrk, say, fail,
# wait_for_server, $before_commit, $bin, $dir, $seed, $employees, $requests, $years, $runs, $seconds, $paced_delay.

before_after_scenarios() {
    local commit=$before_commit root=var/bench-before
    local full
    full=$(git rev-parse --verify --quiet "$commit^{commit}") || fail "BENCH_BEFORE: no commit $commit in this clone"
    say "before and after the leave model: a release build of ${full:0:7} in $root/src"
    mkdir -p "$root"
    if [ "$(cat "$root/commit" 2>/dev/null)" != "$full" ]; then
        rm -rf "$root/src" "$root/commit"
        mkdir -p "$root/src"
        git archive "$full" | tar -x -C "$root/src" || fail "cannot take the tree of $commit"
        echo "$full" > "$root/commit"
    fi
    (cd "$root/src" && swift build -c release > ../build.log 2>&1) \
        || { tail -40 "$root/build.log" >&2; fail "the release build of $commit failed"; }
    local before_bin
    before_bin=$(cd "$root/src" && swift build -c release --show-bin-path)
    for tool in sgserver sgbench; do [ -x "$before_bin/$tool" ] || fail "the build of $commit did not produce $tool"; done

    local company="$dir/before"
    rm -rf "$company"
    mkdir -p "$company"
    say "seeding the same company ($employees employees, seed $seed) with the sgbench of ${full:0:7}"
    "$before_bin/sgbench" seed --database "$company/bench.sqlite" --tokens "$company/tokens.tsv" \
        --free-days "$company/days.txt" --seed "$seed" --employees "$employees" --requests "$requests" \
        --years "$years" > "$company/seed.txt" || fail "the sgbench of $commit could not seed"

    local saved_port=$port saved_tokens=$BENCH_TOKENS saved_days=$BENCH_DAYS side_pid="" round side
    ba_cleanup() {
        [ -n "$side_pid" ] && kill "$side_pid" 2>/dev/null || true
        [ -n "$side_pid" ] && wait "$side_pid" 2>/dev/null || true
        side_pid=""
    }
    trap ba_cleanup EXIT
    # Each side's write runs book days of their own share of its company's free year.
    local writes_per_side=$((2 * runs)) write_run
    local warm_seconds=$(( employees / 4000 + 3 ))
    for round in $(seq 1 "$runs"); do
        local order="before after"
        [ $((round % 2)) -eq 0 ] && order="after before"
        for side in $order; do
            port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
            if [ "$side" = before ]; then
                # Before the leave model there was no write limit to lift.
                "$before_bin/sgserver" --host 127.0.0.1 --port "$port" --database "$company/bench.sqlite" \
                    --log-level warning > "$dir/ba_server_before.log" 2>&1 &
                export BENCH_TOKENS="$company/tokens.tsv" BENCH_DAYS="$company/days.txt"
            else
                "$bin/sgserver" --host 127.0.0.1 --port "$port" --database "$dir/fresh.sqlite" --log-level warning \
                    --writes-per-minute 1000000 > "$dir/ba_server_after.log" 2>&1 &
                export BENCH_TOKENS="$dir/tokens.tsv" BENCH_DAYS="$dir/days.txt"
            fi
            side_pid=$!
            wait_for_server "$port" "$side_pid" "$dir/ba_server_$side.log" "the $side server"
            say "round $round of $runs, $side the leave model: warm-up (${warm_seconds} s), 1, 2, 4, 1p, 4p"
            run_wrk "ba_${side}_warmup.$round" uncached.lua /v1/me/holidays "$warm_seconds"
            run_wrk "ba_${side}_baseline.$round" baseline.lua /v1/health "$seconds"
            run_wrk "ba_${side}_me_holidays.$round" me_holidays.lua /v1/me/holidays "$seconds"
            write_run=$((2 * (round - 1)))
            run_wrk "ba_${side}_writes.$round" writes.lua / "$seconds" \
                BENCH_WRITE_RUNS="$writes_per_side" BENCH_WRITE_RUN="$write_run"
            run_wrk "ba_${side}_baseline_paced.$round" baseline.lua /v1/health "$seconds" BENCH_DELAY_MS="$paced_delay"
            run_wrk "ba_${side}_writes_paced.$round" writes.lua / "$seconds" BENCH_DELAY_MS="$paced_delay" \
                BENCH_WRITE_RUNS="$writes_per_side" BENCH_WRITE_RUN="$((write_run + 1))"
            ba_cleanup
        done
    done
    trap - EXIT
    port=$saved_port
    export BENCH_TOKENS="$saved_tokens" BENCH_DAYS="$saved_days"
    echo "{\"commit\":\"$full\"}" > "$dir/ba_commit.json"
    rm -f "$dir/fresh.sqlite" "$dir/fresh.sqlite-wal" "$dir/fresh.sqlite-shm"
}
