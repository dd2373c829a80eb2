//! Schema dialect: OpenAPI 3.0 (and 3.1) schema objects → JSON Schema
//! 2020-12, the dialect MCP's `inputSchema`/`outputSchema` use.
//!
//! 3.0 specifics are rewritten (`nullable` → type union, boolean
//! `exclusiveMinimum`/`exclusiveMaximum` → numeric, `example` → `examples`),
//! OpenAPI-only keywords are dropped (`discriminator`, `xml`,
//! `externalDocs`, `x-*`), and malformed keywords that would make the whole
//! schema invalid against the 2020-12 meta-schema (`required: true` on a
//! property, `type: file`, a non-array `enum`) are repaired or dropped, so
//! that one sloppy schema never makes a strict client reject the tool list.
//!
//! `oneOf` is kept where a client can always satisfy it and becomes
//! `anyOf` elsewhere (see `Converter::exclusive`): documents use `oneOf`
//! loosely, for branches that overlap, and a value two branches describe
//! must not be refused. Output schemas are also made tolerant of what real
//! APIs send (see [`Direction::Output`]).
//!
//! `$ref`s are not followed here: each one is handed to a callback that
//! returns the reference to write instead (see the tool builder's `tools::bundle`).

use serde_json::{Map, Value, json};

use super::load::SpecVersion;

/// Which side of the API a schema describes; decides which of `readOnly`
/// (server-set, not sent) and `writeOnly` (sent, never returned) properties
/// are dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Arguments sent to the API: `readOnly` properties are dropped.
    Input,
    /// Responses from the API, as a client will check them: `writeOnly`
    /// properties are dropped, and so is every constraint real APIs break
    /// without breaking their clients (`required`, `enum`, `const`, bounds,
    /// `additionalProperties: false`, `not`, `if`/`then`/`else`…). What is
    /// kept, the shape and the types, tolerates the commonest deviations:
    /// `null` is admitted wherever a `type` is given (Swagger 2.0 cannot
    /// say `nullable`, and 3.x documents forget it), and `oneOf` is `anyOf`
    /// (a `null` fits every branch; a value may well fit two).
    Output,
    /// Responses as the document types them (`--output-schema strict`):
    /// [`Direction::Output`] without its tolerance for `null`, `oneOf`,
    /// `not` and conditionals.
    StrictOutput,
    /// The schema as documented, for readers (the schema resources):
    /// `readOnly` and `writeOnly` properties are kept, as annotations.
    Document,
}

/// Converts one schema. `rewrite_ref` maps each `$ref` string found (as
/// written in the document) to the reference to emit instead.
pub fn convert(
    schema: &Value,
    version: SpecVersion,
    direction: Direction,
    rewrite_ref: &mut dyn FnMut(&str) -> String,
) -> Value {
    Converter {
        version,
        direction,
        rewrite_ref,
    }
    .schema(schema)
}

struct Converter<'f> {
    version: SpecVersion,
    direction: Direction,
    rewrite_ref: &'f mut dyn FnMut(&str) -> String,
}

/// Keywords whose value is one schema.
const SCHEMA_KEYWORDS: &[&str] = &[
    "additionalProperties",
    "not",
    "contains",
    "propertyNames",
    "if",
    "then",
    "else",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
    "contentSchema",
];
/// Keywords whose value is an array of schemas.
const SCHEMA_ARRAY_KEYWORDS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
/// Keywords whose value is a map of name → schema.
const SCHEMA_MAP_KEYWORDS: &[&str] = &["patternProperties", "dependentSchemas", "$defs"];
/// Keywords a tolerant output schema drops besides the constraints of
/// [`Converter::output_constraint`]: assertions about the instance as a
/// whole that a `null`, or an extra field, would fail.
const TOLERANT_DROPPED: &[&str] = &[
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "propertyNames",
    "contains",
    "minContains",
    "maxContains",
];
/// OpenAPI-only keywords with no JSON Schema meaning.
const DROPPED: &[&str] = &[
    "discriminator",
    "xml",
    "externalDocs",
    "nullable",
    "example",
];
/// Keywords that must hold a non-negative integer.
const COUNTS: &[&str] = &[
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "minContains",
    "maxContains",
];
/// Keywords that must hold a number.
const NUMBERS: &[&str] = &["minimum", "maximum", "multipleOf"];
/// The JSON Schema type names.
const TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "object", "array", "null",
];

