"""Every request body of api-spec/openapi.yaml through the Python client generated from it: each example the
contract gives for a JSON body is read into the generated model with `from_dict` and written back with `to_dict`,
and must come back the same. A body that the generated types cannot hold, or hold only in part, fails here, as it
would fail a client team (a body made of alternatives, each a model of its own, cannot carry fields of two).

Usage: round_trip.py SPEC, with the generated package `sgemployee_client` on sys.path. Ends with "N passed, M failed".
"""
import os
import re
import sys

import yaml

from sgemployee_client import models

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "api-check"))
from request_bodies import json_bodies  # noqa: E402


def pascal(text):
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", text) if part)


spec = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))


passed = failed = 0
for method, path, operation, media, examples in json_bodies(spec):
    where = f"{method.upper()} {path}"
    schema = media["schema"]
    name = schema["$ref"].split("/")[-1] if "$ref" in schema else pascal(operation["operationId"]) + "Body"
    model = getattr(models, pascal(name), None)
    if model is None:
        print(f"FAILED: {where}: no generated model {pascal(name)} for its body")
        failed += 1
        continue
    if not examples:
        print(f"FAILED: {where}: the contract gives no example of its body")
        failed += 1
        continue
    for example in examples:
        try:
            back = model.from_dict(example).to_dict()
        except Exception as error:  # the generated code's own exception, whatever it is
            print(f"FAILED: {where}: {pascal(name)}.from_dict({example!r}) raised {error!r}")
            failed += 1
            continue
        if back != example:
            print(f"FAILED: {where}: {example!r} came back from {pascal(name)} as {back!r}")
            failed += 1
        else:
            print(f"ok: {where} as {pascal(name)}")
            passed += 1
print(f"{passed} passed, {failed} failed")
sys.exit(0 if failed == 0 else 1)
