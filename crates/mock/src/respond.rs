//! Choosing and rendering the response: which documented status (the
//! lowest 2xx by default, or what `Prefer: code=…, example=…` asks for),
//! which media type (the one `Accept` names, else JSON, else the first),
//! and the body (a documented example, else the schema's example or a
//! synthesized value; a placeholder for binary media types).

use super::table::{Media, Response, Route};
use super::validate::Problem;
use openapi2mcp_model::wire::media::Sequence;
use openapi2mcp_model::wire::media::{essence, is_json};
use serde_json::Value;

/// What a `Prefer` header asks for.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Prefer {
    /// `code=404`.
    pub code: Option<String>,
    /// `example=cat`.
    pub example: Option<String>,
}

impl Prefer {
    /// Reads every `Prefer` header value (comma-separated preferences).
    pub fn parse<'a>(values: impl IntoIterator<Item = &'a str>) -> Self {
        let mut out = Prefer::default();
        for value in values {
            for pref in value.split([',', ';']) {
                let Some((k, v)) = pref.split_once('=') else {
                    continue;
                };
                let v = v.trim().trim_matches('"').to_string();
                match k.trim().to_ascii_lowercase().as_str() {
                    "code" => out.code = Some(v),
                    "example" => out.example = Some(v),
                    _ => {}
                }
            }
        }
        out
    }
}

/// A rendered response.
pub struct Rendered {
    /// Status code.
    pub status: u16,
    /// Headers, `Content-Type` included when there is a body.
    pub headers: Vec<(String, String)>,
    /// Body bytes.
    pub body: Vec<u8>,
}

/// The status a documented code stands for (`4XX` → 400, `default` → 200).
fn status_of(code: &str) -> u16 {
    if let Ok(n) = code.parse::<u16>() {
        return n;
    }
    match code.as_bytes().first() {
        Some(d @ b'1'..=b'5') if code.len() == 3 => u16::from(d - b'0') * 100,
        _ => 200,
    }
}

/// The default response: the lowest documented 2xx, else `2XX`, else `default`.
fn default_response(route: &Route) -> Option<&Response> {
    route
        .responses
        .iter()
        .filter(|r| r.code.len() == 3 && r.code.starts_with('2') && r.code.parse::<u16>().is_ok())
        .min_by_key(|r| status_of(&r.code))
        .or_else(|| {
            route
                .responses
                .iter()
                .find(|r| r.code.eq_ignore_ascii_case("2XX"))
        })
        .or_else(|| route.responses.iter().find(|r| r.code == "default"))
}

fn documented_codes(route: &Route) -> String {
    let codes: Vec<&str> = route.responses.iter().map(|r| r.code.as_str()).collect();
    if codes.is_empty() {
        "none".into()
    } else {
        codes.join(", ")
    }
}

/// The response for `code`: exact, else its range (`4XX`), else `default`.
fn response_for<'r>(route: &'r Route, code: &str) -> Option<&'r Response> {
    let range = code.get(..1).map(|d| format!("{d}XX"));
    route
        .responses
        .iter()
        .find(|r| r.code == code)
        .or_else(|| {
            route.responses.iter().find(|r| {
                range
                    .as_deref()
                    .is_some_and(|x| r.code.eq_ignore_ascii_case(x))
            })
        })
        .or_else(|| route.responses.iter().find(|r| r.code == "default"))
}

/// Chooses and renders the response to a valid request.
pub fn render(
    route: &Route,
    prefer: &Prefer,
    accept: Option<&str>,
    use_examples: bool,
) -> Result<Rendered, Problem> {
    let (status, response) = match &prefer.code {
        Some(code) => {
            let status = code
                .parse::<u16>()
                .ok()
                .filter(|s| (100..=599).contains(s))
                .ok_or_else(|| Problem::bad(format!("Prefer: code={code} is not a status code")))?;
            let response = response_for(route, code).ok_or_else(|| {
                Problem::bad(format!(
                    "Prefer: code={code}: no such response is documented for {} {} (documented: {})",
                    route.method,
                    route.path,
                    documented_codes(route)
                ))
            })?;
            (status, Some(response))
        }
        None => match &prefer.example {
            // An example asked for by name alone: the response that has it.
            Some(name) => {
                let mut ordered: Vec<&Response> = route.responses.iter().collect();
                ordered.sort_by_key(|r| (r.code == "default", status_of(&r.code)));
                match ordered
                    .into_iter()
                    .find(|r| r.media.iter().any(|m| has_example(m, name)))
                {
                    Some(r) => (status_of(&r.code), Some(r)),
                    None => return Err(no_example(route, name)),
                }
            }
            None => match default_response(route) {
                Some(r) => (status_of(&r.code), Some(r)),
                None => (200, None),
            },
        },
    };
    let mut headers = Vec::new();
    let Some(response) = response else {
        return Ok(Rendered {
            status,
            headers,
            body: Vec::new(),
        });
    };
    headers.extend(response.headers.iter().cloned());
    let media = match &prefer.example {
        Some(name) => Some(
            response
                .media
                .iter()
                .find(|m| has_example(m, name))
                .ok_or_else(|| no_example(route, name))?,
        ),
        None => pick_media(&response.media, accept),
    };
    let Some(media) = media else {
        return Ok(Rendered {
            status,
            headers,
            body: Vec::new(),
        });
    };
    if matches!(status, 204 | 205 | 304) {
        return Ok(Rendered {
            status,
            headers,
            body: Vec::new(),
        });
    }
    let documented = match &prefer.example {
        Some(name) => media
            .examples
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v),
        None if use_examples => media.examples.first().map(|(_, v)| v),
        None => None,
    };
    let content_type = concrete(&media.media_type);
    let stream = Sequence::of(&content_type).and_then(|sequence| {
        // A documented stream as text is sent as written; else the items.
        let items = match documented {
            Some(Value::String(_)) => return None,
            Some(Value::Array(items)) => items.clone(),
            Some(other) => vec![other.clone()],
            None => match (&media.synthesized, &media.item) {
                (Some(Value::Array(items)), _) => items.clone(),
                (_, Some(item)) => vec![item.clone()],
                _ => return None,
            },
        };
        Some(sequence_body(sequence, &items))
    });
    if let Some(body) = stream {
        headers.push(("content-type".into(), content_type));
        return Ok(Rendered {
            status,
            headers,
            body,
        });
    }
    let body = match kind(&content_type) {
        Kind::Json => match documented.or(media.synthesized.as_ref()) {
            Some(v) => serde_json::to_vec(v).unwrap_or_default(),
            None => {
                return Ok(Rendered {
                    status,
                    headers,
                    body: Vec::new(),
                });
            }
        },
        Kind::Text => match documented.or(media.synthesized.as_ref()) {
            Some(serde_json::Value::String(s)) => s.clone().into_bytes(),
            Some(v) => v.to_string().into_bytes(),
            None => b"string".to_vec(),
        },
        Kind::Binary => match documented {
            Some(serde_json::Value::String(s)) => s.clone().into_bytes(),
            _ => placeholder(&content_type),
        },
    };
    headers.push(("content-type".into(), content_type));
    Ok(Rendered {
        status,
        headers,
        body,
    })
}

