"""Every operation of the contract that takes a JSON body refuses a field the body does not define: the body of the
contract's example with one field more is a 422 `validation-failed` naming that field, from a live server.

Usage: unknown_fields.py SPEC BASE_URL ADMIN_TOKEN. Ends with "N passed, M failed".
"""
import json
import re
import sys
import urllib.error
import urllib.request

import yaml

from request_bodies import json_bodies

spec_path, base, token = sys.argv[1:4]
spec = yaml.safe_load(open(spec_path, encoding="utf-8"))
UNKNOWN = "notAFieldOfThisBody"
# Path parameters filled with values the demo company has, so that the body is what the server refuses.
VALUES = {"id": "1", "year": "2026", "startsOn": "2026-01-05", "date": "2026-12-25", "employeeId": "2", "token": "x"}


passed = failed = 0
for method, path, _, _, examples in json_bodies(spec):
    body = dict(examples[0] if examples else {})
    body[UNKNOWN] = True
    url = base + re.sub(r"\{(\w+)\}", lambda m: VALUES.get(m.group(1), "1"), path)
    request = urllib.request.Request(url, method=method.upper(), data=json.dumps(body).encode(), headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status, answer = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, answer = error.code, error.read()
    where = f"{method.upper()} {path}"
    try:
        problem = json.loads(answer)
    except ValueError:
        problem = {}
    if status == 422 and problem.get("type") == "urn:sgemployee:problem:validation-failed" and problem.get("field") == UNKNOWN:
        print(f"ok: {where} refuses {UNKNOWN}")
        passed += 1
    else:
        print(f"FAILED: {where} with {UNKNOWN}: {status} {answer[:300]!r}")
        failed += 1
print(f"{passed} passed, {failed} failed")
sys.exit(0 if failed == 0 else 1)
