"""Valid, realistic arguments for a tool, generated from its inputSchema.

The oracles call every tool of a document with what a careful model would
send: every argument filled (optional ones too, so every parameter style and
body field is put on the wire and judged), each value the schema's own
`const`, `default`, first `examples` entry or first `enum` member when it has
one, else a value built from its type, format and bounds. The schema is JSON
Schema 2020-12 as openapi2mcp lists it (`$ref`s into `$defs`, type unions,
`oneOf`/`anyOf`/`allOf`).

Deterministic: the same schema always gives the same arguments, so a run can
be repeated and a rejection reproduced.
"""

from __future__ import annotations

import base64
import copy
import re
from typing import Any

MAX_DEPTH = 6
# A tiny PNG (1x1, transparent): what a file argument carries.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)

# Values for string formats (JSON Schema and OpenAPI's own).
FORMATS: dict[str, str] = {
    "date": "2024-05-17",
    "date-time": "2024-05-17T10:20:30Z",
    "time": "10:20:30Z",
    "duration": "P3D",
    "email": "ada@example.com",
    "idn-email": "ada@example.com",
    "hostname": "api.example.com",
    "idn-hostname": "api.example.com",
    "ipv4": "192.0.2.7",
    "ipv6": "2001:db8::7",
    "uri": "https://example.com/docs",
    "url": "https://example.com/docs",
    "uri-reference": "https://example.com/docs",
    "iri": "https://example.com/docs",
    "iri-reference": "https://example.com/docs",
    "uri-template": "https://example.com/{id}",
    "uuid": "3fa85f64-5717-4562-b3fc-2c963f66afa6",
    "json-pointer": "/a/b",
    "relative-json-pointer": "0/a",
    "regex": "^[a-z]+$",
    "password": "correct-horse-battery",
    "byte": base64.b64encode(b"hello oracle").decode(),
    "binary": "data:image/png;base64," + base64.b64encode(PNG).decode(),
    "base64": base64.b64encode(b"hello oracle").decode(),
}


