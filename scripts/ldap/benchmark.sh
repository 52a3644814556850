#!/bin/sh
# Login latency against a throwaway local slapd: median, p90, p99 over SG_LDAP_BENCHMARK_LOGINS logins
# (default 500) for the directory alone, Sessions.login and POST /v1/auth/login. Build in release for
# figures that mean something: scripts/ldap/benchmark.sh -c release
set -eu
cd "$(dirname "$0")/../.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
SG_LDAP_BENCHMARK=1 swift test --disable-xctest --filter LDAPLatencyBenchmark "$@" > "$log" 2>&1 || status=$?
grep -E "^LATENCY|✘|error" "$log" || true
# A build or test failure is the script's failure, not a run with no figures.
[ "$status" -eq 0 ] || { tail -20 "$log" >&2; echo "benchmark: swift test exited $status" >&2; exit "$status"; }
