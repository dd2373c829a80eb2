//! The route table: everything the mock needs from the document, computed
//! once and owned (the document itself is not kept). Request schemas are
//! converted to JSON Schema 2020-12 with their `$defs` (input direction);
//! responses keep their documented examples and a synthesized fallback.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use serde_json::Value;

use super::examples;
use super::routes::Template;
use super::synth::Synth;
use crate::document::dialect::Direction;
use crate::document::refs::Located;
use crate::document::{Diagnostic, Document};
use crate::runtime::wire::media::is_json;
use crate::tools::bundle::SchemaBundler;
use crate::tools::operations::{self, Operation};

/// One documented operation.
pub struct Route {
    /// Upper-case method.
    pub method: String,
    /// The path template as written.
    pub path: String,
    /// The compiled template.
    pub template: Template,
    /// Its parameters (path item and operation, merged).
    pub params: Vec<Param>,
    /// The request body, if the operation takes one.
    pub body: Option<Body>,
    /// Its responses in document order.
    pub responses: Vec<Response>,
}

/// Where a parameter travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loc {
    /// A `{slot}` of the path.
    Path,
    /// The query string.
    Query,
    /// A request header.
    Header,
    /// The `Cookie` header.
    Cookie,
}

impl Loc {
    /// The word used in messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Loc::Path => "path",
            Loc::Query => "query",
            Loc::Header => "header",
            Loc::Cookie => "cookie",
        }
    }
}

/// One parameter.
pub struct Param {
    /// Wire name.
    pub name: String,
    /// Location.
    pub loc: Loc,
    /// Whether it must be present.
    pub required: bool,
    /// Serialization style (`form`, `simple`, `label`, `matrix`, …).
    pub style: String,
    /// Whether arrays/objects are exploded.
    pub explode: bool,
    /// Described by `content` with a JSON media type: the value is JSON text.
    pub json_content: bool,
    /// Its schema, if any.
    pub schema: Option<Schema>,
}

/// A request body.
pub struct Body {
    /// Whether a body must be sent.
    pub required: bool,
    /// Documented media types and, for JSON ones, the schema.
    pub media: Vec<(String, Option<Schema>)>,
}

/// One documented response.
pub struct Response {
    /// `200`, `4XX` or `default`, as written.
    pub code: String,
    /// Headers to send (name, value).
    pub headers: Vec<(String, String)>,
    /// Its media types.
    pub media: Vec<Media>,
}

/// One media type of a response.
pub struct Media {
    /// The media type as documented.
    pub media_type: String,
    /// Documented examples in order (`example`, then named `examples`).
    pub examples: Vec<(String, Value)>,
    /// The schema's own example, else a value synthesized from it.
    pub synthesized: Option<Value>,
}

/// A self-contained JSON Schema 2020-12 with its validator compiled on
/// first use.
pub struct Schema {
    /// The schema, `$defs` at the top.
    pub value: Value,
    validator: OnceLock<Option<jsonschema::Validator>>,
}

impl Schema {
    fn new(value: Value) -> Self {
        Self {
            value,
            validator: OnceLock::new(),
        }
    }

    /// The compiled validator (`None` when the schema does not compile:
    /// then nothing is checked).
    pub fn validator(&self) -> Option<&jsonschema::Validator> {
        self.validator
            .get_or_init(|| jsonschema::draft202012::new(&self.value).ok())
            .as_ref()
    }

    /// The JSON types the schema (after `$ref`s and combinators) allows at
    /// the top; empty when unconstrained.
    pub fn types(&self) -> Vec<String> {
        let mut out = Vec::new();
        types_of(&self.value, &self.value, &mut out, 0);
        out
    }

    /// The types allowed for array items, if the schema is an array.
    pub fn item_types(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(items) = resolve(&self.value, &self.value, 0).get("items") {
            types_of(&self.value, items, &mut out, 0);
        }
        out
    }
}

/// Follows local `#/$defs/…` references.
fn resolve<'v>(root: &'v Value, schema: &'v Value, depth: usize) -> &'v Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) if depth < 16 => r
            .strip_prefix('#')
            .and_then(|p| crate::document::refs::get_pointer(root, p))
            .map_or(schema, |t| resolve(root, t, depth + 1)),
        _ => schema,
    }
}

fn types_of(root: &Value, schema: &Value, out: &mut Vec<String>, depth: usize) {
    if depth > 16 {
        return;
    }
    let schema = resolve(root, schema, depth);
    let mut push = |t: &str| {
        if !out.iter().any(|o| o == t) {
            out.push(t.to_string());
        }
    };
    match schema.get("type") {
        Some(Value::String(t)) => push(t),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).for_each(push),
        _ => {}
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(list)) = schema.get(key) {
            for s in list {
                types_of(root, s, out, depth + 1);
            }
        }
    }
}

/// Builds the route table of every operation of `doc`.
pub fn build(doc: &Document, seed: u64) -> (Vec<Route>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let ops = operations::collect(doc, &mut diags);
    let mut bundler = SchemaBundler::new(doc);
    let mut synth = Synth::new(doc, seed);
    let routes = ops
        .iter()
        .map(|op| route(doc, op, &mut bundler, &mut synth))
        .collect();
    diags.extend(bundler.take_diagnostics());
    (routes, diags)
}

