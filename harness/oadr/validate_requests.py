"""Validates the request bodies the energy hub's VEN sent (recorded by
crates/api/tests/oadr_wire.rs and oadr_webhooks.rs into OADR_RECORD_DIR) against the request schema of their
operation in a published OpenADR OpenAPI document.

usage: validate_requests.py <openadr3.yaml> <version> <record dir>

Only records of <version> are checked; each operation the VEN uses must appear at least once,
so an empty recording cannot pass. OpenAPI 3.0 schemas are read as JSON Schema draft 7 after
turning `nullable: true` into a null alternative.
"""

import json
import pathlib
import sys

import jsonschema
import yaml

# What the VEN sends, per version: (method, path template of the OpenAPI document).
EXPECTED = {
    "3.1.0": {("POST", "/vens"), ("POST", "/resources"), ("POST", "/reports"), ("POST", "/subscriptions")},
    "3.0.1": {("POST", "/vens"), ("POST", "/vens/{venID}/resources"), ("POST", "/reports"), ("POST", "/subscriptions")},
}


def openapi_to_jsonschema(node):
    """`nullable: true` → also null; recursively."""
    if isinstance(node, list):
        return [openapi_to_jsonschema(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: openapi_to_jsonschema(v) for k, v in node.items() if k not in ("nullable", "example", "discriminator")}
    if node.get("nullable") is True:
        if "type" in out:
            t = out["type"]
            out["type"] = (t if isinstance(t, list) else [t]) + ["null"]
            if "enum" in out:
                out["enum"] = list(out["enum"]) + [None]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


def main():
    spec_path, version, record_dir = sys.argv[1:4]
    spec = yaml.safe_load(pathlib.Path(spec_path).read_text())
    components = openapi_to_jsonschema(spec.get("components", {}))
    seen, passed, failed = set(), 0, 0
    for path in sorted(pathlib.Path(record_dir).glob("*.json")):
        rec = json.loads(path.read_text())
        if rec["version"] != version:
            continue
        method, template = rec["method"], rec["path"]
        op = spec["paths"].get(template, {}).get(method.lower())
        if op is None:
            print(f"FAIL {path.name}: {method} {template} is not an operation of the document")
            failed += 1
            continue
        schema = op["requestBody"]["content"]["application/json"]["schema"]
        root = dict(openapi_to_jsonschema(schema))
        root["components"] = components
        errors = sorted(
            jsonschema.Draft7Validator(root).iter_errors(rec["body"]),
            key=lambda e: list(e.path),
        )
        seen.add((method, template))
        if errors:
            failed += 1
            for e in errors:
                where = "/".join(str(p) for p in e.path) or "(body)"
                print(f"FAIL {path.name} {method} {template} at {where}: {e.message}")
        else:
            passed += 1
    for method, template in sorted(EXPECTED[version] - seen):
        print(f"FAIL no recorded {method} {template} for {version}")
        failed += 1
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
