//! The input side of a tool: one flat JSON object of arguments built from
//! path, query, header and cookie parameters and the request body, and the
//! binding that says where each argument goes on the wire.
//!
//! Argument names are the wire names (characters outside `[A-Za-z0-9_.-]`
//! become `_`). When two locations share a name, the first in the order
//! path, query, header, cookie, body keeps it and the others are prefixed
//! with their location (`query_id`, `body_id`); the binding records the
//! wire name. An object body (plain, or `allOf` of objects) is flattened
//! into top-level arguments; any other body is one `body` argument.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use super::SELF_TOOL;
use super::budget::Side;
use super::bundle::SchemaBundler;
use super::encoding::prop_encoding;
use super::mcp_headers::{self, Candidate, Explicit, McpHeaderMode, Routing};
use openapi2mcp_document::Diagnostic;
use openapi2mcp_document::dialect::Direction;
use openapi2mcp_document::model::{
    McpHeaderExtension, MediaType, Operation, Parameter, ScalarType, Schema,
};
use openapi2mcp_model::binding::{
    BodyBinding, BodyProp, BodyShape, Location, MediaKind, ParamBinding, Style,
};
use openapi2mcp_model::schemas::tool_schema_uri;
use openapi2mcp_model::wire::media::essence;

/// Header parameters OpenAPI says to ignore (the body and auth set them).
const IGNORED_HEADERS: &[&str] = &["accept", "content-type", "authorization"];
/// Longest argument name we emit.
const MAX_ARG_LEN: usize = 64;

/// The input schema and the request binding of one operation.
pub struct Inputs {
    /// JSON Schema object of the arguments, with `$defs`, within the
    /// schema budget.
    pub schema: Value,
    /// The full schema's top level when `schema` is a summary of it.
    pub full: Option<Value>,
    /// Parameter bindings in document order.
    pub http_params: Vec<ParamBinding>,
    /// The body binding, if the operation has a body.
    pub body: Option<BodyBinding>,
}

/// One argument before its final name is chosen.
struct Arg<'d> {
    wire: String,
    location: Option<Location>, // None = body
    schema: Value,
    required: bool,
    binding: ArgBinding,
    /// The parameter it comes from, when its schema was converted (for
    /// the `x-mcp-header` rule).
    param: Option<Parameter<'d>>,
}

enum ArgBinding {
    Param(ParamBinding),
    BodyProp(BodyProp),
    WholeBody { binary: bool },
}

/// Builds the inputs of `op`. Fails only when a `$ref` in the request body
/// cannot be followed (the operation is then skipped with that diagnostic);
/// repairs to the document's parameters are reported in `warnings`.
///
/// A JSON body whose properties alone would not fit the schema budget as
/// top-level arguments (Microsoft Graph's entities have hundreds) is one
/// `body` argument instead, whose nested fields the budget can summarize.
pub fn build(
    op: &Operation<'_>,
    bundler: &mut SchemaBundler<'_>,
    budget: usize,
    routing: &Routing,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Inputs, Diagnostic> {
    let mut first_warnings = Vec::new();
    let (inputs, flattened) = build_with(op, bundler, budget, routing, &mut first_warnings, true)?;
    let over =
        budget > 0 && inputs.full.is_some() && super::bundle::json_size(&inputs.schema) > budget;
    if over && flattened {
        let (whole, _) = build_with(op, bundler, budget, routing, warnings, false)?;
        return Ok(whole);
    }
    warnings.extend(first_warnings);
    Ok(inputs)
}

/// [`build`], flattening an object body into arguments when `flatten`;
/// also says whether a JSON body was flattened.
fn build_with(
    op: &Operation<'_>,
    bundler: &mut SchemaBundler<'_>,
    budget: usize,
    routing: &Routing,
    warnings: &mut Vec<Diagnostic>,
    flatten: bool,
) -> Result<(Inputs, bool), Diagnostic> {
    let mut deps = BTreeSet::new();
    let mut args = Vec::new();
    params(op, Some((bundler, &mut deps)), &mut args, warnings);
    let body_meta = body(op, bundler, &mut deps, &mut args, flatten, warnings)?;
    let flattened = args
        .iter()
        .any(|a| matches!(a.binding, ArgBinding::BodyProp(_)))
        && body_meta
            .as_ref()
            .is_some_and(|(mt, _)| MediaKind::of(mt) == MediaKind::Json);
    name_args(&mut args);
    annotate_headers(&mut args, routing, warnings);

    let mut properties = Map::new();
    let mut required = Vec::new();
    let mut http_params = Vec::new();
    let mut body_props = Vec::new();
    let mut whole_body = None;
    for arg in args {
        let name = arg.wire.clone();
        if arg.required {
            required.push(Value::String(name.clone()));
        }
        properties.insert(name.clone(), arg.schema);
        match arg.binding {
            ArgBinding::Param(mut p) => {
                p.arg = name;
                http_params.push(p);
            }
            ArgBinding::BodyProp(mut p) => {
                p.arg = name;
                body_props.push(p);
            }
            ArgBinding::WholeBody { binary } => {
                whole_body = Some(BodyShape::Whole { arg: name, binary })
            }
        }
    }
    let body = body_meta.map(|(media_type, required)| BodyBinding {
        media_type,
        required,
        shape: whole_body.unwrap_or(BodyShape::Properties { props: body_props }),
    });

    let mut schema = Map::new();
    schema.insert("type".into(), json!("object"));
    schema.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".into(), Value::Array(required));
    }
    schema.insert("additionalProperties".into(), json!(false));
    let fitted = bundler.fit(
        schema,
        &deps,
        Side::Input,
        budget,
        &tool_schema_uri(SELF_TOOL, false),
    );
    let inputs = Inputs {
        schema: fitted.listed,
        full: fitted.full,
        http_params,
        body,
    };
    Ok((inputs, flattened))
}