impl Converter<'_> {
    fn schema(&mut self, schema: &Value) -> Value {
        match schema {
            Value::Bool(_) => schema.clone(),
            Value::Object(map) => self.object(map),
            // Not a schema at all: accept anything rather than invalidate the tool.
            _ => json!({}),
        }
    }

    fn object(&mut self, map: &Map<String, Value>) -> Value {
        if let Some(Value::String(r)) = map.get("$ref") {
            return self.reference(r, map);
        }
        let mut out = Map::with_capacity(map.len());
        for (key, value) in map {
            self.keyword(key, value, map, &mut out);
        }
        self.finish(map, out)
    }

    /// A `$ref`: 3.0 ignores siblings, but documents rely on `description`
    /// next to it; 3.1 allows any sibling.
    fn reference(&mut self, r: &str, map: &Map<String, Value>) -> Value {
        let mut out = Map::new();
        out.insert("$ref".into(), Value::String((self.rewrite_ref)(r)));
        for (key, value) in map {
            if key == "$ref" {
                continue;
            }
            let keep = self.version == SpecVersion::OpenApi31
                || matches!(
                    key.as_str(),
                    "description"
                        | "title"
                        | "default"
                        | "deprecated"
                        | "readOnly"
                        | "writeOnly"
                        | "example"
                        | "examples"
                        | "nullable"
                );
            if keep {
                self.keyword(key, value, map, &mut out);
            }
        }
        self.finish(map, out)
    }

    fn keyword(
        &mut self,
        key: &str,
        value: &Value,
        map: &Map<String, Value>,
        out: &mut Map<String, Value>,
    ) {
        if self.direction.is_output() && self.output_constraint(key, value) {
            return;
        }
        if self.direction == Direction::Output && TOLERANT_DROPPED.contains(&key) {
            return;
        }
        if key.starts_with("x-") || DROPPED.contains(&key) {
            if key == "example" && !map.contains_key("examples") {
                out.insert("examples".into(), Value::Array(vec![value.clone()]));
            }
            return;
        }
        let converted = match key {
            "properties" => self.properties(value, map),
            "items" => match value {
                Value::Array(items) if self.version != SpecVersion::OpenApi31 => {
                    // Tuple form: 2020-12 spells it prefixItems.
                    let items = items.iter().map(|s| self.schema(s)).collect();
                    out.insert("prefixItems".into(), Value::Array(items));
                    return;
                }
                _ => Some(self.schema(value)),
            },
            "type" => sanitize_type(value),
            "required" => sanitize_required(value),
            "enum" => value.is_array().then(|| value.clone()),
            "examples" => Some(match value {
                Value::Array(_) => value.clone(),
                // OpenAPI's example map {name: {value}} is not JSON Schema's list.
                Value::Object(m) => Value::Array(
                    m.values()
                        .map(|ex| ex.get("value").unwrap_or(ex).clone())
                        .collect(),
                ),
                other => Value::Array(vec![other.clone()]),
            }),
            "exclusiveMinimum" | "exclusiveMaximum" => {
                self.exclusive_bound(key, value, map, out);
                return;
            }
            "pattern" => value.as_str().map(|p| Value::String(repair_pattern(p))),
            "format" | "title" | "description" | "$comment" | "contentEncoding"
            | "contentMediaType" => value.is_string().then(|| value.clone()),
            "uniqueItems" | "deprecated" | "readOnly" | "writeOnly" => {
                value.is_boolean().then(|| value.clone())
            }
            "minimum" | "maximum" if map.get(exclusive_of(key)) == Some(&Value::Bool(true)) => {
                return; // folded into exclusiveMinimum/Maximum
            }
            k if NUMBERS.contains(&k) => value.is_number().then(|| value.clone()),
            k if COUNTS.contains(&k) => value.as_u64().map(Value::from),
            k if SCHEMA_KEYWORDS.contains(&k) => Some(self.schema(value)),
            k if SCHEMA_ARRAY_KEYWORDS.contains(&k) => match value {
                Value::Array(items) => {
                    Some(Value::Array(items.iter().map(|s| self.schema(s)).collect()))
                }
                _ => None,
            },
            k if SCHEMA_MAP_KEYWORDS.contains(&k) => match value {
                Value::Object(m) => Some(Value::Object(
                    m.iter().map(|(n, s)| (n.clone(), self.schema(s))).collect(),
                )),
                _ => None,
            },
            _ => Some(value.clone()),
        };
        if let Some(v) = converted {
            out.insert(key.to_string(), v);
        }
    }

    /// Output schemas describe the shape and types of a response but do not
    /// enforce what real APIs routinely break without breaking clients:
    /// documented fields left out (`required`), undocumented ones added
    /// (`additionalProperties: false`), and new enum values (`enum`). A
    /// strict client rejects a whole result that fails the advertised
    /// schema, so these constraints would make working calls fail.
    fn output_constraint(&self, key: &str, value: &Value) -> bool {
        match key {
            "required" | "enum" | "minItems" | "maxItems" | "minProperties" | "maxProperties"
            | "minLength" | "maxLength" | "pattern" | "minimum" | "maximum"
            | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" | "uniqueItems" | "const" => {
                true
            }
            "additionalProperties" | "unevaluatedProperties" => value == &Value::Bool(false),
            _ => false,
        }
    }

    /// `properties`, minus the ones this direction never carries.
    fn properties(&mut self, value: &Value, _map: &Map<String, Value>) -> Option<Value> {
        let Value::Object(props) = value else {
            return None;
        };
        let mut out = Map::with_capacity(props.len());
        for (name, prop) in props {
            if self.hidden(prop) {
                continue;
            }
            out.insert(name.clone(), self.schema(prop));
        }
        Some(Value::Object(out))
    }

    /// Whether a property schema is one this direction drops.
    fn hidden(&self, prop: &Value) -> bool {
        let flag = match self.direction {
            Direction::Input => "readOnly",
            Direction::Output | Direction::StrictOutput => "writeOnly",
            Direction::Document => return false,
        };
        prop.get(flag) == Some(&Value::Bool(true))
    }

    /// 3.0: `exclusiveMinimum: true` modifies `minimum`; 3.1: it is the bound.
    fn exclusive_bound(
        &mut self,
        key: &str,
        value: &Value,
        map: &Map<String, Value>,
        out: &mut Map<String, Value>,
    ) {
        match value {
            Value::Number(_) => {
                out.insert(key.to_string(), value.clone());
            }
            Value::Bool(true) => {
                let bound = if key == "exclusiveMinimum" {
                    "minimum"
                } else {
                    "maximum"
                };
                if let Some(n) = map.get(bound).filter(|n| n.is_number()) {
                    out.insert(key.to_string(), n.clone());
                }
            }
            _ => {}
        }
    }

    /// Applies what depends on several keywords: `nullable`, and dropping
    /// `required` names whose property this direction hid.
    fn finish(&mut self, src: &Map<String, Value>, mut out: Map<String, Value>) -> Value {
        if let (Some(Value::Array(req)), Some(Value::Object(props))) =
            (out.get("required").cloned(), src.get("properties"))
        {
            let kept: Vec<Value> = req
                .into_iter()
                .filter(|n| {
                    n.as_str()
                        .and_then(|n| props.get(n))
                        .is_none_or(|p| !self.hidden(p))
                })
                .collect();
            if kept.is_empty() {
                out.remove("required");
            } else {
                out.insert("required".into(), Value::Array(kept));
            }
        }
        if !self.exclusive(src) {
            one_of_as_any_of(&mut out);
        }
        if self.direction == Direction::Output {
            admit_null(&mut out);
        }
        if src.get("nullable") == Some(&Value::Bool(true)) && self.version != SpecVersion::OpenApi31
        {
            return make_nullable(out);
        }
        Value::Object(out)
    }

    /// Whether `src`'s `oneOf` stays exclusive. A `oneOf` refuses a value
    /// that fits two of its branches, and documents write `oneOf` for
    /// branches that overlap (GitHub's `set_labels` body: two object shapes
    /// that both fit `{}`), leaving a model no way to satisfy it. So it
    /// stays `oneOf` only where exclusivity is always satisfiable and means
    /// something: in the document as written, in strict output schemas,
    /// and on input for the "exactly one of these fields" idiom (see
    /// [`exactly_one_of_fields`]: GitHub's attestation deletion takes
    /// `subject_digests` or `attestation_ids`, not both).
    /// Everywhere else it is validated, and advertised, as `anyOf`.
    fn exclusive(&self, src: &Map<String, Value>) -> bool {
        match self.direction {
            Direction::Document | Direction::StrictOutput => true,
            Direction::Output => false,
            Direction::Input => src
                .get("oneOf")
                .and_then(Value::as_array)
                .is_some_and(|branches| exactly_one_of_fields(branches)),
        }
    }
}

