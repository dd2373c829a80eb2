//! Request validation: required parameters present, parameter text coerced
//! to its schema's type (integer, number, boolean, arrays of those) and
//! validated, JSON bodies parsed and validated against the request schema,
//! media types checked. A failure is a [`Problem`] naming what is wrong.

use percent_encoding::percent_decode_str;
use serde_json::{Map, Value};

use super::table::{Loc, Param, Route, Schema};
use openapi2mcp_model::wire::media::{essence, is_json};

/// A request the mock refuses: the status and what to tell the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// HTTP status (400, 404, 405, 415 …).
    pub status: u16,
    /// What is wrong, for a human.
    pub detail: String,
}

impl Problem {
    /// A 400 Bad Request.
    pub fn bad(detail: impl Into<String>) -> Self {
        Self {
            status: 400,
            detail: detail.into(),
        }
    }
}

/// The parts of a request that validation reads.
pub struct Incoming<'a> {
    /// Values of the path template's slots, decoded.
    pub slots: &'a [(String, String)],
    /// The raw query string.
    pub query: Option<&'a str>,
    /// Request headers.
    pub headers: &'a [(String, String)],
    /// The body.
    pub body: &'a [u8],
}

impl Incoming<'_> {
    /// The first header named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Checks the parameters and the body of a request for `route`.
pub fn check(route: &Route, req: &Incoming<'_>) -> Result<(), Problem> {
    let query = parse_query(req.query.unwrap_or_default());
    let cookies = parse_cookies(req.header("cookie").unwrap_or_default());
    for p in &route.params {
        let what = format!("{} parameter `{}`", p.loc.as_str(), p.name);
        let Some(value) = param_value(p, req, &query, &cookies)? else {
            if p.required {
                return Err(Problem::bad(format!("missing required {what}")));
            }
            continue;
        };
        if let Some(schema) = &p.schema {
            validate(schema, &value, &what)?;
        }
    }
    body(route, req)
}

fn validate(schema: &Schema, value: &Value, what: &str) -> Result<(), Problem> {
    let Some(validator) = schema.validator() else {
        return Ok(());
    };
    match validator.iter_errors(value).next() {
        None => Ok(()),
        Some(e) => {
            let at = e.instance_path().to_string();
            let at = if at.is_empty() {
                String::new()
            } else {
                format!(" at `{at}`")
            };
            Err(Problem::bad(format!("{what}{at}: {e}")))
        }
    }
}

/// The parameter's value as JSON, coerced by its schema, if present.
fn param_value(
    p: &Param,
    req: &Incoming<'_>,
    query: &[(String, String)],
    cookies: &[(String, String)],
) -> Result<Option<Value>, Problem> {
    let raw: Option<String> = match p.loc {
        Loc::Path => req
            .slots
            .iter()
            .find(|(n, _)| *n == p.name)
            .map(|(_, v)| strip_style(p, v)),
        Loc::Header => req.header(&p.name).map(str::to_string),
        Loc::Cookie => cookies
            .iter()
            .find(|(n, _)| *n == p.name)
            .map(|(_, v)| v.clone()),
        Loc::Query => return Ok(query_value(p, query)),
    };
    let Some(raw) = raw else { return Ok(None) };
    if p.json_content {
        return serde_json::from_str(&raw).map(Some).map_err(|e| {
            Problem::bad(format!(
                "{} parameter `{}` is not valid JSON: {e}",
                p.loc.as_str(),
                p.name
            ))
        });
    }
    Ok(Some(coerce_text(p, &[raw], ",")))
}

/// Path values in `label` (`.a`) and `matrix` (`;name=a`) style lose their prefix.
fn strip_style(p: &Param, v: &str) -> String {
    match p.style.as_str() {
        "label" => v.strip_prefix('.').unwrap_or(v).to_string(),
        "matrix" => v
            .strip_prefix(';')
            .and_then(|r| r.strip_prefix(p.name.as_str()))
            .and_then(|r| r.strip_prefix('='))
            .unwrap_or(v)
            .to_string(),
        _ => v.to_string(),
    }
}