/// The parameters' arguments; their schemas are converted only when
/// `convert` is given (a head needs only names and locations).
fn params<'d>(
    op: &Operation<'d>,
    mut convert: Option<(&mut SchemaBundler<'_>, &mut BTreeSet<String>)>,
    args: &mut Vec<Arg<'d>>,
    warnings: &mut Vec<Diagnostic>,
) {
    let template_names = op.template_slots();
    let querystring = querystring_of(op, warnings);
    for p in &op.params {
        let name = p.name.to_string();
        let location = match p.location {
            "path" => Location::Path,
            "query" if querystring.is_some() => continue,
            "query" => Location::Query,
            "querystring" if querystring.is_some_and(|q| q.pointer() == p.pointer()) => {
                Location::Querystring
            }
            "querystring" => continue,
            "header" if IGNORED_HEADERS.contains(&name.to_ascii_lowercase().as_str()) => continue,
            "header" => Location::Header,
            "cookie" => Location::Cookie,
            _ => continue, // body/formData only exist in 2.0 and were upgraded away
        };
        if location == Location::Path && !template_names.contains(&name.as_str()) {
            warnings.push(p.warning(format!(
                "path parameter `{name}` has no `{{{name}}}` slot in `{}`; left out",
                op.path
            )));
            continue;
        }
        let (schema, content_type) = match convert.as_mut() {
            Some((bundler, deps)) => {
                let (schema, content_type) = param_schema(p, bundler, deps);
                (with_param_docs(schema, p), content_type)
            }
            None => (Value::Null, None),
        };
        // A querystring without `content` (the specification requires
        // one) is read as form pairs, what a query string is by default.
        let content_type = match location {
            Location::Querystring => content_type.or_else(|| Some(FORM_MEDIA_TYPE.to_string())),
            _ => content_type,
        };
        let style = style_of(p, location);
        args.push(Arg {
            wire: name.clone(),
            location: Some(location),
            required: location == Location::Path || p.required(),
            param: convert.is_some().then(|| p.clone()),
            schema,
            binding: ArgBinding::Param(ParamBinding {
                arg: String::new(),
                name,
                location,
                style,
                explode: p.explode().unwrap_or(style == Style::Form),
                required: location == Location::Path || p.required(),
                allow_reserved: p.allow_reserved(),
                content_type,
            }),
        });
    }
    // Template slots the document forgot to declare are still required.
    for name in template_names {
        let declared = args
            .iter()
            .any(|a| a.location == Some(Location::Path) && a.wire == name);
        if !declared {
            warnings.push(op.warning(
                format!("`{{{name}}}` in `{}` is not declared as a path parameter; added as a required string", op.path),
            ));
            args.push(Arg {
                wire: name.to_string(),
                location: Some(Location::Path),
                required: true,
                param: None,
                schema: json!({"type": "string", "description": format!("Path parameter `{name}` (not declared by the document).")}),
                binding: ArgBinding::Param(ParamBinding {
                    arg: String::new(),
                    name: name.to_string(),
                    location: Location::Path,
                    style: Style::Simple,
                    explode: false,
                    required: true,
                    allow_reserved: false,
                    content_type: None,
                }),
            });
        }
    }
}

