"""Compares a drafted contract with a server's published one: the precision and recall of its path
templates and of its response bodies' properties. Usage:
python3 template-precision.py DRAFT PUBLISHED TRAFFIC.har

Both contracts are YAML or JSON (the published one may be Swagger 2.0). A template is compared by
its shape, each {parameter} as {} whatever its name. Recall counts only the published templates
the recorded traffic reached. Properties are compared for each operation and 2xx status both
contracts describe with an object (or array of objects) schema. Prints one JSON object."""

import json
import sys
from urllib.parse import urlsplit

import yaml

draft = yaml.safe_load(open(sys.argv[1]))
published = yaml.safe_load(open(sys.argv[2]))
traffic = json.load(open(sys.argv[3]))


def shape(template):
    return "/".join("{}" if part.startswith("{") else part for part in template.strip("/").split("/"))


def matches(template, path):
    parts, segments = template.strip("/").split("/"), path.strip("/").split("/")
    return len(parts) == len(segments) and all(
        part.startswith("{") or part == segment for part, segment in zip(parts, segments)
    )


def resolve(document, schema, depth=0):
    while isinstance(schema, dict) and "$ref" in schema and depth < 20:
        target = document
        for step in schema["$ref"].lstrip("#").split("/")[1:]:
            target = target[step.replace("~1", "/").replace("~0", "~")]
        schema, depth = target, depth + 1
    return schema if isinstance(schema, dict) else {}


def properties(document, schema):
    schema = resolve(document, schema)
    if schema.get("type") == "array" or "items" in schema:
        schema = resolve(document, schema.get("items", {}))
    names = set(schema.get("properties", {}))
    for part in schema.get("allOf", []):
        names |= properties(document, part)
    return names


def response_schema(document, operation, status):
    responses = operation.get("responses", {})
    response = resolve(document, responses.get(str(status), responses.get(int(status), {})))
    if "schema" in response:  # Swagger 2.0
        return response["schema"]
    for media in response.get("content", {}).values():
        if "schema" in media:
            return media["schema"]
    return None


requests = [
    (entry["request"]["method"].lower(), urlsplit(entry["request"]["url"]).path) for entry in traffic["log"]["entries"]
]
reached = {
    shape(template)
    for template in published["paths"]
    if any(matches(template, path) for _, path in requests)
}
drafted = {shape(template) for template in draft["paths"]}
common = drafted & reached

found = expected = hits = 0
for template, item in draft["paths"].items():
    peer = next((t for t in published["paths"] if shape(t) == shape(template)), None)
    if peer is None:
        continue
    for method, operation in item.items():
        theirs = published["paths"][peer].get(method)
        if not isinstance(operation, dict) or not isinstance(theirs, dict) or "responses" not in operation:
            continue
        for status in operation["responses"]:
            if not str(status).startswith("2"):
                continue
            ours_schema, their_schema = response_schema(draft, operation, status), response_schema(published, theirs, status)
            if ours_schema is None or their_schema is None:
                continue
            ours, theirs_names = properties(draft, ours_schema), properties(published, their_schema)
            if not ours or not theirs_names:
                continue
            found, expected, hits = found + len(ours), expected + len(theirs_names), hits + len(ours & theirs_names)

print(
    json.dumps(
        {
            "templates": {
                "drafted": sorted(drafted),
                "reached": sorted(reached),
                "precision": round(len(common) / len(drafted), 3) if drafted else 0,
                "recall": round(len(common) / len(reached), 3) if reached else 0,
            },
            "properties": {
                "drafted": found,
                "published": expected,
                "common": hits,
                "precision": round(hits / found, 3) if found else 0,
                "recall": round(hits / expected, 3) if expected else 0,
            },
        },
        sort_keys=True,
    )
)
