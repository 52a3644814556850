#!/usr/bin/env python3
"""Checks api-spec/openapi.yaml against the previous release's spec (api-spec/releases/<version>.yaml, the newest
there) by the compatibility policy of docs/api-changelog.md: a minor version may add, never break a client built
against the previous one. Prints each breaking change and fails when there is one without a new major version, when
the contract changed without a new version, or when the changelog has no entry for the version.

What breaks a client, per operation:
  - answers (what the client reads): an operation or a success status gone; a field gone or no longer always there;
    a field that can now be null or of another JSON type; a value of an enum the previous release declared closed,
    as a generated client refuses a value it does not know (enums the server sends are open from 2.2.0 on:
    anyOf [the enum, any string]);
  - requests (what the client sends): a parameter or field newly required; a field or parameter gone; a type or an
    enum value no longer accepted; a shorter maximum or a larger minimum.
Refusing fields the contract never defined (additionalProperties: false on a request) is not a change: sending
them was a client's error the server did not report. A field may become nullable in an answer when only the
requests that send a field new in this version can get null (x-null-only-with: [those fields], or "(no body)" for
a request that may now come without the body it needed).

Usage: scripts/api-compat.py [--previous FILE] [--current FILE] [--changelog FILE]
Ends with one line "N passed, M failed".
"""
import argparse
import os
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


def version_key(text):
    return tuple(int(part) for part in text.split("."))


def newest_release():
    folder = os.path.join(ROOT, "api-spec", "releases")
    versions = [name[:-5] for name in os.listdir(folder) if re.fullmatch(r"\d+\.\d+\.\d+\.yaml", name)]
    return os.path.join(folder, max(versions, key=version_key) + ".yaml")


class Shape:
    """What a position of a document can hold, flattened over $ref, allOf, anyOf and oneOf."""

    def __init__(self):
        self.types = set()  # JSON types: "string", "integer", "number", "boolean", "array", "object", "null"
        self.enum = None  # the closed values, or None when any value of the types is allowed
        self.open_enum = False  # an enum plus "any string": generated clients keep unknown values
        self.properties = {}  # name -> Shape
        self.required = set()
        self.items = None
        self.minimum = self.maximum = self.min_length = self.max_length = None
        self.null_only_with = None


class Reader:
    def __init__(self, spec):
        self.spec = spec

    def resolve(self, node):
        seen = set()
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"]
            if ref in seen:
                raise ValueError(f"cyclic $ref {ref}")
            seen.add(ref)
            target = self.spec
            for part in ref.lstrip("#/").split("/"):
                target = target[part]
            node = target
        return node

    def shape(self, node, depth=0):
        shape = Shape()
        self.fill(shape, node, depth)
        return shape

    def fill(self, shape, node, depth):
        if depth > 12 or not isinstance(node, dict):
            return
        node = self.resolve(node)
        branches = node.get("anyOf") or node.get("oneOf")
        if branches:
            resolved = [self.resolve(branch) for branch in branches]
            enums = [branch for branch in resolved if "enum" in branch or "const" in branch]

            def any_string(branch):
                kinds = branch.get("type")
                kinds = set(kinds) if isinstance(kinds, list) else {kinds}
                return "string" in kinds and kinds <= {"string", "null"} and "enum" not in branch and "const" not in branch

            plain_strings = [branch for branch in resolved if any_string(branch)]
            if enums and plain_strings and len(enums) + len(plain_strings) == len(resolved):
                shape.types.add("string")
                for branch in plain_strings:
                    if isinstance(branch.get("type"), list) and "null" in branch["type"]:
                        shape.types.add("null")
                values = set()
                for branch in enums:
                    values |= set(branch.get("enum", [branch.get("const")]))
                shape.enum = (shape.enum or set()) | values
                shape.open_enum = True
            else:
                for branch in branches:
                    self.fill(shape, branch, depth + 1)
        for part in node.get("allOf", []):
            self.fill(shape, part, depth + 1)
        kind = node.get("type")
        if isinstance(kind, list):
            shape.types |= set(kind)
        elif kind:
            shape.types.add(kind)
        if node.get("nullable"):
            shape.types.add("null")
        if "enum" in node or "const" in node:
            values = set(node.get("enum", [node.get("const")]))
            if None in values:
                shape.types.add("null")
                values.discard(None)
            shape.enum = (shape.enum or set()) | values
        for name, child in (node.get("properties") or {}).items():
            self.fill(shape.properties.setdefault(name, Shape()), child, depth + 1)
        shape.required |= set(node.get("required", []))
        if "items" in node:
            shape.items = shape.items or Shape()
            self.fill(shape.items, node["items"], depth + 1)
        for key, attribute in (("minimum", "minimum"), ("maximum", "maximum"), ("minLength", "min_length"),
                               ("maxLength", "max_length")):
            if key in node:
                setattr(shape, attribute, node[key])
        if "x-null-only-with" in node:
            conditions = node["x-null-only-with"]
            shape.null_only_with = [conditions] if isinstance(conditions, str) else list(conditions)

    def operations(self):
        for path, item in (self.spec.get("paths") or {}).items():
            shared = item.get("parameters", [])
            for method in METHODS:
                if method in item:
                    yield f"{method.upper()} {path}", item[method], shared

    def parameters(self, operation, shared):
        found = {}
        for parameter in list(shared) + list(operation.get("parameters", [])):
            parameter = self.resolve(parameter)
            found[(parameter["in"], parameter["name"])] = parameter
        return found

    def body(self, operation):
        body = operation.get("requestBody")
        if not body:
            return None, False, set()
        body = self.resolve(body)
        content = body.get("content", {})
        media = content.get("application/json")
        return (self.shape(media["schema"]) if media and "schema" in media else None), bool(body.get("required")), set(content)

    def answers(self, operation):
        found = {}
        for status, response in (operation.get("responses") or {}).items():
            response = self.resolve(response)
            media = (response.get("content") or {}).get("application/json")
            found[str(status)] = self.shape(media["schema"]) if media and "schema" in media else None
        return found


