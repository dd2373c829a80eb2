//! Checking one access token: a JWT signed by one of the issuer's keys,
//! issued by the expected issuer, for this resource (`aud`, RFC 8707), and
//! within its lifetime (`exp`, `nbf`, with a small leeway for clock skew).

use std::collections::BTreeSet;

#[cfg(feature = "authorization")]
use jsonwebtoken::errors::ErrorKind;
#[cfg(feature = "authorization")]
use jsonwebtoken::{Algorithm, Validation};
#[cfg(feature = "authorization")]
use serde::Deserialize;
#[cfg(feature = "authorization")]
use serde_json::Value;

#[cfg(feature = "authorization")]
use super::jwks::KeySet;

/// What the server expects of every token.
#[derive(Debug, Clone)]
pub struct Expectations {
    /// `iss`.
    pub issuer: String,
    /// Accepted `aud` values: the resource's canonical URL.
    pub audiences: Vec<String>,
    /// Seconds of clock skew tolerated on `exp` and `nbf`.
    pub leeway: u64,
}

/// The parts of a valid token the server uses.
#[derive(Debug, Clone, Default)]
pub struct Principal {
    /// `iss` (checked against the expected issuer).
    pub issuer: Option<String>,
    /// `sub`, when present.
    pub subject: Option<String>,
    /// Granted scopes (`scope`, space-separated, and/or `scp`).
    pub scopes: BTreeSet<String>,
    /// `nonce` (an OpenID Connect ID token's tie to the sign-in that asked
    /// for it).
    pub nonce: Option<String>,
}

/// Why a token was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// The token names a key (`kid`) the JWKS does not hold.
    #[error("the token was signed with an unknown key (kid `{0}`)")]
    UnknownKey(String),
    /// Anything else: the reason, fit for `error_description`.
    #[error("{0}")]
    Invalid(String),
}

#[cfg(feature = "authorization")]
#[derive(Deserialize)]
struct Claims {
    #[serde(default)]
    iss: Option<String>,
    #[serde(default)]
    sub: Option<String>,
    #[serde(default)]
    scope: Option<String>,
    #[serde(default)]
    scp: Option<Value>,
    #[serde(default)]
    nonce: Option<String>,
}

/// Algorithms a resource server may accept: asymmetric only (a shared
/// secret would let anyone holding it mint tokens, and `none` is no
/// signature at all).
#[cfg(feature = "authorization")]
const ACCEPTED: &[Algorithm] = &[
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

/// Validates `token` against `keys` and `expect`.
#[cfg(feature = "authorization")]
pub fn validate(
    token: &str,
    keys: &KeySet,
    expect: &Expectations,
) -> Result<Principal, TokenError> {
    let header = jsonwebtoken::decode_header(token)
        .map_err(|e| TokenError::Invalid(format!("the token is not a JWT: {e}")))?;
    if !ACCEPTED.contains(&header.alg) {
        return Err(TokenError::Invalid(format!(
            "tokens signed with {:?} are not accepted",
            header.alg
        )));
    }
    let mut validation = Validation::new(header.alg);
    validation.set_issuer(&[&expect.issuer]);
    validation.set_audience(&expect.audiences);
    validation.set_required_spec_claims(&["exp", "iss", "aud"]);
    validation.leeway = expect.leeway;
    validation.validate_nbf = true;
    let mut last = None;
    let mut tried = 0;
    for key in keys.candidates(header.kid.as_deref()) {
        if key.alg.is_some_and(|a| a != header.alg) {
            continue;
        }
        tried += 1;
        match jsonwebtoken::decode::<Claims>(token, &key.key, &validation) {
            Ok(data) => return Ok(principal(data.claims)),
            Err(e) => last = Some(e),
        }
    }
    match (last, header.kid) {
        (Some(e), _) => Err(TokenError::Invalid(describe(e.kind()))),
        (None, Some(kid)) if tried == 0 => Err(TokenError::UnknownKey(kid)),
        _ => Err(TokenError::Invalid(
            "no key of the authorization server fits the token's algorithm".into(),
        )),
    }
}

#[cfg(feature = "authorization")]
fn principal(claims: Claims) -> Principal {
    let mut scopes: BTreeSet<String> = claims
        .scope
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    match claims.scp {
        Some(Value::String(s)) => scopes.extend(s.split_whitespace().map(str::to_string)),
        Some(Value::Array(list)) => {
            scopes.extend(list.iter().filter_map(Value::as_str).map(str::to_string))
        }
        _ => {}
    }
    Principal {
        issuer: claims.iss,
        subject: claims.sub,
        scopes,
        nonce: claims.nonce,
    }
}

/// A short reason for `error_description` (never the token itself).
#[cfg(feature = "authorization")]
fn describe(kind: &ErrorKind) -> String {
    match kind {
        ErrorKind::InvalidSignature => "the token's signature does not verify".into(),
        ErrorKind::ExpiredSignature => "the token has expired".into(),
        ErrorKind::ImmatureSignature => "the token is not valid yet (nbf)".into(),
        ErrorKind::InvalidIssuer => "the token was issued by another issuer".into(),
        ErrorKind::InvalidAudience => "the token is not meant for this resource (aud)".into(),
        ErrorKind::MissingRequiredClaim(c) => format!("the token lacks the `{c}` claim"),
        ErrorKind::InvalidAlgorithm => "the token's algorithm does not fit the key".into(),
        other => format!("the token is invalid ({other:?})"),
    }
}

#[cfg(all(test, feature = "authorization"))]
#[path = "token_tests.rs"]
mod tests;
