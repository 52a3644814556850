#!/usr/bin/env bash
# Kills the built sgserver with SIGKILL again and again while several clients write through the API, restarts it
# each time, and then proves that every write the server acknowledged (201) is in the database and that
# `sgadmin check` finds the database clean. Ends with one line "N passed, M failed" (one check per step).
#
# Every loop is bounded in time. Environment: SGSERVER, SGADMIN (default .build/debug/...), CRASH_ROUNDS (default
# 5 kills), CRASH_SECONDS (default 3 s of writes before each kill), CRASH_WRITERS (default 4 clients).
set -uo pipefail
cd "$(dirname "$0")/.."

sgserver=${SGSERVER:-.build/debug/sgserver}
sgadmin=${SGADMIN:-.build/debug/sgadmin}
rounds=${CRASH_ROUNDS:-5}
seconds=${CRASH_SECONDS:-3}
writers=${CRASH_WRITERS:-4}
passed=0
failed=0
pass() { echo "ok: $1"; passed=$((passed + 1)); }
fail() { echo "FAILED: $1"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }

[ -x "$sgserver" ] && [ -x "$sgadmin" ] || { fail "$sgserver and $sgadmin are not built (swift build)"; finish; }

work=$(mktemp -d)
db="$work/crash.sqlite"
server_pid=
writer_pids=()
cleanup() {
    touch "$work/stop"
    for pid in "${writer_pids[@]}"; do kill "$pid" 2>/dev/null; done
    if [ -n "$server_pid" ]; then kill -9 "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; fi
    rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"

# Starts the server and waits (at most 30 s) until it answers.
start_server() {
    "$sgserver" --host 127.0.0.1 --port "$port" --database "$db" --seed-demo --log-level error \
        --writes-per-minute 1000000 >>"$work/server.log" 2>&1 &
    server_pid=$!
    local deadline=$((SECONDS + 30))
    while [ $SECONDS -lt $deadline ]; do
        curl -fsS --max-time 2 "$base/v1/health" >/dev/null 2>&1 && return 0
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    return 1
}

# One client: logs in as $1 and asks for one-day sick leave (no approval, no allowance) on each weekday from 2031
# on, one after the other, until told to stop or out of time. A 201 is an acknowledged write: "username date" is
# appended to its file. While the server is down it tries the same day again.
writer() {
    local user=$1 deadline=$2 token= day=0 code date
    while [ $SECONDS -lt "$deadline" ] && [ ! -e "$work/stop" ]; do
        if [ -z "$token" ]; then
            token=$(curl -s --max-time 5 -X POST "$base/v1/auth/login" -H 'Content-Type: application/json' \
                -d "{\"username\":\"$user\",\"password\":\"$user-demo-2026\"}" | sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
            [ -z "$token" ] && { sleep 0.1; continue; }
        fi
        date=$(date -u -d "2031-01-06 + $day days" +%F)
        if [ "$(date -u -d "$date" +%u)" -gt 5 ]; then day=$((day + 1)); continue; fi
        code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 -X POST "$base/v1/me/holidays" \
            -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
            -d "{\"startDate\":\"$date\",\"endDate\":\"$date\",\"leaveTypeId\":2}")
        case "$code" in
            201) echo "$user $date" >>"$work/acked-$user"; day=$((day + 1)) ;;
            000 | 503) sleep 0.05 ;;          # down or busy: the same day again
            401) token= ;;
            *) day=$((day + 1)) ;;            # refused (a public holiday, ...): the next day
        esac
    done
}

echo "== sgserver on $base (database $db), $rounds kills, $writers writers"
start_server || { fail "sgserver started"; cat "$work/server.log"; finish; }
users=$("$sgadmin" user list --database "$db" --format csv | tr -d '\r' | awk -F, 'NR > 1 && $2 != "admin" && $7 == "yes" { print $2 }' | head -n "$writers")
user_count=$(echo "$users" | grep -c .)
[ "$user_count" -eq "$writers" ] || { fail "the demo company has $writers employees to write as (found: $users)"; finish; }

deadline=$((SECONDS + rounds * (seconds + 35) + 30))
for user in $users; do
    writer "$user" "$deadline" &
    writer_pids+=($!)
done

restarted=0
for round in $(seq 1 "$rounds"); do
    sleep "$seconds"
    kill -9 "$server_pid"
    wait "$server_pid" 2>/dev/null
    server_pid=
    if start_server; then restarted=$((restarted + 1)); else break; fi
done
sleep "$seconds"
touch "$work/stop"
for pid in "${writer_pids[@]}"; do wait "$pid"; done
writer_pids=()
kill -9 "$server_pid"
wait "$server_pid" 2>/dev/null
server_pid=

if [ "$restarted" -eq "$rounds" ]; then
    pass "sgserver killed with SIGKILL under writes and restarted $rounds times"
else
    fail "sgserver restarted after $restarted of $rounds kills"
    tail -20 "$work/server.log"
fi

# The last kill left a write-ahead log: opening the database recovers it, as the server does at start.
cat "$work"/acked-* 2>/dev/null | sort -u >"$work/acked"
acked=$(wc -l <"$work/acked")
missing=$({
    echo "CREATE TEMP TABLE acked (username TEXT, day TEXT);"
    awk '{ printf "INSERT INTO acked VALUES (\x27%s\x27, \x27%s\x27);\n", $1, $2 }' "$work/acked"
    echo "SELECT a.username || ' ' || a.day FROM acked a WHERE NOT EXISTS (
              SELECT 1 FROM holiday_requests r JOIN employees e ON e.id = r.employee_id
              WHERE e.username = a.username AND r.start_date = a.day AND r.status = 'approved');"
} | sqlite3 "$db")
[ -n "$missing" ] && echo "missing: $missing" | head -20
missing=$(echo -n "$missing" | grep -c . || true)
if [ "$acked" -gt 0 ] && [ "$missing" -eq 0 ]; then
    pass "all $acked acknowledged writes are in the database"
else
    fail "$missing of $acked acknowledged writes are missing"
fi

if "$sgadmin" check --database "$db" >"$work/check.txt" 2>&1; then
    pass "sgadmin check finds the database clean"
else
    fail "sgadmin check (exit $?)"
    cat "$work/check.txt"
fi
finish
