//! The base URL: an explicit one, or the first server's URL with its
//! variables substituted, checked to be absolute `http(s)`.

use std::collections::BTreeMap;

use super::super::binding::Server;
use super::RequestError;

/// Chooses the base URL: `explicit` (e.g. a `--base-url` flag) wins; else the
/// first server of `servers`, with `{variables}` substituted from
/// `variables` overrides or their defaults (an override not in the
/// variable's `enum` is an error). A relative server URL (e.g. `/v1`)
/// without an explicit base is an error that says to pass a base URL. The
/// result is an absolute `http`/`https` URL without query or fragment, and
/// its trailing slashes are trimmed.
pub fn base_url(
    servers: &[Server],
    variables: &BTreeMap<String, String>,
    explicit: Option<&str>,
) -> Result<String, RequestError> {
    let (mut candidate, _) = choose_base(servers, variables, explicit)?;
    candidate.truncate(candidate.trim_end_matches('/').len());
    Ok(candidate)
}

/// The base URL [`base_url`] chooses, as written (not yet trimmed) and
/// parsed.
pub(super) fn choose_base(
    servers: &[Server],
    variables: &BTreeMap<String, String>,
    explicit: Option<&str>,
) -> Result<(String, url::Url), RequestError> {
    let candidate = match explicit {
        Some(url) => url.trim().to_string(),
        None => server_url(servers, variables)?,
    };
    let parsed = LAST_BASE.with_borrow_mut(|last| match last {
        Some((text, parsed)) if *text == candidate => Ok(parsed.clone()),
        _ => {
            let parsed = parse_base(&candidate, explicit.is_some())?;
            *last = Some((candidate.clone(), parsed.clone()));
            Ok(parsed)
        }
    })?;
    Ok((candidate, parsed))
}

thread_local! {
    /// The last base URL this thread accepted, as written and parsed. The
    /// calls of one server nearly always share a base URL, and parsing it
    /// (host name processing included) again for every call cost about a
    /// twentieth of a call's instructions. Only accepted URLs are kept, and
    /// only the exact same text hits, so the result is what parsing gives.
    static LAST_BASE: std::cell::RefCell<Option<(String, url::Url)>> =
        const { std::cell::RefCell::new(None) };
}

/// The first server's URL with its variables substituted.
fn server_url(
    servers: &[Server],
    overrides: &BTreeMap<String, String>,
) -> Result<String, RequestError> {
    let server = servers.first().ok_or_else(|| {
        RequestError::BaseUrl(
            "the API description declares no server; pass a base URL (for example \
             --base-url https://api.example.com)"
                .into(),
        )
    })?;
    substitute_variables(server, overrides)
}

/// Replaces every `{name}` of a server URL.
fn substitute_variables(
    server: &Server,
    overrides: &BTreeMap<String, String>,
) -> Result<String, RequestError> {
    let mut out = String::new();
    let mut rest = server.url.as_str();
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after.find('}').ok_or_else(|| {
            RequestError::BaseUrl(format!(
                "the server URL `{}` has a `{{` without a matching `}}`; pass a base URL",
                server.url
            ))
        })?;
        out.push_str(&variable_value(server, &after[..close], overrides)?);
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// One server variable's value: the override (checked against `enum`), else
/// the declared default.
fn variable_value(
    server: &Server,
    name: &str,
    overrides: &BTreeMap<String, String>,
) -> Result<String, RequestError> {
    let declared = server.variables.iter().find(|v| v.name == name);
    match (overrides.get(name), declared) {
        (Some(value), Some(var)) if !var.allowed.is_empty() && !var.allowed.contains(value) => {
            Err(RequestError::BaseUrl(format!(
                "server variable `{name}` is set to `{value}`, which is not one of its allowed \
                 values: {}",
                var.allowed.join(", ")
            )))
        }
        (Some(value), _) => Ok(value.clone()),
        (None, Some(var)) => Ok(var.default.clone()),
        (None, None) => Err(RequestError::BaseUrl(format!(
            "the server URL `{}` uses `{{{name}}}` but declares no such variable; set the \
             variable or pass a base URL",
            server.url
        ))),
    }
}

/// Parses a base URL and checks it is absolute `http(s)` with a host and no
/// query or fragment.
pub(super) fn parse_base(candidate: &str, explicit: bool) -> Result<url::Url, RequestError> {
    let what = if explicit { "base URL" } else { "server URL" };
    let parsed = url::Url::parse(candidate).map_err(|e| match e {
        url::ParseError::RelativeUrlWithoutBase if !explicit => RequestError::BaseUrl(format!(
            "the server URL `{candidate}` is relative; pass an absolute base URL (for example \
             --base-url https://api.example.com{}) to say which host serves the API",
            candidate.trim_end_matches('/')
        )),
        other => RequestError::BaseUrl(format!(
            "the {what} `{candidate}` is not an absolute URL ({other})"
        )),
    })?;
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
        return Err(RequestError::BaseUrl(format!(
            "the {what} `{candidate}` must be an http:// or https:// URL with a host"
        )));
    }
    if parsed.query().is_some() || parsed.fragment().is_some() {
        return Err(RequestError::BaseUrl(format!(
            "the {what} `{candidate}` must not contain a query string or fragment"
        )));
    }
    Ok(parsed)
}
