"""scripts/api-compat.py on changes made on purpose to the last release's spec: each breaking change is found and
fails a minor version, and what the policy allows passes."""
import copy
import os
import subprocess
import sys

import pytest
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHECKER = os.path.join(ROOT, "scripts", "api-compat.py")
PREVIOUS = os.path.join(ROOT, "api-spec", "releases", "2.1.0.yaml")


@pytest.fixture(scope="module")
def previous():
    with open(PREVIOUS, encoding="utf-8") as file:
        return yaml.safe_load(file)


def run(tmp_path, spec, version):
    spec = copy.deepcopy(spec)
    spec["info"]["version"] = version
    current = tmp_path / "current.yaml"
    current.write_text(yaml.safe_dump(spec), encoding="utf-8")
    changelog = tmp_path / "changelog.md"
    changelog.write_text(f"## {version} — a day\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, CHECKER, "--previous", PREVIOUS, "--current", str(current), "--changelog", str(changelog)],
        capture_output=True, text=True, timeout=60)
    return result.returncode, result.stdout


def changed(previous, change):
    spec = copy.deepcopy(previous)
    change(spec["components"]["schemas"], spec["paths"])
    return spec


def test_a_value_added_to_an_enum_clients_read_as_closed_fails_a_minor_version(tmp_path, previous):
    spec = changed(previous, lambda schemas, paths: schemas["ProfileField"]["enum"].append("pronouns"))
    status, out = run(tmp_path, spec, "2.1.1")
    assert status == 1
    assert "GET /v1/me 200.editableFields[]: new values ['pronouns']" in out
    status, out = run(tmp_path, spec, "3.0.0")
    assert status == 0, out
    assert "in a new major version" in out


def test_a_value_added_to_an_open_enum_passes(tmp_path, previous):
    def change(schemas, paths):
        schemas["ProfileField"]["enum"].append("pronouns")
        field = schemas["Profile"]["properties"]["editableFields"]
        field["items"] = {"anyOf": [{"$ref": "#/components/schemas/ProfileField"}, {"type": "string"}]}
    first = changed(previous, lambda schemas, paths: schemas["Profile"]["properties"]["editableFields"].update(
        items={"anyOf": [{"$ref": "#/components/schemas/ProfileField"}, {"type": "string"}]}))
    status, out = run(tmp_path, first, "2.2.0")
    assert status == 0, out
    # Against a release whose enum was open already, a new value is a minor change.
    opened = tmp_path / "opened.yaml"
    first["info"]["version"] = "2.2.0"
    opened.write_text(yaml.safe_dump(first), encoding="utf-8")
    second = changed(first, change)
    second["info"]["version"] = "2.3.0"
    current = tmp_path / "second.yaml"
    current.write_text(yaml.safe_dump(second), encoding="utf-8")
    changelog = tmp_path / "changelog.md"
    changelog.write_text("## 2.3.0\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, CHECKER, "--previous", str(opened), "--current", str(current), "--changelog", str(changelog)],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout


def test_an_answer_field_removed_or_made_nullable_fails(tmp_path, previous):
    def remove(schemas, paths):
        del schemas["Token"]["properties"]["expiresAt"]
        schemas["Token"]["required"].remove("expiresAt")
    status, out = run(tmp_path, changed(previous, remove), "2.1.1")
    assert status == 1 and "POST /v1/auth/login 200.expiresAt: removed" in out

    def nullable(schemas, paths):
        schemas["Token"]["properties"]["sessionId"]["type"] = ["integer", "null"]
    status, out = run(tmp_path, changed(previous, nullable), "2.1.1")
    assert status == 1 and "200.sessionId: can now be null" in out


def test_null_only_for_a_new_request_field_passes_only_where_it_can_be_sent(tmp_path, previous):
    def change(schemas, paths):
        schemas["LoginRequest"]["properties"]["quiet"] = {"type": "boolean"}
        session_id = schemas["Token"]["properties"]["sessionId"]
        session_id["type"] = ["integer", "null"]
        session_id["x-null-only-with"] = ["quiet"]
    status, out = run(tmp_path, changed(previous, change), "2.2.0")
    # The login's new field exempts the login; the refresh, which shares the answer's schema, cannot send it.
    assert "POST /v1/auth/login 200.sessionId" not in out
    assert status == 1 and "POST /v1/auth/refresh 200.sessionId: can now be null" in out


def test_a_newly_required_request_field_or_a_removed_one_fails(tmp_path, previous):
    status, out = run(tmp_path, changed(previous, lambda schemas, paths: schemas["NewHolidayRequest"]["required"].append("comment")), "2.1.1")
    assert status == 1 and "POST /v1/me/holidays body.comment: newly required" in out
    status, out = run(tmp_path, changed(previous, lambda schemas, paths: schemas["NewHolidayRequest"]["properties"].pop("comment")), "2.1.1")
    assert status == 1 and "POST /v1/me/holidays body.comment: no longer accepted" in out


def test_a_removed_operation_fails_and_an_added_one_passes(tmp_path, previous):
    status, out = run(tmp_path, changed(previous, lambda schemas, paths: paths.pop("/v1/home")), "2.1.1")
    assert status == 1 and "GET /v1/home: removed" in out
    added = changed(previous, lambda schemas, paths: paths.update({"/v1/new": {"get": {
        "operationId": "getNew", "responses": {"204": {"description": "Nothing."}}}}}))
    status, out = run(tmp_path, added, "2.2.0")
    assert status == 0, out


def test_a_change_without_a_new_version_fails(tmp_path, previous):
    added = changed(previous, lambda schemas, paths: schemas["Token"]["properties"].update(note={"type": "string"}))
    status, out = run(tmp_path, added, "2.1.0")
    assert status == 1 and "the contract changed since 2.1.0 but its version is 2.1.0" in out
    status, out = run(tmp_path, previous, "2.1.0")
    assert status == 0, out
