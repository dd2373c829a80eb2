//! The next page of a list, read from the response's headers and given
//! back as the arguments of the same tool, so a model pages on without
//! reading URLs: a `Link` header's `rel="next"` target (RFC 8288:
//! GitHub, GitLab, Ory), a next-page header holding a URL (Kinto's
//! `Next-Page`), or one holding a token for the query argument its name
//! ends with (`X-Next-Cursor` → `cursor`, `X-Next-Page` → `page`).
//!
//! A URL's query becomes the query arguments of the call (the other
//! arguments are kept): each pair goes to the query parameter of that
//! name, typed by the input schema (`page=2` is the integer 2 where the
//! schema says integer). A pair no parameter takes (a token the document
//! does not declare) makes the next page unreachable through this tool,
//! and the model is told so with the URL; a value equal to a credential
//! this call sent (an API key in the query) is left to the credentials.

use serde_json::{Map, Value};
use url::Url;

use super::binding::{HttpBinding, Location, ParamBinding};
use super::response::headers::names_next;

/// What the response says about the next page.
#[derive(Debug, Clone, PartialEq)]
pub enum NextPage {
    /// Call the same tool with these arguments.
    Arguments(Map<String, Value>),
    /// The API names a next page the tool's arguments cannot ask for.
    Unreachable {
        /// The next page's URL as the API gave it.
        url: String,
        /// Why the arguments cannot ask for it.
        why: String,
    },
}

impl NextPage {
    /// The line that tells the model how to get the next page of `tool`.
    pub fn render(&self, tool: &str) -> String {
        match self {
            NextPage::Arguments(args) => format!(
                "Next page: call `{tool}` again with these arguments: {}",
                Value::Object(args.clone())
            ),
            NextPage::Unreachable { url, why } => format!(
                "Next page: the API names {}, but {why}.",
                crate::wire::redact_url(url)
            ),
        }
    }
}

/// The next page of a response to `http` (a read: GET, HEAD or QUERY)
/// called with `args` at `request_url`, if its headers name one that
/// differs from this page.
/// `input` is the tool's input schema (for the arguments' types);
/// `sent_secrets` the credential values this call sent.
pub fn next_page(
    http: &HttpBinding,
    input: &Map<String, Value>,
    args: &Map<String, Value>,
    headers: &[(String, String)],
    request_url: &Url,
    sent_secrets: &[String],
) -> Option<NextPage> {
    // Pages are read: an API's header never proposes calling a tool that
    // writes again (a hostile one could otherwise steer a model into
    // repeating a delete with arguments of its choosing).
    if !matches!(
        http.method.to_ascii_uppercase().as_str(),
        "GET" | "HEAD" | "QUERY"
    ) {
        return None;
    }
    let next = if let Some(target) = link_next(headers) {
        Target::Url(target)
    } else {
        next_header(headers)?
    };
    let page = match next {
        Target::Url(raw) => {
            let url = request_url.join(&raw).ok()?;
            match arguments_for(http, input, args, &url, sent_secrets) {
                Ok(next) => NextPage::Arguments(next),
                Err(why) => NextPage::Unreachable { url: raw, why },
            }
        }
        Target::Token { words, value } => {
            let param = http
                .params
                .iter()
                .find(|p| p.location == Location::Query && normalized(&p.name) == words)?;
            let mut next = args.clone();
            next.insert(
                param.arg.clone(),
                typed_one(&value, property(input, &param.arg)),
            );
            NextPage::Arguments(next)
        }
    };
    match &page {
        NextPage::Arguments(next) if next == args => None,
        _ => Some(page),
    }
}

/// Where the next page is.
enum Target {
    /// A URL (absolute, or relative to the request's).
    Url(String),
    /// A token for the query parameter whose normalized name is `words`.
    Token { words: String, value: String },
}

/// The target of the first `rel="next"` link of the `Link` headers.
fn link_next(headers: &[(String, String)]) -> Option<String> {
    headers
        .iter()
        .filter(|(name, _)| name.trim().eq_ignore_ascii_case("link"))
        .flat_map(|(_, value)| links(value))
        .find(|(_, rels)| rels.iter().any(|r| r.eq_ignore_ascii_case("next")))
        .map(|(target, _)| target)
}