/// The media type of a query string when the document names none.
const FORM_MEDIA_TYPE: &str = "application/x-www-form-urlencoded";

/// The operation's `in: querystring` parameter (OpenAPI 3.2), which
/// stands for the whole query string: the first, when the document
/// (against the specification) declares more, and then the `query`
/// parameters, which it replaces, are left out; each is a warning.
fn querystring_of<'a, 'd>(
    op: &'a Operation<'d>,
    warnings: &mut Vec<Diagnostic>,
) -> Option<&'a Parameter<'d>> {
    let mut found = op.params.iter().filter(|p| p.location == "querystring");
    let first = found.next()?;
    for extra in found {
        warnings.push(extra.warning(format!(
            "a second `in: querystring` parameter (`{}`): an operation has at most one; left out, `{}` is the query string",
            extra.name, first.name
        )));
    }
    for query in op.params.iter().filter(|p| p.location == "query") {
        warnings.push(query.warning(format!(
            "query parameter `{}` beside the `in: querystring` parameter `{}`, which is the whole query string; left out",
            query.name, first.name
        )));
    }
    if first.content().is_none() {
        warnings.push(first.warning(format!(
            "the querystring parameter `{}` has no `content` (required): serialized as {FORM_MEDIA_TYPE}",
            first.name
        )));
    }
    Some(first)
}

/// The parameter bindings of `op`, named as its tool names its arguments,
/// without converting a schema: what a link to `op` (a long-running
/// operation's cancel link) needs to call it. Repairs to the document's
/// parameters are the tool's own to report, so none are reported here.
pub fn param_bindings(op: &Operation<'_>) -> Vec<ParamBinding> {
    let mut args = Vec::new();
    params(op, None, &mut args, &mut Vec::new());
    name_args(&mut args);
    args.into_iter()
        .filter_map(|a| match a.binding {
            ArgBinding::Param(mut p) => {
                p.arg = a.wire;
                Some(p)
            }
            _ => None,
        })
        .collect()
}

/// What a tool's head needs of its inputs, without converting a schema:
/// the parameters' argument names with their locations (named as the
/// built tool names them), and every argument name a search can match:
/// those, then the top-level properties of an object body.
pub struct HeadArgs {
    /// Parameter arguments and where they go.
    pub params: Vec<(String, Location)>,
    /// Parameter names, then body property names.
    pub names: Vec<String>,
}

/// [`HeadArgs`] of `op`.
pub fn head_args(op: &Operation<'_>) -> HeadArgs {
    let mut args = Vec::new();
    params(op, None, &mut args, &mut Vec::new());
    name_args(&mut args);
    let params: Vec<(String, Location)> = args
        .into_iter()
        .filter_map(|a| Some((a.wire, a.location?)))
        .collect();
    let mut names: Vec<String> = params.iter().map(|(n, _)| n.clone()).collect();
    let body_schema = op
        .request_body()
        .ok()
        .flatten()
        .and_then(|rb| pick_media_type(rb.media_types()))
        .and_then(|media| media.schema());
    if let Some(shape) = body_schema.and_then(|s| s.object_shape()) {
        for (name, prop) in shape.props {
            if !prop.read_only() && !names.contains(&name) {
                names.push(name);
            }
        }
    }
    HeadArgs { params, names }
}

/// The parameter's schema (`schema`, else the first `content` entry's).
fn param_schema(
    p: &Parameter<'_>,
    bundler: &mut SchemaBundler<'_>,
    deps: &mut BTreeSet<String>,
) -> (Value, Option<String>) {
    if let Some(s) = p.schema() {
        return (bundler.convert(&s, Direction::Input, deps), None);
    }
    if let Some(media) = p.content() {
        let schema = media
            .schema()
            .map(|s| bundler.convert(&s, Direction::Input, deps))
            .unwrap_or_else(|| json!({}));
        return (schema, Some(media.name.to_string()));
    }
    (json!({"type": "string"}), None)
}