class Generator:
    """Builds values for the schemas of one tool (its `$defs` resolve `$ref`s)."""

    def __init__(self, root: dict[str, Any]):
        self.root = root

    # --- references and composition ----------------------------------------

    def resolve(self, schema: Any) -> Any:
        """Follows `$ref` (local JSON pointers only) until a schema without one."""
        seen = 0
        while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and seen < 32:
            ref = schema["$ref"]
            target = self.pointer(ref)
            if target is None:
                return {}
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            schema = {**target, **rest} if rest else target
            seen += 1
        return schema

    def pointer(self, ref: str) -> Any:
        if not ref.startswith("#"):
            return None
        node: Any = self.root
        for token in ref[1:].split("/")[1:]:
            token = token.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and token in node:
                node = node[token]
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                return None
        return node

    def merged(self, schema: Any) -> dict[str, Any]:
        """The schema with `$ref` followed and `allOf` members merged in."""
        schema = self.resolve(schema)
        if not isinstance(schema, dict):
            return {}
        if "allOf" not in schema:
            return schema
        out = {k: v for k, v in schema.items() if k != "allOf"}
        for part in schema["allOf"]:
            part = self.merged(part)
            for key, value in part.items():
                if key == "properties":
                    out["properties"] = {**out.get("properties", {}), **value}
                elif key == "required":
                    out["required"] = list(dict.fromkeys(out.get("required", []) + value))
                else:
                    out.setdefault(key, value)
        return out

    # --- values ---------------------------------------------------------------

    def value(self, schema: Any, depth: int = 0, name: str = "") -> Any:
        schema = self.merged(schema)
        if schema is True or not isinstance(schema, dict):
            return "example"
        for key in ("const", "default"):
            if key in schema and schema[key] is not None:
                return copy.deepcopy(schema[key])
        examples = schema.get("examples")
        if isinstance(examples, list) and examples and examples[0] is not None:
            return copy.deepcopy(examples[0])
        if "example" in schema and schema["example"] is not None:
            return copy.deepcopy(schema["example"])
        enum = [v for v in schema.get("enum", []) if v is not None]
        if enum:
            return copy.deepcopy(enum[0])
        for key in ("oneOf", "anyOf"):
            options = schema.get(key)
            if isinstance(options, list) and options:
                base = {k: v for k, v in schema.items() if k not in (key,)}
                for option in options:
                    option = self.merged(option)
                    if option.get("type") != "null":
                        return self.value({**base, **option}, depth, name)
        kind = self.kind(schema)
        if kind == "object":
            return self.object(schema, depth)
        if kind == "array":
            return self.array(schema, depth, name)
        if kind == "integer":
            return self.number(schema, integer=True)
        if kind == "number":
            return self.number(schema, integer=False)
        if kind == "boolean":
            return True
        if kind == "null":
            return None
        return self.string(schema, name)

    @staticmethod
    def kind(schema: dict[str, Any]) -> str:
        t = schema.get("type")
        if isinstance(t, list):
            t = next((x for x in t if x != "null"), "null")
        if isinstance(t, str):
            return t
        if "properties" in schema or "additionalProperties" in schema:
            return "object"
        if "items" in schema or "prefixItems" in schema:
            return "array"
        return "string"

    def object(self, schema: dict[str, Any], depth: int) -> dict[str, Any]:
        props = schema.get("properties") or {}
        required = set(schema.get("required") or [])
        out: dict[str, Any] = {}
        for key, sub in props.items():
            sub_schema = self.merged(sub)
            if sub_schema.get("readOnly") and key not in required:
                continue
            if depth >= MAX_DEPTH and key not in required:
                continue
            out[key] = self.value(sub_schema, depth + 1, key)
        if not props and schema.get("additionalProperties") not in (None, False):
            extra = schema["additionalProperties"]
            out["note"] = self.value(extra if isinstance(extra, dict) else {}, depth + 1, "note")
        return out

    def array(self, schema: dict[str, Any], depth: int, name: str) -> list[Any]:
        if depth >= MAX_DEPTH:
            return []
        items = schema.get("items") or {}
        # Two items where the schema allows: one item reads the same in every
        # style (`a` exploded or not), two show the delimiters.
        count = max(2, int(schema.get("minItems", 0) or 0))
        high = schema.get("maxItems")
        if isinstance(high, int):
            count = min(count, high)
        count = max(min(count, 3), 1 if high != 0 else 0)
        values = []
        for i in range(count):
            v = self.value(items, depth + 1, name)
            # Distinct items (uniqueItems, and easier to tell apart on the wire).
            if i and isinstance(v, bool):
                pass
            elif i and isinstance(v, (int, float)):
                v = v + i if not self.bounded(self.merged(items)) else v
            elif i and isinstance(v, str) and not self.fixed(self.merged(items)):
                v = f"{v} {i + 1}"
            if v in values and schema.get("uniqueItems"):
                break
            values.append(v)
        return values

    @staticmethod
    def bounded(schema: dict[str, Any]) -> bool:
        return any(k in schema for k in ("maximum", "exclusiveMaximum", "multipleOf", "enum", "const"))

    @staticmethod
    def fixed(schema: dict[str, Any]) -> bool:
        return any(
            k in schema
            for k in (
                "enum", "const", "format", "pattern", "maxLength", "default", "examples", "example",
                "contentEncoding", "contentMediaType",
            )
        )

    @staticmethod
    def number(schema: dict[str, Any], integer: bool) -> int | float:
        low = schema.get("minimum")
        high = schema.get("maximum")
        ex_low = schema.get("exclusiveMinimum")
        ex_high = schema.get("exclusiveMaximum")
        value: float = 7 if integer else 7.5
        if isinstance(low, (int, float)) and value < low:
            value = low
        if isinstance(ex_low, (int, float)) and not isinstance(ex_low, bool) and value <= ex_low:
            value = ex_low + 1
        if isinstance(high, (int, float)) and value > high:
            value = high
        if isinstance(ex_high, (int, float)) and not isinstance(ex_high, bool) and value >= ex_high:
            value = ex_high - 1
        step = schema.get("multipleOf")
        if isinstance(step, (int, float)) and step > 0:
            value = max(step, round(value / step) * step)
        return int(value) if integer else float(value)

    @staticmethod
    def string(schema: dict[str, Any], name: str) -> str:
        fmt = schema.get("format")
        media = schema.get("contentMediaType")
        encoding = schema.get("contentEncoding")
        if isinstance(fmt, str) and fmt in FORMATS:
            text = FORMATS[fmt]
        elif encoding == "base64" or (isinstance(media, str) and not media.startswith("text/")):
            text = FORMATS["binary"] if media else FORMATS["base64"]
        elif "pattern" in schema:
            text = from_pattern(schema["pattern"])
        else:
            words = re.sub(r"[^a-z0-9]+", " ", name.lower()).strip() or "example"
            text = f"{words} value"
        low = int(schema.get("minLength", 0) or 0)
        high = schema.get("maxLength")
        if len(text) < low:
            text = text + "x" * (low - len(text))
        if isinstance(high, int) and len(text) > high:
            text = text[: max(high, low)]
        return text


def from_pattern(pattern: str) -> str:
    """A string matching a simple pattern; falls back to a plain word.

    Handles what API documents write: anchors, literal characters, character
    classes with ranges and `{n}` / `{n,m}` / `+` / `*` / `?` quantifiers.
    """
    out: list[str] = []
    i = 0
    p = pattern
    while i < len(p):
        c = p[i]
        if c in "^$":
            i += 1
            continue
        if c == "[":
            end = p.find("]", i + 1)
            if end < 0:
                break
            body = p[i + 1 : end]
            char = body[0] if body and body[0] not in "^\\" else "a"
            if len(body) >= 3 and body[1] == "-":
                char = body[0]
            unit = char
            i = end + 1
        elif c == "\\" and i + 1 < len(p):
            unit = {"d": "7", "w": "a", "s": " "}.get(p[i + 1], p[i + 1])
            i += 2
        elif c == ".":
            unit = "a"
            i += 1
        elif c in "()|":
            i += 1
            continue
        else:
            unit = c
            i += 1
        count = 1
        if i < len(p) and p[i] == "{":
            end = p.find("}", i)
            spec = p[i + 1 : end].split(",")
            try:
                count = int(spec[0]) if spec[0] else 1
            except ValueError:
                count = 1
            i = end + 1
        elif i < len(p) and p[i] in "+":
            i += 1
        elif i < len(p) and p[i] in "*?":
            count = 0
            i += 1
        out.append(unit * count)
    text = "".join(out)
    try:
        if re.search(pattern, text):
            return text
    except re.error:
        pass
    return "example"


def arguments(input_schema: dict[str, Any]) -> dict[str, Any]:
    """Arguments for a tool: every property of its inputSchema filled."""
    gen = Generator(input_schema)
    schema = gen.merged(input_schema)
    out: dict[str, Any] = {}
    for key, sub in (schema.get("properties") or {}).items():
        if key in ("response_filter",):
            continue
        out[key] = gen.value(sub, 1, key)
    return out