fn route<'d>(
    doc: &'d Document,
    op: &Operation<'d>,
    bundler: &mut SchemaBundler<'_>,
    synth: &mut Synth<'d>,
) -> Route {
    let params = op.params.iter().filter_map(|p| param(p, bundler)).collect();
    let body = op
        .node
        .child("requestBody")
        .and_then(|b| doc.deref(b).ok())
        .map(|b| body(&b, bundler));
    Route {
        method: op.method.to_ascii_uppercase(),
        path: op.path.to_string(),
        template: Template::parse(op.path),
        params,
        body,
        responses: responses(doc, op, synth),
    }
}

/// The schema at `node`, converted (input direction) with its `$defs`.
fn input_schema(node: &Located<'_>, bundler: &mut SchemaBundler<'_>) -> Schema {
    let mut deps = BTreeSet::new();
    let converted = bundler.convert(node, Direction::Input, &mut deps);
    let defs = bundler.defs(&deps, Direction::Input);
    let value = match converted {
        Value::Object(mut m) if !defs.is_empty() => {
            m.insert("$defs".into(), Value::Object(defs));
            Value::Object(m)
        }
        other => other,
    };
    Schema::new(value)
}

fn param(p: &Located<'_>, bundler: &mut SchemaBundler<'_>) -> Option<Param> {
    let s = |k| p.value.get(k).and_then(Value::as_str);
    let loc = match s("in")? {
        "path" => Loc::Path,
        "query" => Loc::Query,
        "header" => Loc::Header,
        "cookie" => Loc::Cookie,
        _ => return None,
    };
    let name = s("name")?.to_string();
    if loc == Loc::Header
        && ["accept", "content-type", "authorization"].contains(&name.to_ascii_lowercase().as_str())
    {
        return None; // OpenAPI ignores these as parameters
    }
    let style = s("style").map(str::to_string).unwrap_or_else(|| match loc {
        Loc::Query | Loc::Cookie => "form".into(),
        Loc::Path | Loc::Header => "simple".into(),
    });
    let explode = p
        .value
        .get("explode")
        .and_then(Value::as_bool)
        .unwrap_or(style == "form");
    let mut json_content = false;
    let schema = match p.child("schema") {
        Some(schema) => Some(input_schema(&schema, bundler)),
        None => p.child("content").and_then(|content| {
            let (mt, _) = content.value.as_object()?.iter().next()?;
            json_content = is_json(mt);
            content
                .child(mt)?
                .child("schema")
                .map(|s| input_schema(&s, bundler))
        }),
    };
    Some(Param {
        required: loc == Loc::Path
            || p.value.get("required").and_then(Value::as_bool) == Some(true),
        name,
        loc,
        style,
        explode,
        json_content,
        schema,
    })
}

fn body(b: &Located<'_>, bundler: &mut SchemaBundler<'_>) -> Body {
    let required = b.value.get("required").and_then(Value::as_bool) == Some(true);
    let mut media = Vec::new();
    if let Some(content) = b.child("content")
        && let Value::Object(map) = content.value
    {
        for mt in map.keys() {
            let schema = content
                .child(mt)
                .and_then(|m| m.child("schema"))
                .filter(|_| is_json(mt))
                .map(|s| input_schema(&s, bundler));
            media.push((mt.clone(), schema));
        }
    }
    Body { required, media }
}

fn responses<'d>(doc: &'d Document, op: &Operation<'d>, synth: &mut Synth<'d>) -> Vec<Response> {
    let Some(responses) = op.node.child("responses") else {
        return Vec::new();
    };
    let Value::Object(map) = responses.value else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for code in map.keys().filter(|c| !c.starts_with("x-")) {
        let Some(r) = responses.child(code).and_then(|r| doc.deref(r).ok()) else {
            continue;
        };
        let mut media = Vec::new();
        if let Some(content) = r.child("content")
            && let Value::Object(cm) = content.value
        {
            for mt in cm.keys() {
                let Some(m) = content.child(mt) else { continue };
                let examples = examples::named(doc, &m);
                let synthesized = m.child("schema").map(|s| synth.value(&s));
                media.push(Media {
                    media_type: mt.clone(),
                    examples,
                    synthesized,
                });
            }
        }
        out.push(Response {
            code: code.clone(),
            headers: headers(doc, &r, synth),
            media,
        });
    }
    out
}

/// Documented response headers with a value from their example or schema.
fn headers<'d>(
    doc: &'d Document,
    response: &Located<'d>,
    synth: &mut Synth<'d>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let Some(hs) = response.child("headers") else {
        return out;
    };
    let Value::Object(map) = hs.value else {
        return out;
    };
    for name in map.keys() {
        if ["content-type", "content-length", "transfer-encoding"]
            .contains(&name.to_ascii_lowercase().as_str())
        {
            continue;
        }
        let Some(h) = hs.child(name).and_then(|h| doc.deref(h).ok()) else {
            continue;
        };
        let value = examples::named(doc, &h)
            .into_iter()
            .next()
            .map(|(_, v)| v)
            .or_else(|| h.child("schema").map(|s| synth.value(&s)));
        if let Some(text) = value.as_ref().and_then(header_text) {
            out.push((name.clone(), text));
        }
    }
    out
}

fn header_text(v: &Value) -> Option<String> {
    let text = match v {
        Value::String(s) => s.clone(),
        Value::Number(_) | Value::Bool(_) => v.to_string(),
        Value::Array(items) => items
            .iter()
            .map(|i| match i {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect::<Vec<_>>()
            .join(","),
        Value::Null | Value::Object(_) => return None,
    };
    (!text.is_empty()
        && text
            .bytes()
            .all(|b| b == b'\t' || (b' '..0x7f).contains(&b)))
    .then_some(text)
}