impl Direction {
    /// Whether schemas of this direction describe responses.
    pub fn is_output(self) -> bool {
        matches!(self, Direction::Output | Direction::StrictOutput)
    }
}

/// Whether `branches` are the "exactly one of these fields" idiom: each
/// an inline object schema (`required`, `properties`, annotations) that
/// requires a field no other branch declares, so a value made of one
/// branch's fields alone fits that branch and no other, and a value that
/// fits two holds fields of both (the fix, dropping one set, is plain).
fn exactly_one_of_fields(branches: &[Value]) -> bool {
    struct Branch<'a> {
        required: Vec<&'a str>,
        declared: Vec<&'a str>,
    }
    let mut parsed: Vec<Branch<'_>> = Vec::with_capacity(branches.len());
    for branch in branches {
        let Value::Object(b) = branch else {
            return false;
        };
        let plain = b.iter().all(|(k, v)| match k.as_str() {
            "required" | "properties" | "title" | "description" | "additionalProperties" => true,
            "type" => v.as_str() == Some("object"),
            k => k.starts_with("x-"),
        });
        let required: Vec<&str> = b
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if !plain || required.is_empty() {
            return false;
        }
        let mut declared = required.clone();
        if let Some(Value::Object(props)) = b.get("properties") {
            declared.extend(props.keys().map(String::as_str));
        }
        parsed.push(Branch { required, declared });
    }
    parsed.len() >= 2
        && parsed.iter().enumerate().all(|(i, a)| {
            parsed
                .iter()
                .enumerate()
                .all(|(j, b)| i == j || b.required.iter().any(|n| !a.declared.contains(n)))
        })
}

