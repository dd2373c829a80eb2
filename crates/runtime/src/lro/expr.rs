//! OpenAPI runtime expressions, as a link's `parameters` use them: the
//! value of a link parameter is a constant, an expression
//! (`$response.body#/id`), or a string with expressions inside braces
//! (`exports/{$response.body#/id}`). Resolved against the call that
//! started a long-running operation, to fill in its cancel operation.
//!
//! Supported (OpenAPI 3.1 "Runtime Expressions"): `$url`, `$method`,
//! `$statusCode`, `$request.path.NAME`, `$request.query.NAME`,
//! `$request.header.NAME` (the call's arguments for those parameters; a
//! credential the server added is never one of them),
//! `$request.body` and `$request.body#/pointer`, `$response.header.NAME`,
//! `$response.body` and `$response.body#/pointer` (JSON pointers,
//! percent-decoded as fragments are).

use serde_json::{Map, Value};

use super::super::binding::{HttpBinding, Location};

/// What runtime expressions are resolved against: the call that started
/// the operation, and its initial answer.
#[derive(Debug, Clone, Copy)]
pub struct ExprContext<'a> {
    /// The URL the call went to (before credentials were added).
    pub url: &'a str,
    /// The call's method, upper-case.
    pub method: &'a str,
    /// The called operation's binding (which argument feeds which
    /// parameter).
    pub binding: &'a HttpBinding,
    /// The call's arguments.
    pub args: &'a Map<String, Value>,
    /// The request body as sent, if any.
    pub request_body: Option<&'a [u8]>,
    /// The initial answer's status.
    pub status: u16,
    /// The initial answer's headers.
    pub response_headers: &'a [(String, String)],
    /// The initial answer's body.
    pub response_body: &'a [u8],
}

/// A link parameter's value resolved: a non-string constant as it is, a
/// string that is one expression as the expression's value, a string with
/// `{$...}` inside with each replaced by its value's text, any other string
/// as it is. `Err` names the expression that has no value, and why.
pub fn resolve_value(value: &Value, ctx: &ExprContext<'_>) -> Result<Value, String> {
    let Value::String(text) = value else {
        return Ok(value.clone());
    };
    if text.starts_with('$') {
        return evaluate(text, ctx);
    }
    if !text.contains("{$") {
        return Ok(value.clone());
    }
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(open) = rest.find("{$") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| format!("`{text}` has a `{{$` without a closing `}}`"))?;
        out.push_str(&as_text(&evaluate(&after[..close], ctx)?));
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok(Value::String(out))
}

/// A value as it goes into a string: strings unquoted, the rest as JSON.
fn as_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// One expression's value.
fn evaluate(expr: &str, ctx: &ExprContext<'_>) -> Result<Value, String> {
    let expr = expr.trim();
    let missing = |why: &str| format!("`{expr}` has no value: {why}");
    match expr {
        "$url" => return Ok(Value::String(ctx.url.to_string())),
        "$method" => return Ok(Value::String(ctx.method.to_string())),
        "$statusCode" => return Ok(Value::from(ctx.status)),
        _ => {}
    }
    if let Some(source) = expr.strip_prefix("$request.") {
        if let Some(pointer) = body_pointer(source) {
            let body = ctx
                .request_body
                .and_then(|b| serde_json::from_slice::<Value>(b).ok())
                .ok_or_else(|| missing("the request had no JSON body"))?;
            return at_pointer(&body, pointer).ok_or_else(|| missing("no such member"));
        }
        let (location, name) = match source.split_once('.') {
            Some(("path", name)) => (Location::Path, name),
            Some(("query", name)) => (Location::Query, name),
            Some(("header", name)) => (Location::Header, name),
            _ => {
                return Err(format!(
                    "`{expr}` is not a runtime expression this server reads"
                ));
            }
        };
        let param = ctx.binding.params.iter().find(|p| {
            p.location == location
                && if location == Location::Header {
                    p.name.eq_ignore_ascii_case(name)
                } else {
                    p.name == name
                }
        });
        let param = param.ok_or_else(|| {
            missing(&format!(
                "the operation has no {} parameter `{name}`",
                location.as_str()
            ))
        })?;
        return match ctx.args.get(&param.arg) {
            Some(v) if !v.is_null() => Ok(v.clone()),
            _ => Err(missing(&format!("the call did not give `{}`", param.arg))),
        };
    }
    if let Some(source) = expr.strip_prefix("$response.") {
        if let Some(pointer) = body_pointer(source) {
            let body = serde_json::from_slice::<Value>(ctx.response_body)
                .map_err(|_| missing("the response body is not JSON"))?;
            return at_pointer(&body, pointer).ok_or_else(|| missing("no such member"));
        }
        if let Some(name) = source.strip_prefix("header.") {
            return super::status::header(ctx.response_headers, name)
                .map(|v| Value::String(v.to_string()))
                .ok_or_else(|| missing("the response has no such header"));
        }
    }
    Err(format!(
        "`{expr}` is not a runtime expression this server reads"
    ))
}

/// The JSON pointer of `body` or `body#/pointer` (`""` for the whole body).
fn body_pointer(source: &str) -> Option<&str> {
    match source {
        "body" => Some(""),
        _ => source.strip_prefix("body#"),
    }
}

/// The member of `value` at `pointer`, a JSON pointer as a URI fragment
/// writes it (percent-encoded).
fn at_pointer(value: &Value, pointer: &str) -> Option<Value> {
    let decoded = percent_encoding::percent_decode_str(pointer).decode_utf8_lossy();
    value.pointer(&decoded).cloned()
}