fn query_value(p: &Param, query: &[(String, String)]) -> Option<Value> {
    if p.style == "deepObject" {
        // `range[at]=1`, nested `f[a][b]=1`, indexed arrays `ids[0]=7`
        // (what the runtime sends), a member repeated `range[at]=1&range[at]=2`.
        let mut tree = Value::Null;
        for (k, v) in query {
            if let Some(path) = super::brackets::segments(k, &p.name) {
                super::brackets::insert(&mut tree, &path, Value::String(v.clone()));
            }
        }
        if tree.is_null() {
            return None;
        }
        return Some(match &p.schema {
            Some(schema) => coerce_tree(schema, &schema.value, tree),
            None => tree,
        });
    }
    let values: Vec<String> = query
        .iter()
        .filter(|(k, _)| *k == p.name)
        .map(|(_, v)| v.clone())
        .collect();
    if values.is_empty() {
        // An exploded object spreads its properties over the query.
        let types = p.schema.as_ref().map(Schema::types).unwrap_or_default();
        if p.explode && types.iter().any(|t| t == "object") {
            let map: Map<String, Value> = query
                .iter()
                .filter(|(k, _)| p.schema.as_ref().is_some_and(|s| s.declares_property(k)))
                .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                .collect();
            return (!map.is_empty()).then(|| coerce_object(p, map));
        }
        return None;
    }
    if p.json_content {
        return Some(
            serde_json::from_str(&values[0]).unwrap_or_else(|_| Value::String(values[0].clone())),
        );
    }
    let sep = match p.style.as_str() {
        "spaceDelimited" => " ",
        "pipeDelimited" => "|",
        _ => ",",
    };
    Some(coerce_text(p, &values, sep))
}

/// Text from the wire to the JSON its schema expects.
fn coerce_text(p: &Param, values: &[String], sep: &str) -> Value {
    let Some(schema) = &p.schema else {
        return Value::String(values.join(","));
    };
    let types = schema.types();
    if let [text] = values
        && let Some(value) = json_text(text, &types)
    {
        return value;
    }
    if types.iter().any(|t| t == "array") {
        let items = schema.item_types();
        let parts: Vec<&str> = if values.len() > 1 || (p.explode && p.loc == Loc::Query) {
            values.iter().map(String::as_str).collect()
        } else if values[0].is_empty() {
            Vec::new()
        } else {
            values[0].split(sep).collect()
        };
        // Objects in an array have no OpenAPI style: the runtime sends each
        // as JSON text, which is read back as such.
        return Value::Array(
            parts
                .into_iter()
                .map(|s| json_text(s, &items).unwrap_or_else(|| scalar(s, &items)))
                .collect(),
        );
    }
    if types.iter().any(|t| t == "object") && !p.explode {
        let parts: Vec<&str> = values[0].split(sep).collect();
        let map = parts
            .chunks(2)
            .filter_map(|kv| match kv {
                [k, v] => Some((k.to_string(), Value::String(v.to_string()))),
                _ => None,
            })
            .collect();
        return coerce_object(p, map);
    }
    scalar(&values[0], &types)
}

/// Object members coerced by their property schemas (found in the
/// schema's composition branches too).
fn coerce_object(p: &Param, map: Map<String, Value>) -> Value {
    Value::Object(
        map.into_iter()
            .map(|(k, v)| {
                let types = p
                    .schema
                    .as_ref()
                    .map(|s| s.property_types(&k))
                    .unwrap_or_default();
                let v = match &v {
                    Value::String(s) => json_text(s, &types).unwrap_or_else(|| scalar(s, &types)),
                    _ => v,
                };
                (k, v)
            })
            .collect(),
    )
}

/// `value` (texts read from a query or form) with each text made what
/// `at`, a subschema of `schema`, says it is: a number, a boolean, JSON
/// text of an object or array, or the one item of an array.
fn coerce_tree(schema: &Schema, at: &Value, value: Value) -> Value {
    match value {
        Value::String(text) => {
            let types = schema.types_at(at);
            if let Some(v) = json_text(&text, &types) {
                return v;
            }
            let array_only =
                types.iter().any(|t| t == "array") && !types.iter().any(|t| t == "string");
            match (array_only, schema.items_of(at)) {
                (true, Some(items)) => {
                    Value::Array(vec![coerce_tree(schema, items, Value::String(text))])
                }
                _ => scalar(&text, &types),
            }
        }
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| {
                    let v = match schema.property_of(at, &k) {
                        Some(prop) => coerce_tree(schema, prop, v),
                        None => v,
                    };
                    (k, v)
                })
                .collect(),
        ),
        Value::Array(items) => match schema.items_of(at) {
            Some(item) => Value::Array(
                items
                    .into_iter()
                    .map(|v| coerce_tree(schema, item, v))
                    .collect(),
            ),
            None => Value::Array(items),
        },
        other => other,
    }
}

/// An object or array sent as JSON text where the schema allows one: what
/// the runtime sends for a value OpenAPI's styles cannot spell (an object
/// within an object or an array, AWS's nested query structures).
fn json_text(text: &str, types: &[String]) -> Option<Value> {
    let allows = |kind: &str| types.iter().any(|t| t == kind);
    if !(allows("object") || allows("array")) {
        return None;
    }
    match serde_json::from_str::<Value>(text).ok()? {
        v @ Value::Object(_) if allows("object") => Some(v),
        v @ Value::Array(_) if allows("array") => Some(v),
        _ => None,
    }
}