/// A converted `oneOf` made `anyOf`; when the schema has its own `anyOf`,
/// both must hold, so the former `oneOf` joins `allOf` as an `anyOf`.
fn one_of_as_any_of(out: &mut Map<String, Value>) {
    let Some(branches) = out.remove("oneOf") else {
        return;
    };
    if !out.contains_key("anyOf") {
        out.insert("anyOf".into(), branches);
        return;
    }
    let any = json!({ "anyOf": branches });
    match out.get_mut("allOf") {
        Some(Value::Array(all)) => all.push(any),
        _ => {
            out.insert("allOf".into(), json!([any]));
        }
    }
}

/// `null` added to a schema's `type`, when it has one (a schema without
/// `type` already admits `null`, unless its subschemas say otherwise, and
/// they get the same treatment).
fn admit_null(out: &mut Map<String, Value>) {
    match out.get_mut("type") {
        Some(Value::String(t)) if t != "null" => {
            let t = std::mem::take(t);
            out.insert("type".into(), json!([t, "null"]));
        }
        Some(Value::Array(ts)) if !ts.contains(&json!("null")) => ts.push(json!("null")),
        _ => {}
    }
}

fn exclusive_of(bound: &str) -> &'static str {
    if bound == "minimum" {
        "exclusiveMinimum"
    } else {
        "exclusiveMaximum"
    }
}

