#!/bin/sh
# Login latency against a throwaway local slapd: median, p90, p99 over SG_LDAP_BENCHMARK_LOGINS logins
# (default 500) for the directory alone, Sessions.login and POST /v1/auth/login. Build in release for
# figures that mean something: scripts/ldap/benchmark.sh -c release
set -eu
cd "$(dirname "$0")/../.."
SG_LDAP_BENCHMARK=1 swift test --disable-xctest --filter LDAPLatencyBenchmark "$@" 2>&1 | grep -E "^LATENCY|✘|error" || true
