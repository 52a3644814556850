#!/usr/bin/env bash
# Checks that clients generated from api-spec/openapi.yaml work, as a client team would generate them:
#  - the Swift client of clients/swift (swift-openapi-generator, at build time) builds without a warning from the
#    generator, and its sgclient-day drives a live demo server through an employee's and an admin's day;
#  - the Python client (openapi-python-client, settings in clients/python/config.yaml) generates without a
#    warning, compiles, and clients/python/smoke.py runs against the same server.
# Ends with one line "N passed, M failed" (one check per step).
#
# Environment: SGSERVER (default .build/debug/sgserver).
set -uo pipefail
cd "$(dirname "$0")/.."

sgserver=${SGSERVER:-.build/debug/sgserver}
venv=.venv
out=.build/clients  # kept after the run: the generated Python package and the logs
passed=0
failed=0
pass() { echo "ok: $1"; passed=$((passed + 1)); }
fail() { echo "FAILED: $1"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }
mkdir -p "$out"

scripts/venv.sh || { fail "scripts/venv.sh (the pinned Python tools)"; finish; }

echo "== swift build --package-path clients/swift"
swift_client=
if swift build --package-path clients/swift --product sgclient-day >"$out/swift-build.log" 2>&1; then
    # The generator names what it cannot translate ("Schema ... is not supported ... skipping"): a property or an
    # operation a client team would silently miss.
    if grep -E "warning: .*(not supported|skipping)" "$out/swift-build.log" | sort -u | head -20 | grep .; then
        fail "swift-openapi-generator skipped parts of the contract"
    else
        pass "the Swift client generates and builds, nothing skipped"
    fi
    swift_client=clients/swift/.build/debug/sgclient-day
else
    grep -E "error:" "$out/swift-build.log" | sort -u | head -30
    fail "the Swift client does not build (log: $out/swift-build.log)"
fi

echo "== openapi-python-client generate"
rm -rf "$out/python" && mkdir -p "$out/python"
if PATH="$PWD/$venv/bin:$PATH" "$venv/bin/openapi-python-client" generate --path api-spec/openapi.yaml \
    --config clients/python/config.yaml --meta none --output-path "$out/python/sgemployee_client" \
    >"$out/python-generate.log" 2>&1; then
    if grep -qiE "warning|unable|cannot|unsupported" "$out/python-generate.log"; then
        grep -iE -A4 "warning|unable|cannot|unsupported" "$out/python-generate.log" | head -40
        fail "openapi-python-client left parts of the contract out"
    elif "$venv/bin/python" -m compileall -q "$out/python/sgemployee_client" >/dev/null; then
        pass "the Python client generates with nothing left out, and compiles"
    else
        fail "the generated Python client does not compile"
    fi
else
    tail -30 "$out/python-generate.log"
    fail "openapi-python-client failed (log: $out/python-generate.log)"
fi

# Every request body of the contract, as the generated Python types hold it.
if [ -f "$out/python/sgemployee_client/__init__.py" ]; then
    echo "== clients/python/round_trip.py"
    if PYTHONPATH="$out/python" "$venv/bin/python" clients/python/round_trip.py api-spec/openapi.yaml >"$out/round-trip.log" 2>&1; then
        pass "every request body round-trips through the generated types ($(tail -1 "$out/round-trip.log"))"
    else
        grep "^FAILED" "$out/round-trip.log" | head -20
        fail "a request body does not round-trip through the generated types (log: $out/round-trip.log)"
    fi
fi

# The client of the last release, as a client team generated it then: its walk runs against today's server.
release=$(ls api-spec/releases/ | sed -n 's/^\([0-9]*\.[0-9]*\.[0-9]*\)\.yaml$/\1/p' | sort -t. -k1,1n -k2,2n -k3,3n | tail -1)
released=
echo "== openapi-python-client generate, the $release release"
rm -rf "$out/python-$release" && mkdir -p "$out/python-$release"
if [ -f "clients/python/releases/$release/walk.py" ] &&
    PATH="$PWD/$venv/bin:$PATH" "$venv/bin/openapi-python-client" generate --path "api-spec/releases/$release.yaml" \
        --config clients/python/config.yaml --meta none --output-path "$out/python-$release/sgemployee_client" \
        >"$out/python-$release-generate.log" 2>&1; then
    released=$out/python-$release
else
    fail "no client of the $release release (clients/python/releases/$release/walk.py, log: $out/python-$release-generate.log)"
fi

source scripts/lib/demo-server.sh
start_demo_server

if [ -n "$swift_client" ]; then
    echo "== sgclient-day $base"
    if timeout 300 "$swift_client" "$base"; then pass "the Swift client's day"; else fail "the Swift client's day"; fi
fi
if [ -f "$out/python/sgemployee_client/__init__.py" ]; then
    echo "== clients/python/smoke.py $base"
    if PYTHONPATH="$out/python" timeout 300 "$venv/bin/python" clients/python/smoke.py "$base"; then
        pass "the Python client's smoke run"
    else
        fail "the Python client's smoke run"
    fi
fi

if [ -n "$released" ]; then
    echo "== clients/python/releases/$release/walk.py $base"
    if PYTHONPATH="$released" timeout 300 "$venv/bin/python" "clients/python/releases/$release/walk.py" "$base"; then
        pass "the $release release's Python client walks today's server"
    else
        fail "the $release release's Python client on today's server"
    fi
fi

check_demo_server_health
finish
