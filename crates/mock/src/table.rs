//! The route table: everything the mock needs from the document, computed
//! once and owned (the document itself is not kept). Request schemas are
//! converted to JSON Schema 2020-12 with their `$defs` (input direction);
//! responses keep their documented examples and a synthesized fallback.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use serde_json::Value;

use super::routes::Template;
use super::synth::{self, Synth};
use openapi2mcp_document::dialect::Direction;
use openapi2mcp_document::model::{
    Operation, Parameter, RequestBody, Response as DocResponse, Schema as DocSchema,
};
use openapi2mcp_document::{Diagnostic, Document};
use openapi2mcp_model::binding::split_fragment;
use openapi2mcp_model::wire::media::is_json;
use openapi2mcp_tools::bundle::SchemaBundler;

/// One documented operation.
pub struct Route {
    /// Upper-case method.
    pub method: String,
    /// The path template as written.
    pub path: String,
    /// The compiled template (the path key less any fragment).
    pub template: Template,
    /// What a request must carry to be this route when the path key has a
    /// fragment (see [`split_fragment`]): `/#Action=Describe` a query
    /// parameter or header `Action` of value `Describe`, and a bare name
    /// (`/channels#scope=flows&flow-arn`) that parameter with any value;
    /// only names the operation declares as query parameters or headers.
    /// The only thing that tells apart the routes of one path.
    pub fragment: Vec<(String, Option<String>)>,
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
    /// A stream's item (OpenAPI 3.2 `itemSchema` of a sequential media
    /// type): its example, else a value synthesized from it.
    pub item: Option<Value>,
    /// The schema as documented (`readOnly`/`writeOnly` kept, `$ref`s to
    /// `#/$defs/<key>` of [`Table::defs`]); kept only for the success
    /// responses of a stateful mock, which reads item shapes from it.
    pub schema: Option<Value>,
}

/// The route table and what the stateful mock reads with it.
pub struct Table {
    /// Every operation.
    pub routes: Vec<Route>,
    /// The converted `$defs` entries the kept response schemas name
    /// (empty unless schemas were kept).
    pub defs: std::collections::HashMap<String, std::sync::Arc<Value>>,
}

/// A self-contained JSON Schema 2020-12 with its validator compiled on
/// first use.
pub struct Schema {
    /// The schema, `$defs` at the top.
    pub value: Value,
    validator: OnceLock<Option<jsonschema::Validator>>,
}

impl Schema {
    /// The schema, its validator compiled when first needed.
    pub(crate) fn new(value: Value) -> Self {
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

    /// The types allowed for the property `name`, wherever the schema
    /// declares it: at its top or in an `allOf`/`anyOf`/`oneOf` branch
    /// (Stripe's range filters are `anyOf` an object of integer bounds and
    /// an integer). Empty when no branch declares it.
    pub fn property_types(&self, name: &str) -> Vec<String> {
        let mut out = Vec::new();
        for_each_property(&self.value, &self.value, name, 0, &mut |prop| {
            types_of(&self.value, prop, &mut out, 0)
        });
        out
    }

    /// The types allowed for the items of the property `name` when it is
    /// an array (see [`Schema::property_types`]).
    pub fn property_item_types(&self, name: &str) -> Vec<String> {
        let mut out = Vec::new();
        for_each_property(&self.value, &self.value, name, 0, &mut |prop| {
            if let Some(items) = resolve(&self.value, prop, 0).get("items") {
                types_of(&self.value, items, &mut out, 0)
            }
        });
        out
    }

    /// The schema of property `name` of `at` (this schema or one of its
    /// subschemas), from the first branch that declares it.
    pub fn property_of<'s>(&'s self, at: &'s Value, name: &str) -> Option<&'s Value> {
        first_branch(&self.value, at, 0, &|b| {
            b.get("properties").and_then(|ps| ps.get(name))
        })
    }

    /// The schema of the items of `at` (this schema or one of its
    /// subschemas), from the first branch that has one.
    pub fn items_of<'s>(&'s self, at: &'s Value) -> Option<&'s Value> {
        first_branch(&self.value, at, 0, &|b| b.get("items"))
    }

    /// The JSON types `at` (this schema or one of its subschemas) allows.
    pub fn types_at(&self, at: &Value) -> Vec<String> {
        let mut out = Vec::new();
        types_of(&self.value, at, &mut out, 0);
        out
    }

    /// Whether the schema, or one of its `allOf`/`anyOf`/`oneOf` branches,
    /// declares the property `name`.
    pub fn declares_property(&self, name: &str) -> bool {
        let mut found = false;
        for_each_property(&self.value, &self.value, name, 0, &mut |_| found = true);
        found
    }
}

/// Calls `found` with each schema of the property `name` in `schema` and
/// its composition branches.
fn for_each_property(
    root: &Value,
    schema: &Value,
    name: &str,
    depth: usize,
    found: &mut dyn FnMut(&Value),
) {
    for_each_branch(root, schema, depth, &mut |branch| {
        if let Some(prop) = branch.get("properties").and_then(|ps| ps.get(name)) {
            found(prop);
        }
    });
}

/// Calls `visit` with `schema` and each of its `allOf`/`anyOf`/`oneOf`
/// branches, at any depth, references followed (depth-bounded).
fn for_each_branch(root: &Value, schema: &Value, depth: usize, visit: &mut dyn FnMut(&Value)) {
    if depth > 16 {
        return;
    }
    let schema = resolve(root, schema, depth);
    visit(schema);
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(list)) = schema.get(key) {
            for s in list {
                for_each_branch(root, s, depth + 1, visit);
            }
        }
    }
}

