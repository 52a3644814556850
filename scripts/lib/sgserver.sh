# Sourced by the check scripts that run the built sgserver: a free port, the wait until it answers, and its health
# after a run. Needs: $venv (a Python to find a free port) and fail from the caller.

# A TCP port of 127.0.0.1 that nothing listens on now.
free_port() {
    "$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Waits (bounded: about 20 s) until the server at URL, process PID, answers its health check; 1 if it never does.
wait_healthy() {
    local url=$1 pid=$2
    for _ in $(seq 1 100); do
        curl -fsS --max-time 2 "$url/v1/health" >/dev/null 2>&1 && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.2
    done
    curl -fsS --max-time 2 "$url/v1/health" >/dev/null 2>&1
}

# Fails the check and returns 1 when process PID died during the run or its LOG holds an unhandled error; LABEL
# names the server in the message.
check_server_health() {
    local pid=$1 log=$2 label=$3
    if ! kill -0 "$pid" 2>/dev/null; then
        cat "$log"
        fail "$label died during the run"
        return 1
    elif grep -q "Unhandled error" "$log"; then
        grep "Unhandled error" "$log" | head -20
        fail "$label logged unhandled errors"
        return 1
    fi
}
