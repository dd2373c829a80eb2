//! Putting a credential on a request: the `Authorization` header, an API
//! key's header, query parameter or cookie, and the record of what was
//! placed so a redirect elsewhere can be refused.

use reqwest::header::HeaderName;

use super::super::binding::Location;
use super::super::request::RequestDraft;
use super::super::wire::header::{is_cookie_octet, is_header_value, is_token};
use super::AuthError;
use super::credentials::Secret;

/// Sets the `Authorization` header of `request` to the MCP client's own
/// `authorization` value (replacing any existing one), for operators who
/// forward the client's credentials to the backend. CR, LF and other
/// control characters are refused.
pub fn apply_passthrough(authorization: &str, request: &mut RequestDraft) -> Result<(), AuthError> {
    set_authorization(authorization, request)
        .map_err(|reason| AuthError::InvalidPassthrough { reason })?;
    record_credential(request, authorization);
    Ok(())
}

/// Sets the MCP client's header `name` to `value` on `request` (replacing
/// any of that name), as a credential (`--forward-header`). CR, LF and
/// other control characters are refused.
pub fn apply_forwarded_header(
    name: &str,
    value: &str,
    request: &mut RequestDraft,
) -> Result<(), AuthError> {
    check_header_value(value).map_err(|reason| AuthError::InvalidForwardedHeader {
        name: name.to_string(),
        reason,
    })?;
    set_header(request, name, value);
    record_credential(request, value);
    Ok(())
}

/// Notes a credential placed on `request` (and its parts: the token after
/// `Bearer `/`Basic `, the form-encoded spelling a query carries), so the
/// HTTP client can refuse a redirect that would carry one elsewhere.
pub(super) fn record_credential(request: &mut RequestDraft, value: &str) {
    let mut forms = vec![value.to_string()];
    if let Some((_, token)) = value.split_once(' ') {
        forms.push(token.trim().to_string());
    }
    let encoded: String = url::form_urlencoded::byte_serialize(value.as_bytes()).collect();
    forms.push(encoded);
    for form in forms {
        if !form.is_empty() && !request.credentials.contains(&form) {
            request.credentials.push(form);
        }
    }
}

/// Replaces the `Authorization` header; `Err` says why the value is unfit.
pub(super) fn set_authorization(value: &str, request: &mut RequestDraft) -> Result<(), String> {
    check_header_value(value)?;
    set_header(request, "Authorization", value);
    Ok(())
}

fn check_header_value(value: &str) -> Result<(), String> {
    match is_header_value(value) {
        true => Ok(()),
        false => Err("contains CR, LF or another character not allowed in a header".into()),
    }
}

/// Removes every header named `name` (case-insensitively), then adds it.
fn set_header(request: &mut RequestDraft, name: &str, value: &str) {
    request
        .headers
        .retain(|(existing, _)| !existing.eq_ignore_ascii_case(name));
    request.headers.push((name.to_string(), value.to_string()));
}

pub(super) fn apply_api_key(
    scheme: &str,
    name: &str,
    location: Location,
    key: &Secret,
    variable: &str,
    request: &mut RequestDraft,
) -> Result<(), AuthError> {
    let bad_scheme = |reason: &str| AuthError::InvalidScheme {
        scheme: scheme.to_string(),
        reason: reason.to_string(),
    };
    let bad_key = |reason: String| AuthError::InvalidCredential {
        variable: variable.to_string(),
        reason,
    };
    match location {
        Location::Header => {
            HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| bad_scheme("its header name is not a valid HTTP header name"))?;
            check_header_value(key.expose()).map_err(bad_key)?;
            set_header(request, name, key.expose());
        }
        Location::Query => request.push_query_pair(name, key.expose()),
        Location::Cookie => {
            if !is_token(name) {
                return Err(bad_scheme("its cookie name is not a valid cookie name"));
            }
            if !key.expose().bytes().all(is_cookie_octet) {
                return Err(bad_key(
                    "a cookie value cannot contain spaces, `\"`, `,`, `;`, `\\` or control characters"
                        .into(),
                ));
            }
            append_cookie(request, &format!("{name}={}", key.expose()));
        }
        Location::Path => return Err(bad_scheme("an apiKey cannot be sent in the path")),
        Location::Querystring => {
            return Err(bad_scheme(
                "an apiKey cannot be the whole query string; use `in: query`",
            ));
        }
    }
    Ok(())
}

/// Appends `; piece` to the `Cookie` header, or adds the header.
fn append_cookie(request: &mut RequestDraft, piece: &str) {
    let existing = request
        .headers
        .iter_mut()
        .find(|(name, _)| name.eq_ignore_ascii_case("cookie"));
    match existing {
        Some((_, value)) if !value.trim().is_empty() => {
            value.push_str("; ");
            value.push_str(piece);
        }
        Some((_, value)) => *value = piece.to_string(),
        None => request.headers.push(("Cookie".into(), piece.to_string())),
    }
}
