#!/usr/bin/env bash
# Checks the HTTP contract against the server: validates api-spec/openapi.yaml, then starts the built sgserver on
# 127.0.0.1 with a freshly seeded demo database and runs schemathesis over every operation, once with an admin's
# token and once with an employee's. Ends with one line "N passed, M failed" (one check per step).
#
# Environment: SGSERVER (default .build/debug/sgserver), API_CHECK_EXAMPLES (default 100, per operation and phase),
# API_CHECK_SEED (default 20260302).
set -uo pipefail
cd "$(dirname "$0")/.."

sgserver=${SGSERVER:-.build/debug/sgserver}
examples=${API_CHECK_EXAMPLES:-100}
seed=${API_CHECK_SEED:-20260302}
venv=.venv
passed=0
failed=0
pass() { echo "ok: $1"; passed=$((passed + 1)); }
fail() { echo "FAILED: $1"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }

# A venv under the repository with the pinned tools (scripts/venv.sh).
scripts/venv.sh || { fail "scripts/venv.sh (the pinned Python tools)"; finish; }

echo "== openapi-spec-validator api-spec/openapi.yaml"
# libyaml (which the validator and most generators use) accepts some plain scalars that the YAML grammar, and
# stricter parsers, refuse; both must read the same document.
if "$venv/bin/python" -c '
import sys, yaml
text = open("api-spec/openapi.yaml", encoding="utf-8").read()
strict = yaml.load(text, Loader=yaml.SafeLoader)
sys.exit(0 if strict == yaml.load(text, Loader=yaml.CSafeLoader) else "libyaml and the strict parser disagree")
' && "$venv/bin/openapi-spec-validator" api-spec/openapi.yaml; then
    pass "the spec is valid YAML and valid OpenAPI 3.1"
else
    fail "the spec is not valid YAML or not valid OpenAPI"
    finish
fi

# Rules of the contract that a validator does not know: every authenticated change documents 429, since the
# change limit applies to each of them.
if "$venv/bin/python" -c '
import sys, yaml
spec = yaml.safe_load(open("api-spec/openapi.yaml", encoding="utf-8"))
missing = [f"{method.upper()} {path}" for path, item in spec["paths"].items() for method, op in item.items()
           if method in ("post", "put", "patch", "delete") and op.get("security", spec.get("security")) != []
           and "429" not in op["responses"]]
sys.exit("no 429 documented on: " + ", ".join(missing) if missing else 0)
'; then
    pass "every authenticated change documents 429"
else
    fail "an authenticated change does not document 429"
fi

# The compatibility policy (docs/api-changelog.md): no breaking change since the last release without a new major
# version; and the check itself finds the breaking changes made on purpose in its tests.
echo "== scripts/api-compat.py against the last release in api-spec/releases/"
if "$venv/bin/python" scripts/api-compat.py; then
    pass "the contract keeps the compatibility policy"
else
    fail "the contract breaks the compatibility policy"
fi
if "$venv/bin/python" -m pytest -q -p no:cacheprovider scripts/tests/test_api_compat.py; then
    pass "the compatibility check finds breaking changes made on purpose"
else
    fail "the compatibility check's own tests"
fi

source scripts/lib/demo-server.sh
logs=.build/api-check  # kept after the run, for reading the full reports
mkdir -p "$logs"
start_demo_server

login() {
    curl -fsS -X POST "$base/v1/auth/login" -H 'Content-Type: application/json' \
        -d "{\"username\":\"$1\",\"password\":\"$1-demo-2026\"}" |
        "$venv/bin/python" -c 'import json, sys; print(json.load(sys.stdin)["token"])'
}

# One schemathesis run: every operation, all phases (examples, coverage, fuzzing, stateful), default checks.
total_cases=0
fuzz() {
    local who=$1 token=$2 logout_token=$3 run_seed=$4 log="$logs/schemathesis-$1.log"
    echo "== schemathesis as $who (seed $run_seed, at most $examples examples per operation and phase)"
    SG_TOKEN=$token SG_LOGOUT_TOKEN=$logout_token timeout 900 "$venv/bin/schemathesis" \
        --config-file scripts/api-check/schemathesis.toml run api-spec/openapi.yaml \
        --url "$base" --seed "$run_seed" --max-examples "$examples" --no-color --max-failures 50 >"$log" 2>&1
    local status=$?
    local cases
    cases=$(grep -oE "[0-9]+ generated" "$log" | tail -1 | grep -oE "[0-9]+")
    total_cases=$((total_cases + ${cases:-0}))
    if [ "$status" -eq 0 ]; then
        sed -n '/= SUMMARY =/,$p' "$log" | grep -E "Tested:|generated|⚠️" || true
        pass "schemathesis as $who: ${cases:-0} cases, no failures"
    else
        # Reproductions can carry 100 KB bodies: show every failure, each line cut short; the log has them whole.
        sed -n '/= FAILURES =/,$p' "$log" | cut -c1-400 | head -300
        grep -q "= FAILURES =" "$log" || tail -40 "$log"
        fail "schemathesis as $who (exit $status; full report in $log)"
    fi
}

# Every token first: the fuzzer's failed logins soon have this address throttled (429), as they should.
admin_token=$(login admin) && admin_logout=$(login admin) && alice_token=$(login alice) && alice_logout=$(login alice) ||
    { fail "logging in as admin and alice"; finish; }
# Before the fuzzer changes the demo company: every body refuses a field it does not define.
echo "== every body refuses an unknown field"
if "$venv/bin/python" scripts/api-check/unknown_fields.py api-spec/openapi.yaml "$base" "$admin_token" >"$logs/unknown-fields.log" 2>&1; then
    pass "every body refuses an unknown field ($(grep -c '^ok:' "$logs/unknown-fields.log") operations)"
else
    grep "^FAILED" "$logs/unknown-fields.log" | cut -c1-300
    fail "a body accepts a field it does not define (log: $logs/unknown-fields.log)"
fi

# The employee first: the admin's run may deactivate any employee it finds (PATCH /v1/employees/{id}), alice included,
# and her run must not depend on which ids that run happens to try.
fuzz employee "$alice_token" "$alice_logout" "$((seed + 1))"
fuzz admin "$admin_token" "$admin_logout" "$seed"
echo "schemathesis generated $total_cases cases in all (reports in $logs)"

check_demo_server_health
finish