def numeric(types):
    return {"number" if kind == "integer" else kind for kind in types}


def compare_answer(old, new, where, problems, new_request_fields):
    """`new` as read by a client built for `old`."""
    if old is None or new is None:
        return
    # A number may now be an integer and the other way round only in JSON's sense: 1 and 1.0 are the same number.
    grown = numeric(new.types) - numeric(old.types)
    if old.types and grown:
        if grown == {"null"} and set(new.null_only_with or []) & new_request_fields:
            pass
        else:
            problems.append(f"{where}: can now be {', '.join(sorted(grown))}")
    if old.enum is not None and not old.open_enum:
        added = (new.enum or set()) - old.enum if new.enum is not None else None
        if new.enum is None and not new.open_enum:
            problems.append(f"{where}: was one of a closed list, now any value")
        elif added:
            problems.append(f"{where}: new values {sorted(added)} in an enum the previous release declared closed")
    for name in sorted(old.required - new.required):
        if name in old.properties:
            problems.append(f"{where}.{name}: no longer always sent" if name in new.properties else f"{where}.{name}: removed")
    for name, child in old.properties.items():
        if name in new.properties:
            compare_answer(child, new.properties[name], f"{where}.{name}", problems, new_request_fields)
    if old.items and new.items:
        compare_answer(old.items, new.items, f"{where}[]", problems, new_request_fields)


def compare_request(old, new, where, problems):
    """What a client built for `old` sends, read by the server of `new`."""
    if old is None or new is None:
        return
    if old.types and new.types:
        lost = numeric(old.types) - numeric(new.types)
        if lost:
            problems.append(f"{where}: no longer accepts {', '.join(sorted(lost))}")
    if new.enum is not None:
        lost = (old.enum if old.enum is not None else set()) - new.enum
        if old.enum is None and not new.open_enum and old.types & {"string"}:
            problems.append(f"{where}: was any value, now a closed list")
        elif lost:
            problems.append(f"{where}: values {sorted(lost)} no longer accepted")
    for name in sorted(new.required - old.required):
        problems.append(f"{where}.{name}: newly required")
    for name in sorted(set(old.properties) - set(new.properties)):
        problems.append(f"{where}.{name}: no longer accepted")
    for name, child in old.properties.items():
        if name in new.properties:
            compare_request(child, new.properties[name], f"{where}.{name}", problems)
    if old.items and new.items:
        compare_request(old.items, new.items, f"{where}[]", problems)
    for attribute, tighter in (("maximum", lambda a, b: b < a), ("max_length", lambda a, b: b < a),
                               ("minimum", lambda a, b: b > a), ("min_length", lambda a, b: b > a)):
        a, b = getattr(old, attribute), getattr(new, attribute)
        if b is not None and (a is None or tighter(a, b)):
            problems.append(f"{where}: {attribute.replace('_', ' ')} {a} -> {b}")