/// Adds the parameter's description, examples and deprecation to its schema.
fn with_param_docs(schema: Value, param: &Parameter<'_>) -> Value {
    let mut map = match schema {
        Value::Object(m) => m,
        Value::Bool(true) => Map::new(),
        other => return other,
    };
    if let Some(d) = param.description()
        && !d.trim().is_empty()
    {
        map.insert("description".into(), json!(d.trim()));
    }
    if param.deprecated() {
        map.insert("deprecated".into(), json!(true));
    }
    // Bounded like a body's: at most two, each up to 1 KiB.
    let examples: Vec<Value> = param
        .example_values()
        .into_iter()
        .filter(|v| super::bundle::json_size(*v) <= MAX_EXAMPLE_BYTES)
        .take(MAX_EXAMPLES)
        .cloned()
        .collect();
    if !examples.is_empty() {
        map.insert("examples".into(), Value::Array(examples));
    }
    Value::Object(map)
}

fn style_of(p: &Parameter<'_>, location: Location) -> Style {
    let default = match location {
        Location::Path | Location::Header => Style::Simple,
        Location::Query | Location::Cookie | Location::Querystring => Style::Form,
    };
    let style = match p.style() {
        Some("simple") => Style::Simple,
        Some("label") => Style::Label,
        Some("matrix") => Style::Matrix,
        Some("form") => Style::Form,
        Some("spaceDelimited") => Style::SpaceDelimited,
        Some("pipeDelimited") => Style::PipeDelimited,
        Some("deepObject") => Style::DeepObject,
        _ => default,
    };
    let allowed = match location {
        Location::Path => matches!(style, Style::Simple | Style::Label | Style::Matrix),
        Location::Query => !matches!(style, Style::Simple | Style::Label | Style::Matrix),
        Location::Header => style == Style::Simple,
        Location::Cookie => style == Style::Form,
        Location::Querystring => false,
    };
    if allowed { style } else { default }
}

