"""The JSON request bodies of the contract and the examples it gives for them, for the checks that walk every body
(unknown_fields.py against a server, clients/python/round_trip.py through the generated models)."""


def resolve(spec, node):
    """`node` with its `$ref`s followed to what they name in `spec`."""
    while isinstance(node, dict) and "$ref" in node:
        target = spec
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        node = target
    return node


def json_bodies(spec):
    """(method, path, operation, media, examples) of each operation with an application/json body, in the spec's
    order; `examples` holds `example` first, then each of `examples`."""
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "requestBody" not in operation:
                continue
            media = resolve(spec, operation["requestBody"]).get("content", {}).get("application/json")
            if media is None:
                continue
            examples = ([media["example"]] if "example" in media else []) + [e["value"] for e in media.get("examples", {}).values()]
            yield method, path, operation, media, examples