def field_names(shape):
    return set(shape.properties) if shape else set()


def breaking_changes(previous, current):
    old, new = Reader(previous), Reader(current)
    new_operations = {key: (operation, shared) for key, operation, shared in new.operations()}
    problems = []
    for key, operation, shared in old.operations():
        if key not in new_operations:
            problems.append(f"{key}: removed")
            continue
        new_operation, new_shared = new_operations[key]
        old_parameters, new_parameters = old.parameters(operation, shared), new.parameters(new_operation, new_shared)
        for name, parameter in new_parameters.items():
            if parameter.get("required") and not (old_parameters.get(name) or {}).get("required"):
                problems.append(f"{key}: parameter {name[1]} newly required")
        for name, parameter in old_parameters.items():
            if name not in new_parameters:
                if name[0] != "header":
                    problems.append(f"{key}: parameter {name[1]} removed")
                continue
            compare_request(old.shape(parameter.get("schema", {})), new.shape(new_parameters[name].get("schema", {})),
                            f"{key} parameter {name[1]}", problems)
        old_body, old_required, old_media = old.body(operation)
        new_body, new_required, new_media = new.body(new_operation)
        if new_required and not old_required:
            problems.append(f"{key}: a body is newly required")
        for media in sorted(old_media - new_media):
            problems.append(f"{key}: no longer takes {media}")
        compare_request(old_body, new_body, f"{key} body", problems)
        # What a client built for the previous release never sends: the fields new in the body, and no body at all
        # where one was required.
        added_request_fields = field_names(new_body) - field_names(old_body)
        if old_required and not new_required:
            added_request_fields.add("(no body)")
        old_answers, new_answers = old.answers(operation), new.answers(new_operation)
        for status in old_answers:
            if status.startswith("2") and status not in new_answers:
                problems.append(f"{key}: no longer answers {status}")
        for status, shape in old_answers.items():
            if status in new_answers:
                compare_answer(shape, new_answers[status], f"{key} {status}", problems, added_request_fields)
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--previous", default=None)
    parser.add_argument("--current", default=os.path.join(ROOT, "api-spec", "openapi.yaml"))
    parser.add_argument("--changelog", default=os.path.join(ROOT, "docs", "api-changelog.md"))
    arguments = parser.parse_args()
    previous_path = arguments.previous or newest_release()
    with open(previous_path, encoding="utf-8") as file:
        previous = yaml.safe_load(file)
    with open(arguments.current, encoding="utf-8") as file:
        current = yaml.safe_load(file)
    old_version, new_version = previous["info"]["version"], current["info"]["version"]
    passed = failed = 0

    def report(ok, message):
        nonlocal passed, failed
        print(("ok: " if ok else "FAILED: ") + message)
        if ok:
            passed += 1
        else:
            failed += 1

    problems = breaking_changes(previous, current)
    for problem in problems:
        print("  breaking: " + problem)
    major_bumped = version_key(new_version)[0] > version_key(old_version)[0]
    if problems and not major_bumped:
        report(False, f"{len(problems)} breaking changes since {old_version} in {new_version}, which is not a new major version")
    else:
        report(True, f"{new_version} against {old_version}: " + (
            f"{len(problems)} breaking changes, in a new major version" if problems else "no breaking change"))
    # breaking_changes only reads the documents.
    changed = previous != current
    if changed and version_key(new_version) <= version_key(old_version):
        report(False, f"the contract changed since {old_version} but its version is {new_version}")
    else:
        report(True, f"version {new_version} " + ("follows " + old_version if changed else "unchanged, like the contract"))
    with open(arguments.changelog, encoding="utf-8") as file:
        changelog = file.read()
    if re.search(rf"^## {re.escape(new_version)}\b", changelog, re.MULTILINE):
        report(True, f"{os.path.relpath(arguments.changelog, ROOT)} has an entry for {new_version}")
    else:
        report(False, f"{os.path.relpath(arguments.changelog, ROOT)} has no '## {new_version}' entry")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