/// The request body: picks a media type, then flattens an object schema
/// into arguments or makes one `body` argument. Returns (media type, required).
fn body(
    op: &Operation<'_>,
    bundler: &mut SchemaBundler<'_>,
    deps: &mut BTreeSet<String>,
    args: &mut Vec<Arg<'_>>,
    flatten: bool,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Option<(String, bool)>, Diagnostic> {
    let Some(rb) = op.request_body()? else {
        return Ok(None);
    };
    let Some(media) = pick_media_type(rb.media_types()) else {
        return Ok(None);
    };
    let media_type = media.name.to_string();
    let required = rb.required();
    let description = rb.description().map(str::trim);
    let schema = media.schema();
    let kind = MediaKind::of(&media_type);
    let examples = body_examples(&media);

    if (flatten || kind != MediaKind::Json)
        && matches!(
            kind,
            MediaKind::Json | MediaKind::Form | MediaKind::Multipart
        )
        && let Some(schema) = &schema
        && let Some(shape) = schema.object_shape()
    {
        for (name, prop) in shape.props {
            if prop.read_only() {
                continue;
            }
            let binary = kind != MediaKind::Json && prop.is_binary();
            let mut converted = if binary {
                file_schema(&prop)
            } else {
                bundler.convert(&prop, Direction::Input, deps)
            };
            if let Value::Bool(true) = converted {
                converted = json!({});
            }
            // The body's examples, property by property (issue 25 item 3).
            let values: Vec<&Value> = examples.iter().filter_map(|e| e.get(&name)).collect();
            add_examples(&mut converted, values);
            let version = op.document().version;
            let encoding = prop_encoding(&media, &name, kind, version, binary, warnings);
            args.push(Arg {
                wire: name.clone(),
                location: None,
                required: required && shape.required.contains(&name),
                param: None,
                schema: converted,
                binding: ArgBinding::BodyProp(BodyProp {
                    arg: String::new(),
                    name,
                    binary,
                    content_type: encoding.content_type,
                    style: encoding.style,
                    headers: encoding.headers,
                }),
            });
        }
        return Ok(Some((media_type, required)));
    }

    let binary = kind == MediaKind::Binary;
    let mut converted = match (&schema, kind) {
        (_, MediaKind::Binary) => json!({"type": "string", "contentEncoding": "base64"}),
        (_, MediaKind::Text) => json!({"type": "string"}),
        (Some(s), _) => bundler.convert(s, Direction::Input, deps),
        (None, _) => json!({}),
    };
    if let Value::Object(map) = &mut converted {
        let what = match kind {
            MediaKind::Binary => format!("Request body ({media_type}): base64, or a data: URI."),
            _ => format!("Request body ({media_type})."),
        };
        let text = match description {
            Some(d) if !d.is_empty() => format!("{d}\n\n{what}"),
            _ => what,
        };
        map.insert("description".into(), json!(text));
        add_examples(&mut converted, examples.iter().collect());
    } else {
        converted = json!({});
    }
    args.push(Arg {
        wire: "body".into(),
        location: None,
        required,
        param: None,
        schema: converted,
        binding: ArgBinding::WholeBody { binary },
    });
    Ok(Some((media_type, required)))
}

/// Most examples of a parameter, body or body property carried into its schema.
const MAX_EXAMPLES: usize = 2;
/// Largest example carried, as compact JSON; bigger ones are left out.
const MAX_EXAMPLE_BYTES: usize = 1024;

/// The media type's documented examples that are small enough to show.
fn body_examples(media: &MediaType<'_>) -> Vec<Value> {
    media
        .examples()
        .into_iter()
        .map(|(_, value)| value)
        .filter(|v| super::bundle::json_size(v) <= MAX_EXAMPLE_BYTES)
        .take(MAX_EXAMPLES)
        .collect()
}

/// Adds `values` (distinct, bounded) as the schema's `examples` when it
/// has none of its own: models fill complex arguments better with one.
fn add_examples(schema: &mut Value, values: Vec<&Value>) {
    let Value::Object(map) = schema else { return };
    if values.is_empty() || map.contains_key("examples") {
        return;
    }
    let mut kept: Vec<Value> = Vec::new();
    for v in values {
        if !kept.contains(v) && super::bundle::json_size(v) <= MAX_EXAMPLE_BYTES {
            kept.push(v.clone());
        }
    }
    kept.truncate(MAX_EXAMPLES);
    map.insert("examples".into(), Value::Array(kept));
}

/// Prefers JSON, then form, multipart, text, and anything else in order.
fn pick_media_type(media: Vec<MediaType<'_>>) -> Option<MediaType<'_>> {
    // By kind; then a concrete type before a range (`application/*+json`
    // is no `Content-Type`), and plain `application/json` before other JSON
    // types (ASP.NET's Swashbuckle lists `application/json-patch+json`
    // first, and some documents the range first); then document order.
    let rank = |mt: &str| {
        let kind = match MediaKind::of(mt) {
            MediaKind::Json => 0,
            MediaKind::Form => 1,
            MediaKind::Multipart => 2,
            MediaKind::Text => 3,
            MediaKind::Binary => 4,
        };
        let essence = essence(mt);
        (kind, essence.contains('*'), essence != "application/json")
    };
    media.into_iter().min_by_key(|m| rank(m.name))
}

/// The argument schema of a file part: base64 text or a `data:` URI.
fn file_schema(prop: &Schema<'_>) -> Value {
    let desc = prop
        .description()
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| {
            let stop = if d.ends_with(['.', '!', '?']) {
                ""
            } else {
                "."
            };
            format!("{d}{stop} ")
        })
        .unwrap_or_default();
    let file = json!({
        "type": "string",
        "contentEncoding": "base64",
        "description": format!("{desc}File content: base64, or a data: URI (data:<type>;base64,<data>)."),
    });
    if prop.declared_type() == Some("array") {
        json!({"type": "array", "items": file})
    } else {
        file
    }
}

/// Adds `x-mcp-header` to the schemas of the parameters an MCP client
/// mirrors into `Mcp-Param-*` headers (see [`super::mcp_headers`]). The
/// annotated property states its scalar `type` itself, as SEP-2243
/// clients check (a `$ref`'s target's type is written beside it).
fn annotate_headers(args: &mut [Arg<'_>], routing: &Routing, warnings: &mut Vec<Diagnostic>) {
    if routing.mode == McpHeaderMode::None {
        return;
    }
    let mut at = Vec::new();
    let mut candidates = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        let (Some(p), Some(location)) = (&arg.param, arg.location) else {
            continue;
        };
        let explicit = match p.mcp_header() {
            None => Explicit::Unset,
            Some(McpHeaderExtension::Never) => Explicit::Never,
            Some(McpHeaderExtension::Derived) => Explicit::Derived,
            Some(McpHeaderExtension::Name(n)) => Explicit::Name(n.to_string()),
            Some(McpHeaderExtension::Malformed(what)) => Explicit::Malformed(what),
        };
        if explicit == Explicit::Unset && location != Location::Header {
            continue;
        }
        let scalar = listed_scalar(&arg.schema, p);
        candidates.push(Candidate {
            name: p.name.to_string(),
            location,
            explicit,
            scalar: scalar.map(|s| s.name.to_string()),
            format: scalar.and_then(|s| s.format.map(str::to_string)),
        });
        at.push(i);
    }
    if candidates.is_empty() {
        return;
    }
    let decision = mcp_headers::decide(&candidates, routing);
    for (k, message) in decision.warnings {
        if let Some(p) = &args[at[k]].param {
            warnings.push(p.warning(message));
        }
    }
    for (k, name) in decision.names.into_iter().enumerate() {
        let (Some(name), Some(scalar)) = (name, &candidates[k].scalar) else {
            continue;
        };
        if let Value::Object(map) = &mut args[at[k]].schema {
            map.entry("type")
                .or_insert_with(|| Value::String(scalar.clone()));
            map.insert(mcp_headers::KEYWORD.into(), Value::String(name));
        }
    }
}

/// The scalar type of a parameter's argument: the document's (its
/// `$ref`s followed), when the converted schema agrees with it (states no
/// other `type`: a 3.0 `nullable` became a type list); `None` for a
/// parameter described by `content` (sent as a serialized document).
fn listed_scalar<'d>(schema: &Value, p: &Parameter<'d>) -> Option<ScalarType<'d>> {
    let scalar = p.schema()?.scalar_type()?;
    let Value::Object(map) = schema else {
        return None;
    };
    match map.get("type") {
        None => Some(scalar),
        Some(Value::String(t)) if t == scalar.name => Some(scalar),
        Some(_) => None,
    }
}