/// Items written as `sequence` says: one JSON text per line (JSON Lines),
/// each after a record separator (JSON text sequences), or one event per
/// item (an object with a string `data` is the event's fields, anything
/// else its JSON as `data`).
fn sequence_body(sequence: Sequence, items: &[Value]) -> Vec<u8> {
    let mut out = String::new();
    for item in items {
        match sequence {
            Sequence::JsonLines => out.push_str(&format!("{item}\n")),
            Sequence::JsonSeq => out.push_str(&format!("\u{1e}{item}\n")),
            Sequence::EventStream => {
                let data = match item.get("data") {
                    Some(Value::String(data)) => {
                        for field in ["event", "id"] {
                            if let Some(Value::String(v)) = item.get(field) {
                                out.push_str(&format!(
                                    "{field}: {}\n",
                                    v.replace(['\r', '\n'], " ")
                                ));
                            }
                        }
                        if let Some(retry) = item.get("retry").and_then(Value::as_u64) {
                            out.push_str(&format!("retry: {retry}\n"));
                        }
                        data.clone()
                    }
                    _ => item.to_string(),
                };
                for line in data.split('\n') {
                    out.push_str(&format!("data: {line}\n"));
                }
                out.push('\n');
            }
        }
    }
    out.into_bytes()
}

fn has_example(media: &Media, name: &str) -> bool {
    media.examples.iter().any(|(n, _)| n == name)
}

fn no_example(route: &Route, name: &str) -> Problem {
    let mut names: Vec<String> = Vec::new();
    for r in &route.responses {
        for m in &r.media {
            for (n, _) in &m.examples {
                names.push(format!("{n} ({})", r.code));
            }
        }
    }
    Problem::bad(format!(
        "Prefer: example={name}: no such example is documented for {} {} (documented: {})",
        route.method,
        route.path,
        if names.is_empty() {
            "none".into()
        } else {
            names.join(", ")
        }
    ))
}

/// The media type `Accept` names exactly, else JSON, else the first.
fn pick_media<'m>(media: &'m [Media], accept: Option<&str>) -> Option<&'m Media> {
    if let Some(accept) = accept {
        for wanted in accept.split(',').map(essence) {
            if let Some(m) = media.iter().find(|m| essence(&m.media_type) == wanted) {
                return Some(m);
            }
        }
    }
    media
        .iter()
        .find(|m| is_json(&m.media_type))
        .or_else(|| media.first())
}

/// A media type to send: wildcards made concrete.
pub(crate) fn concrete(media_type: &str) -> String {
    let e = essence(media_type);
    match e.as_str() {
        "*/*" | "application/*" => "application/json".into(),
        "text/*" => "text/plain".into(),
        "image/*" => "image/png".into(),
        _ if e.ends_with("/*") => "application/octet-stream".into(),
        _ => media_type.trim().to_string(),
    }
}

enum Kind {
    Json,
    Text,
    Binary,
}

fn kind(media_type: &str) -> Kind {
    let e = essence(media_type);
    if is_json(&e) {
        Kind::Json
    } else if e.starts_with("text/")
        || e.ends_with("xml")
        || e.ends_with("yaml")
        || e.ends_with("javascript")
        || e == "application/x-www-form-urlencoded"
    {
        Kind::Text
    } else {
        Kind::Binary
    }
}

/// A 1×1 transparent PNG.
const PNG: &[u8] = &[
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 4, 0,
    0, 0, 181, 28, 12, 2, 0, 0, 0, 11, 73, 68, 65, 84, 120, 218, 99, 100, 96, 0, 0, 0, 6, 0, 2, 48,
    129, 208, 47, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];
/// A 1×1 GIF.
const GIF: &[u8] = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x01D\x00;";

/// A small valid body for a binary media type.
fn placeholder(media_type: &str) -> Vec<u8> {
    match essence(media_type).as_str() {
        "image/png" => PNG.to_vec(),
        "image/gif" => GIF.to_vec(),
        "application/pdf" => b"%PDF-1.0\n%%EOF\n".to_vec(),
        _ => b"openapi2mcp mock data\n".to_vec(),
    }
}

#[cfg(test)]
#[path = "respond_tests.rs"]
mod tests;
