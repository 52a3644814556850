# Sourced by the check scripts: starts the built sgserver on a free port of 127.0.0.1 with a freshly seeded demo
# database in a temporary folder, and stops it and removes the folder on exit.
# Sets: base (the server's URL), server_pid, work (the folder; the log is $work/server.log).
# Needs: $sgserver (the binary), $venv (a Python to find a free port), and fail/finish from the caller.
source "$(dirname "${BASH_SOURCE[0]}")/sgserver.sh"
work=$(mktemp -d)
server_pid=
stop_demo_server() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; fi
    rm -rf "$work"
}
trap stop_demo_server EXIT

start_demo_server() {
    [ -x "$sgserver" ] || { fail "$sgserver is not built (swift build --product sgserver)"; finish; }
    local port
    port=$(free_port)
    base="http://127.0.0.1:$port"
    echo "== sgserver on $base (database $work/demo.sqlite, demo company)"
    # The checks log in once and keep their tokens (schemathesis for up to 15 minutes a run), without refreshing.
    "$sgserver" --host 127.0.0.1 --port "$port" --database "$work/demo.sqlite" --seed-demo --log-level error \
        --writes-per-minute 1000000 --access-token-minutes 120 >"$work/server.log" 2>&1 &
    server_pid=$!
    if ! wait_healthy "$base" "$server_pid"; then
        cat "$work/server.log"
        fail "sgserver did not start"
        finish
    fi
}

# Fails the check when the server died or logged an unhandled error during the run.
check_demo_server_health() {
    check_server_health "$server_pid" "$work/server.log" sgserver
}