/// 3.0 `nullable: true` → `null` added to `type` (and to `enum`); a schema
/// without `type` (a `$ref`, an `allOf`) becomes `anyOf [it, {type: null}]`.
fn make_nullable(mut out: Map<String, Value>) -> Value {
    if let Some(Value::Array(e)) = out.get_mut("enum")
        && !e.contains(&Value::Null)
    {
        e.push(Value::Null);
    }
    match out.get_mut("type") {
        Some(Value::String(t)) => {
            let t = std::mem::take(t);
            if t != "null" {
                out.insert("type".into(), json!([t, "null"]));
            }
            Value::Object(out)
        }
        Some(Value::Array(ts)) => {
            if !ts.contains(&json!("null")) {
                ts.push(json!("null"));
            }
            Value::Object(out)
        }
        _ => {
            // Keep annotations outside so the description is still visible.
            let mut wrapper = Map::new();
            for key in ["title", "description", "default", "deprecated"] {
                if let Some(v) = out.remove(key) {
                    wrapper.insert(key.into(), v);
                }
            }
            wrapper.insert(
                "anyOf".into(),
                json!([Value::Object(out), {"type": "null"}]),
            );
            Value::Object(wrapper)
        }
    }
}

/// Escapes `{` and `}` that are not part of a `{n}`, `{n,}` or `{n,m}`
/// quantifier. ECMA-262 (outside unicode mode) reads such braces as
/// literals, and documents rely on it; stricter engines, including the
/// validators of JSON Schema clients, reject the pattern. The meaning is
/// unchanged.
pub fn repair_pattern(pattern: &str) -> String {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len() + 4);
    let mut i = 0;
    let mut in_class = false;
    let mut quantifiable = false; // whether the previous token can take a quantifier
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                out.push(c);
                if let Some(&next) = chars.get(i + 1) {
                    out.push(next);
                    i += 1;
                }
                quantifiable = true;
            }
            '[' if !in_class => {
                in_class = true;
                out.push(c);
            }
            ']' if in_class => {
                in_class = false;
                out.push(c);
                quantifiable = true;
            }
            _ if in_class => out.push(c),
            '{' => match quantifier_len(&chars[i..]) {
                Some(len) if quantifiable => {
                    out.extend(&chars[i..i + len]);
                    i += len - 1;
                    quantifiable = false;
                }
                _ => {
                    out.push_str("\\{");
                    quantifiable = true;
                }
            },
            '}' => {
                out.push_str("\\}");
                quantifiable = true;
            }
            '(' | '|' => {
                out.push(c);
                quantifiable = false;
            }
            '*' | '+' | '?' => {
                out.push(c);
                quantifiable = false;
            }
            _ => {
                out.push(c);
                quantifiable = !matches!(c, '^' | '$');
            }
        }
        i += 1;
    }
    out
}

/// Length of a `{n}`, `{n,}` or `{n,m}` quantifier at the start of `s`.
fn quantifier_len(s: &[char]) -> Option<usize> {
    let mut i = 1;
    let digits = |i: &mut usize| {
        let start = *i;
        while s.get(*i).is_some_and(char::is_ascii_digit) {
            *i += 1;
        }
        *i > start
    };
    if !digits(&mut i) {
        return None;
    }
    if s.get(i) == Some(&',') {
        i += 1;
        digits(&mut i);
    }
    (s.get(i) == Some(&'}')).then_some(i + 1)
}

/// `type` as JSON Schema allows it; Swagger's `file` becomes `string`.
fn sanitize_type(value: &Value) -> Option<Value> {
    let fix = |t: &str| match t {
        "file" => Some("string"),
        t => TYPES.iter().copied().find(|k| *k == t),
    };
    match value {
        Value::String(t) => fix(t).map(|t| json!(t)),
        Value::Array(ts) => {
            let mut out: Vec<Value> = Vec::new();
            for t in ts.iter().filter_map(Value::as_str).filter_map(fix) {
                if !out.iter().any(|o| o == t) {
                    out.push(json!(t));
                }
            }
            (!out.is_empty()).then_some(Value::Array(out))
        }
        _ => None,
    }
}

/// `required` as a list of unique names; Swagger-style `required: true` on a
/// property schema is meaningless there and dropped.
fn sanitize_required(value: &Value) -> Option<Value> {
    let Value::Array(names) = value else {
        return None;
    };
    let mut out: Vec<Value> = Vec::new();
    for n in names.iter().filter(|n| n.is_string()) {
        if !out.contains(n) {
            out.push(n.clone());
        }
    }
    (!out.is_empty()).then_some(Value::Array(out))
}

#[cfg(test)]
#[path = "dialect_tests.rs"]
mod tests;