/// What `pick` finds in `schema` or, failing that, in its first
/// `allOf`/`anyOf`/`oneOf` branch (at any depth) where it finds something;
/// references followed (depth-bounded).
fn first_branch<'v>(
    root: &'v Value,
    schema: &'v Value,
    depth: usize,
    pick: &dyn Fn(&'v Value) -> Option<&'v Value>,
) -> Option<&'v Value> {
    if depth > 16 {
        return None;
    }
    let schema = resolve(root, schema, depth);
    if let Some(found) = pick(schema) {
        return Some(found);
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(list)) = schema.get(key) {
            for s in list {
                if let Some(found) = first_branch(root, s, depth + 1, pick) {
                    return Some(found);
                }
            }
        }
    }
    None
}

/// Follows local `#/$defs/…` references.
fn resolve<'v>(root: &'v Value, schema: &'v Value, depth: usize) -> &'v Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) if depth < 16 => r
            .strip_prefix('#')
            .and_then(|p| root.pointer(p))
            .map_or(schema, |t| resolve(root, t, depth + 1)),
        _ => schema,
    }
}

fn types_of(root: &Value, schema: &Value, out: &mut Vec<String>, depth: usize) {
    for_each_branch(root, schema, depth, &mut |branch| {
        let mut push = |t: &str| {
            if !out.iter().any(|o| o == t) {
                out.push(t.to_string());
            }
        };
        match branch.get("type") {
            Some(Value::String(t)) => push(t),
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).for_each(push),
            _ => {}
        }
    });
}

/// Builds the route table of every operation of `doc`; `keep_schemas`
/// keeps the success responses' schemas (for the stateful mock).
pub fn build(doc: &Document, seed: u64, keep_schemas: bool) -> (Table, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let ops = doc.operations(&mut diags);
    let mut bundler = SchemaBundler::new(doc);
    // Synthesized values walk the documented schemas (both sides, as
    // documented); their conversions are kept apart from the request
    // schemas', and what they would warn about is not the mock's concern.
    let mut documented = SchemaBundler::new(doc);
    let mut synth = Synth::new(seed);
    let routes = ops
        .iter()
        .map(|op| route(op, &mut bundler, &mut documented, &mut synth, keep_schemas))
        .collect();
    diags.extend(bundler.take_diagnostics());
    let defs = if keep_schemas {
        synth.defs()
    } else {
        Default::default()
    };
    (Table { routes, defs }, diags)
}

fn route(
    op: &Operation<'_>,
    bundler: &mut SchemaBundler<'_>,
    documented: &mut SchemaBundler<'_>,
    synth: &mut Synth,
    keep_schemas: bool,
) -> Route {
    let params: Vec<Param> = op.params.iter().filter_map(|p| param(p, bundler)).collect();
    let body = op.request_body().ok().flatten().map(|b| body(&b, bundler));
    // Only what a request can carry is asked of it: a name the operation
    // declares as a query parameter or header. Any other part of a
    // fragment is a label (`/{tenantID}/{nextLink}#Users_ListNext`).
    let declared = |name: &str| {
        params.iter().any(|p| match p.loc {
            Loc::Query => p.name == name,
            Loc::Header => p.name.eq_ignore_ascii_case(name),
            _ => false,
        })
    };
    let (path, fragment) = split_fragment(op.path);
    let fragment = fragment
        .map(|f| {
            f.split('&')
                .map(|pair| match pair.split_once('=') {
                    Some((k, v)) => (k.to_string(), Some(v.to_string())),
                    None => (pair.to_string(), None),
                })
                .filter(|(name, _)| declared(name))
                .collect()
        })
        .unwrap_or_default();
    Route {
        method: op.method.to_ascii_uppercase(),
        path: op.path.to_string(),
        template: Template::parse(path),
        fragment,
        params,
        body,
        responses: responses(op, documented, synth, keep_schemas),
    }
}