/// The links of one `Link` header value: each `<target>` with the
/// relation types of its `rel` parameter (RFC 8288, section 3; a comma
/// inside `<…>` or a quoted string does not end a link).
fn links(value: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut rest = value.trim();
    while let Some(open) = rest.find('<') {
        let Some(close) = rest[open..].find('>') else {
            break;
        };
        let target = rest[open + 1..open + close].trim().to_string();
        rest = &rest[open + close + 1..];
        // The parameters run to the next comma outside quotes.
        let mut end = rest.len();
        let mut quoted = false;
        for (i, c) in rest.char_indices() {
            match c {
                '"' => quoted = !quoted,
                ',' if !quoted => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        let params = &rest[..end];
        rest = &rest[end..];
        let mut rels = Vec::new();
        for param in params.split(';') {
            let Some((key, val)) = param.split_once('=') else {
                continue;
            };
            if key.trim().eq_ignore_ascii_case("rel") {
                rels.extend(
                    val.trim()
                        .trim_matches('"')
                        .split_ascii_whitespace()
                        .map(str::to_string),
                );
            }
        }
        out.push((target, rels));
    }
    out
}

/// A next-page header's target: a URL when the value reads as one, else a
/// token for the parameter named by the words after `next` in the
/// header's name.
fn next_header(headers: &[(String, String)]) -> Option<Target> {
    headers.iter().find_map(|(name, value)| {
        let lower = name.trim().to_ascii_lowercase();
        let value = value.trim();
        if !names_next(&lower) || value.is_empty() {
            return None;
        }
        if value.starts_with("http://")
            || value.starts_with("https://")
            || value.starts_with('/')
            || value.starts_with('?')
        {
            return Some(Target::Url(value.to_string()));
        }
        let words: String = lower
            .split(['-', '_'])
            .skip_while(|w| *w != "next")
            .skip(1)
            .collect();
        (!words.is_empty()).then(|| Target::Token {
            words,
            value: value.to_string(),
        })
    })
}

/// A parameter name compared with a header's words: lower case, without
/// `-`, `_`, `.` and `$`.
fn normalized(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '-' | '_' | '.' | '$'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// `args` with their query arguments replaced by what `url`'s query says.
fn arguments_for(
    http: &HttpBinding,
    input: &Map<String, Value>,
    args: &Map<String, Value>,
    url: &Url,
    sent_secrets: &[String],
) -> Result<Map<String, Value>, String> {
    let query: Vec<&ParamBinding> = http
        .params
        .iter()
        .filter(|p| p.location == Location::Query)
        .collect();
    let mut next = args.clone();
    for p in &query {
        next.remove(&p.arg);
    }
    let mut grouped: Vec<(String, Vec<String>)> = Vec::new();
    for (name, value) in url.query_pairs() {
        match grouped.iter_mut().find(|(n, _)| *n == name) {
            Some((_, values)) => values.push(value.into_owned()),
            None => grouped.push((name.into_owned(), vec![value.into_owned()])),
        }
    }
    for (name, mut values) in grouped {
        // A credential this call sent (an API key in the query) is the
        // credentials' to add again, never an argument.
        values.retain(|v| !sent_secrets.iter().any(|s| s == v));
        if values.is_empty() {
            continue;
        }
        let param = query
            .iter()
            .find(|p| p.name == name)
            .or_else(|| query.iter().find(|p| p.name.eq_ignore_ascii_case(&name)));
        let Some(param) = param else {
            return Err(format!(
                "this tool has no argument for its query parameter `{name}`"
            ));
        };
        next.insert(
            param.arg.clone(),
            typed(param, property(input, &param.arg), &values),
        );
    }
    Ok(next)
}

/// The input schema's property `arg`.
fn property<'a>(input: &'a Map<String, Value>, arg: &str) -> Option<&'a Value> {
    input.get("properties")?.get(arg)
}

/// The first type a schema names other than `null`.
fn type_of(schema: Option<&Value>) -> Option<&str> {
    match schema?.get("type")? {
        Value::String(t) => Some(t.as_str()),
        Value::Array(types) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null"),
        _ => None,
    }
}

/// The argument `values` of a query parameter make, by its schema: JSON
/// for a parameter sent as JSON, an array (repeated pairs, or one
/// comma-separated value) where the schema says array, else one scalar.
fn typed(param: &ParamBinding, schema: Option<&Value>, values: &[String]) -> Value {
    if param.content_type.is_some()
        && let Some(parsed) = values.first().and_then(|v| serde_json::from_str(v).ok())
    {
        return parsed;
    }
    if type_of(schema) == Some("array") {
        let items = schema.and_then(|s| s.get("items"));
        let raw: Vec<&str> = if values.len() == 1 && !param.explode {
            values[0].split(',').collect()
        } else {
            values.iter().map(String::as_str).collect()
        };
        return Value::Array(raw.into_iter().map(|v| typed_one(v, items)).collect());
    }
    typed_one(values.last().map(String::as_str).unwrap_or(""), schema)
}

/// One value as the schema's scalar type says; a value that does not
/// parse stays a string (the arguments' check then names it).
fn typed_one(raw: &str, schema: Option<&Value>) -> Value {
    let text = || Value::String(raw.to_string());
    match type_of(schema) {
        Some("integer") => raw
            .parse::<i64>()
            .map(Value::from)
            .unwrap_or_else(|_| text()),
        Some("number") => raw
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number)
            .unwrap_or_else(text),
        Some("boolean") => match raw {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => text(),
        },
        _ => text(),
    }
}

#[cfg(test)]
#[path = "next_page_tests.rs"]
mod tests;