/// Makes argument names valid and unique (see the module docs for the rule).
fn name_args(args: &mut [Arg<'_>]) {
    // Stable priority: path, query, header, cookie, then body.
    let rank = |a: &Arg| match a.location {
        Some(Location::Path) => 0,
        Some(Location::Query | Location::Querystring) => 1,
        Some(Location::Header) => 2,
        Some(Location::Cookie) => 3,
        None => 4,
    };
    let mut order: Vec<usize> = (0..args.len()).collect();
    order.sort_by_key(|&i| (rank(&args[i]), i));
    let mut taken: BTreeSet<String> = BTreeSet::new();
    for i in order {
        let base = arg_name(&args[i].wire);
        let name = if taken.contains(&base) {
            let prefix = args[i].location.map_or("body", Location::as_str);
            let stem = arg_name(&format!("{prefix}_{base}"));
            let mut candidate = stem.clone();
            let mut n = 2;
            // The suffix goes after a stem cut short enough to keep it, so
            // a name at the length limit still gets distinct candidates
            // (truncating after appending made this loop endless).
            while taken.contains(&candidate) {
                let suffix = format!("_{n}");
                let mut cut = MAX_ARG_LEN.saturating_sub(suffix.len()).min(stem.len());
                while !stem.is_char_boundary(cut) {
                    cut -= 1;
                }
                candidate = format!("{}{suffix}", &stem[..cut]);
                n += 1;
            }
            candidate
        } else {
            base
        };
        taken.insert(name.clone());
        // `wire` now holds the argument name; the binding keeps the wire name.
        args[i].wire = name;
    }
}

/// A property name every client accepts: `[A-Za-z0-9_.-]{1,64}`.
fn arg_name(wire: &str) -> String {
    let mut s: String = wire
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let trimmed = s.trim_matches('_');
    s = if trimmed.is_empty() {
        "arg".to_string()
    } else {
        trimmed.to_string()
    };
    if s.len() > MAX_ARG_LEN {
        s.truncate(MAX_ARG_LEN);
    }
    s
}

#[cfg(test)]
#[path = "inputs_tests.rs"]
mod tests;