/// `schema`, converted (input direction) with its `$defs`.
fn input_schema(schema: &DocSchema<'_>, bundler: &mut SchemaBundler<'_>) -> Schema {
    let mut deps = BTreeSet::new();
    let converted = bundler.convert(schema, Direction::Input, &mut deps);
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

fn param(p: &Parameter<'_>, bundler: &mut SchemaBundler<'_>) -> Option<Param> {
    let loc = match p.location {
        "path" => Loc::Path,
        "query" => Loc::Query,
        "header" => Loc::Header,
        "cookie" => Loc::Cookie,
        _ => return None,
    };
    let name = p.name.to_string();
    if loc == Loc::Header
        && ["accept", "content-type", "authorization"].contains(&name.to_ascii_lowercase().as_str())
    {
        return None; // OpenAPI ignores these as parameters
    }
    let style = p.style().map(str::to_string).unwrap_or_else(|| match loc {
        Loc::Query | Loc::Cookie => "form".into(),
        Loc::Path | Loc::Header => "simple".into(),
    });
    let explode = p.explode().unwrap_or(style == "form");
    let mut json_content = false;
    let schema = match p.schema() {
        Some(schema) => Some(input_schema(&schema, bundler)),
        None => p.content().and_then(|media| {
            json_content = is_json(media.name);
            media.schema().map(|s| input_schema(&s, bundler))
        }),
    };
    Some(Param {
        required: loc == Loc::Path || p.required(),
        name,
        loc,
        style,
        explode,
        json_content,
        schema,
    })
}

fn body(b: &RequestBody<'_>, bundler: &mut SchemaBundler<'_>) -> Body {
    let media = b
        .media_types()
        .into_iter()
        .map(|m| {
            let schema = m
                .schema()
                .filter(|_| is_json(m.name))
                .map(|s| input_schema(&s, bundler));
            (m.name.to_string(), schema)
        })
        .collect();
    Body {
        required: b.required(),
        media,
    }
}

fn responses(
    op: &Operation<'_>,
    documented: &mut SchemaBundler<'_>,
    synth: &mut Synth,
    keep_schemas: bool,
) -> Vec<Response> {
    let mut out = Vec::new();
    for code in op.response_codes() {
        let Some(r) = op.response(code) else {
            continue;
        };
        let keep = keep_schemas && code.starts_with('2');
        let media = r
            .media_types()
            .into_iter()
            .map(|m| {
                let (synthesized, schema) = match m.schema() {
                    Some(s) if keep && is_json(m.name) => {
                        let (value, schema) =
                            synth::synthesize_keeping_schema(synth, documented, &s);
                        (Some(value), Some(schema))
                    }
                    Some(s) => (Some(synth::synthesize(synth, documented, &s)), None),
                    None => (None, None),
                };
                Media {
                    media_type: m.name.to_string(),
                    examples: m.examples(),
                    synthesized,
                    item: m
                        .item_schema()
                        .map(|s| synth::synthesize(synth, documented, &s)),
                    schema,
                }
            })
            .collect();
        out.push(Response {
            code: code.to_string(),
            headers: headers(&r, documented, synth),
            media,
        });
    }
    out
}

/// Documented response headers with a value from their example or schema.
fn headers(
    response: &DocResponse<'_>,
    documented: &mut SchemaBundler<'_>,
    synth: &mut Synth,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for h in response.headers() {
        if ["content-type", "content-length", "transfer-encoding"]
            .contains(&h.name.to_ascii_lowercase().as_str())
        {
            continue;
        }
        let value = h
            .examples()
            .into_iter()
            .next()
            .map(|(_, v)| v)
            .or_else(|| h.schema().map(|s| synth::synthesize(synth, documented, &s)));
        if let Some(text) = value.as_ref().and_then(header_text) {
            out.push((h.name.to_string(), text));
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