/// One piece of text as the first of `types` it parses as (a string when
/// none does, so validation reports the mismatch).
fn scalar(text: &str, types: &[String]) -> Value {
    for t in types {
        match t.as_str() {
            "integer" => {
                if let Ok(i) = text.parse::<i64>() {
                    return Value::from(i);
                }
                if let Ok(u) = text.parse::<u64>() {
                    return Value::from(u);
                }
            }
            "number" => {
                if let Ok(i) = text.parse::<i64>() {
                    return Value::from(i);
                }
                if let Some(n) = text
                    .parse::<f64>()
                    .ok()
                    .filter(|f| f.is_finite())
                    .and_then(serde_json::Number::from_f64)
                {
                    return Value::Number(n);
                }
            }
            "boolean" => match text {
                "true" => return Value::Bool(true),
                "false" => return Value::Bool(false),
                _ => {}
            },
            "null" if text.is_empty() || text == "null" => return Value::Null,
            _ => {}
        }
    }
    Value::String(text.to_string())
}

/// `a=1&b=x+y` → pairs, `+` and percent-escapes decoded.
pub fn parse_query(query: &str) -> Vec<(String, String)> {
    let decode = |s: &str| {
        percent_decode_str(&s.replace('+', " "))
            .decode_utf8_lossy()
            .into_owned()
    };
    query
        .split('&')
        .filter(|kv| !kv.is_empty())
        .map(|kv| match kv.split_once('=') {
            Some((k, v)) => (decode(k), decode(v)),
            None => (decode(kv), String::new()),
        })
        .collect()
}

fn parse_cookies(header: &str) -> Vec<(String, String)> {
    header
        .split(';')
        .filter_map(|c| {
            let (k, v) = c.split_once('=')?;
            Some((
                k.trim().to_string(),
                percent_decode_str(v.trim())
                    .decode_utf8_lossy()
                    .into_owned(),
            ))
        })
        .collect()
}

/// Whether `documented` (possibly a wildcard) covers the request's media type.
fn covers(documented: &str, actual: &str) -> bool {
    let doc = essence(documented);
    if doc == actual || doc == "*/*" {
        return true;
    }
    match doc.strip_suffix("/*") {
        Some(main) => actual.split('/').next() == Some(main),
        None => false,
    }
}

/// No body was sent: fine unless the operation requires one.
fn missing_body(route: &Route, required: bool) -> Result<(), Problem> {
    if required {
        Err(Problem::bad(format!(
            "the request body is required ({})",
            documented(route)
        )))
    } else {
        Ok(())
    }
}

fn body(route: &Route, req: &Incoming<'_>) -> Result<(), Problem> {
    let Some(body) = &route.body else {
        return Ok(());
    };
    let content_type = req.header("content-type").map(essence);
    if req.body.is_empty() && content_type.is_none() {
        return missing_body(route, body.required);
    }
    let actual = match content_type {
        Some(ct) => ct,
        None => body
            .media
            .iter()
            .map(|(mt, _)| essence(mt))
            .find(|mt| is_json(mt))
            .or_else(|| body.media.first().map(|(mt, _)| essence(mt)))
            .unwrap_or_default(),
    };
    let Some((documented_type, schema)) = body
        .media
        .iter()
        .find(|(mt, _)| essence(mt) == actual)
        .or_else(|| body.media.iter().find(|(mt, _)| covers(mt, &actual)))
    else {
        if body.media.is_empty() {
            return Ok(());
        }
        return Err(Problem {
            status: 415,
            detail: format!(
                "Content-Type `{actual}` is not accepted here; {}",
                documented(route)
            ),
        });
    };
    if req.body.is_empty() {
        return missing_body(route, body.required);
    }
    if !is_json(&actual) && !is_json(documented_type) {
        return Ok(());
    }
    let value: Value = serde_json::from_slice(req.body)
        .map_err(|e| Problem::bad(format!("the request body is not valid JSON: {e}")))?;
    match schema {
        Some(schema) => validate(schema, &value, "request body"),
        None => Ok(()),
    }
}

fn documented(route: &Route) -> String {
    let types: Vec<&str> = route
        .body
        .iter()
        .flat_map(|b| b.media.iter().map(|(mt, _)| mt.as_str()))
        .collect();
    format!("documented media types: {}", types.join(", "))
}

#[cfg(test)]
#[path = "validate_tests.rs"]
mod tests;
