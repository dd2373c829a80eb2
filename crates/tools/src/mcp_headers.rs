//! Which arguments an MCP client mirrors into HTTP headers: the
//! `x-mcp-header` annotation of MCP 2026-07-28 (SEP-2243). A property of a
//! tool's `inputSchema` annotated `"x-mcp-header": "Region"` is sent by
//! clients as an `Mcp-Param-Region` header beside the JSON body, so a load
//! balancer can route on it without parsing the body; the server rejects a
//! request whose header disagrees with the body (rmcp does, for the tools
//! the server crate hands it).
//!
//! An OpenAPI header parameter is what an API routes on (a region, a
//! tenant, a consistency level), so with `--mcp-headers auto` (the default)
//! a header parameter is annotated when all of these hold:
//!
//! - its schema is one scalar type, `string`, `integer` or `boolean`
//!   (never `number`, arrays, objects, nullable or composed schemas, nor a
//!   parameter described by `content`): the only values SEP-2243 mirrors;
//! - it carries no credential: it is not the header of an `apiKey`
//!   security scheme of the document, not `Authorization`,
//!   `Proxy-Authorization` or `Cookie`, its schema's format is not
//!   `password`, and its name does not carry a secret by convention
//!   (see [`secret_by_name`]): header values end up in proxy and load
//!   balancer logs;
//! - it is not a per-request HTTP header no router keys on
//!   ([`per_request`]: conditional requests, `Range`, `Idempotency-Key`,
//!   request, correlation and trace ids), which would only add a header to
//!   every call (SEP-2243: "limit `x-mcp-header` annotations to
//!   parameters that provide clear infrastructure benefits").
//!
//! The annotation's value is the header's name made an RFC 9110 token
//! ([`to_token`]); two parameters whose names meet case-insensitively
//! cannot both be mirrored, so the later one is left unannotated (with a
//! warning).
//!
//! The document can decide for itself with the parameter extension
//! `x-mcp-header` (an overlay can add it): a header name (validated: an
//! RFC 9110 token, unique within the tool), `true` (the derived name), or
//! `false` (never). The document's names are claimed first, and are
//! honoured on any parameter (path, query and cookie ones too) whatever
//! its name says; the type rule and the definite credentials (security
//! scheme headers, `Authorization`, `Proxy-Authorization`, `Cookie`,
//! `format: password`) still hold, with a warning. `--mcp-headers explicit`
//! applies only the document's names; `none` annotates nothing.

use std::collections::BTreeMap;

use serde::Serialize;

use openapi2mcp_model::binding::{Location, SecurityScheme};

/// The schema keyword SEP-2243 defines.
pub const KEYWORD: &str = "x-mcp-header";

/// Which arguments are annotated (`--mcp-headers`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum McpHeaderMode {
    /// The document's `x-mcp-header` extensions, and the rule (see the
    /// module docs) for header parameters without one.
    #[default]
    Auto,
    /// Only the document's `x-mcp-header` extensions.
    Explicit,
    /// No annotation at all.
    None,
}

/// Headers that never route: they carry per-request HTTP semantics
/// (conditional requests, ranges, idempotency, trace context) whose
/// values are unique to one call or one resource version.
pub const PER_REQUEST: &[&str] = &[
    "if-match",
    "if-none-match",
    "if-modified-since",
    "if-unmodified-since",
    "if-range",
    "range",
    "idempotency-key",
    "traceparent",
    "tracestate",
];

/// Identifier headers no router keys on, by their last words
/// (`X-Request-ID`, `X-Correlation-Id`, `X-Trace-Id`, `X-B3-SpanId`).
const PER_REQUEST_IDS: &[&str] = &["request", "correlation", "trace", "span"];

/// Whether header `name` carries per-request HTTP semantics rather than
/// anything a router keys on: one of [`PER_REQUEST`], or an identifier of
/// the request, its correlation, trace or span (a name ending in the
/// words `request id`, `correlation id`, `trace id` or `span id`, also
/// glued: `X-RequestId`, `traceid`).
pub fn per_request(name: &str) -> bool {
    if PER_REQUEST.contains(&name.to_ascii_lowercase().as_str()) {
        return true;
    }
    let words = words(name);
    let last = words.last().map(String::as_str).unwrap_or_default();
    let before = words.len().checked_sub(2).map(|i| words[i].as_str());
    PER_REQUEST_IDS
        .iter()
        .any(|w| last.strip_suffix("id") == Some(w) || (last == "id" && before == Some(w)))
}

/// Headers that carry credentials by their HTTP meaning.
const CREDENTIAL_HEADERS: &[&str] = &["authorization", "proxy-authorization", "cookie"];

/// Words that carry a secret wherever they touch a word boundary: the word
/// itself, or a word starting or ending with it (`authtoken`,
/// `sessionid`, `tokens`).
const SECRET_STEMS: &[&str] = &[
    "token",
    "secret",
    "password",
    "passwd",
    "passphrase",
    "apikey",
    "signature",
    "session",
    "credential",
    "authorization",
    "authentication",
    "csrf",
    "xsrf",
    "jwt",
];

/// Words that carry a secret only as whole words (as parts of longer
/// words they mean something else: `author`, `pwdless`).
const SECRET_WORDS: &[&str] = &["auth", "authn", "authz", "pwd", "cookie", "sig"];

/// Words that make a following `key` a secret (`X-API-Key`,
/// `Ocp-Apim-Subscription-Key`, `x-functions-key`), also glued to it
/// (`accesskey`); a bare `Idempotency-Key` is no credential.
const KEY_QUALIFIERS: &[&str] = &[
    "api",
    "access",
    "auth",
    "subscription",
    "private",
    "secret",
    "function",
    "functions",
    "master",
    "account",
    "app",
    "client",
    "license",
    "signing",
    "encryption",
    "shared",
    "admin",
];

/// Whether a header or parameter name carries a secret by convention:
/// `Authorization`, `Proxy-Authorization` or `Cookie`, or a name with a
/// secret-bearing word. The name is split into words at every character
/// other than a letter or digit and at camelCase humps (`XApiKey` is `x`,
/// `api`, `key`); a word is secret-bearing when it starts or ends with one
/// of [`SECRET_STEMS`] (`X-Auth-Token`, `x-authtoken`, `X-Session-Id`,
/// `X-Hub-Signature-256`), is one of [`SECRET_WORDS`] (`X-Auth-Email`),
/// or is `key` after (or glued to) one of [`KEY_QUALIFIERS`] (`X-API-Key`,
/// `apikey`, `Ocp-Apim-Subscription-Key`). A stem inside a longer word
/// (`X-Possession` ends with `session`) errs on the side of a secret; an
/// overlay's `x-mcp-header` says otherwise when it is not one.
pub fn secret_by_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    if CREDENTIAL_HEADERS.contains(&lower.as_str()) {
        return true;
    }
    let words = words(name);
    let mut previous: Option<&str> = None;
    for word in &words {
        let w = word.as_str();
        if SECRET_WORDS.contains(&w)
            || SECRET_STEMS
                .iter()
                .any(|s| w.starts_with(s) || w.ends_with(s))
        {
            return true;
        }
        if let Some(stem) = w.strip_suffix("key") {
            let qualified_before =
                stem.is_empty() && previous.is_some_and(|p| KEY_QUALIFIERS.contains(&p));
            let glued = !stem.is_empty() && KEY_QUALIFIERS.iter().any(|q| stem.ends_with(q));
            if qualified_before || glued {
                return true;
            }
        }
        previous = Some(w);
    }
    false
}

/// `name` in lower-case words: split at every character that is not an
/// ASCII letter or digit, and before an upper-case letter that follows a
/// lower-case one or starts a capitalized word after capitals (`APIKey`
/// is `api`, `key`).
fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            continue;
        }
        if c.is_ascii_uppercase() && !current.is_empty() {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_lower)
            {
                out.push(std::mem::take(&mut current));
            }
        }
        current.push(c.to_ascii_lowercase());
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// RFC 9110 §5.6.2 `tchar`.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(
            c,
            '!' | '#'
                | '$'
                | '%'
                | '&'
                | '\''
                | '*'
                | '+'
                | '-'
                | '.'
                | '^'
                | '_'
                | '`'
                | '|'
                | '~'
        )
}

/// Whether `s` is an RFC 9110 token (`1*tchar`): what SEP-2243 requires
/// of an `x-mcp-header` value.
pub fn is_token(s: &str) -> bool {
    !s.is_empty() && s.chars().all(is_tchar)
}

/// `name` made an RFC 9110 token: every other character becomes `-`,
/// leading and trailing ones are dropped; `None` when nothing is left.
pub fn to_token(name: &str) -> Option<String> {
    let mapped: String = name
        .chars()
        .map(|c| if is_tchar(c) { c } else { '-' })
        .collect();
    let trimmed = mapped.trim_matches('-');
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}

/// The credential-carrying names of a document's security schemes: the
/// `apiKey` schemes' header, query and cookie names.
#[derive(Debug, Clone, Default)]
pub struct SchemeNames {
    names: Vec<(Location, String)>,
}

impl SchemeNames {
    /// The names `schemes` put credentials in.
    pub fn of(schemes: &BTreeMap<String, SecurityScheme>) -> Self {
        let names = schemes
            .values()
            .filter_map(|s| match s {
                SecurityScheme::ApiKey { name, location } => {
                    Some((*location, name.to_ascii_lowercase()))
                }
                _ => None,
            })
            .collect();
        Self { names }
    }

    /// Whether a scheme puts its credential in parameter `name` at `location`.
    fn contains(&self, location: Location, name: &str) -> bool {
        let name = name.to_ascii_lowercase();
        self.names.iter().any(|(l, n)| *l == location && *n == name)
    }
}

/// What the rule needs for one document: the mode and where the
/// document's security schemes put credentials.
#[derive(Debug, Clone, Default)]
pub struct Routing {
    /// `--mcp-headers`.
    pub mode: McpHeaderMode,
    /// The security schemes' credential names.
    pub schemes: SchemeNames,
}

/// What the document says of one parameter (its `x-mcp-header`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Explicit {
    /// Nothing: the rule decides.
    Unset,
    /// `false`.
    Never,
    /// `true`: the derived name.
    Derived,
    /// A name, not yet validated.
    Name(String),
    /// Anything else (what it was).
    Malformed(&'static str),
}

/// One parameter the rule looks at.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// The parameter's wire name.
    pub name: String,
    /// Where it goes.
    pub location: Location,
    /// Its `x-mcp-header`.
    pub explicit: Explicit,
    /// Its scalar type (`string`, `integer`, `boolean`, `number`), `None`
    /// when it is not one scalar type.
    pub scalar: Option<String>,
    /// Its schema's `format`.
    pub format: Option<String>,
}

/// What the rule decided for a tool's parameters.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Decision {
    /// The `x-mcp-header` value of each candidate, in order.
    pub names: Vec<Option<String>>,
    /// Problems with the document's `x-mcp-header`s and name clashes: the
    /// candidate's position and what is wrong.
    pub warnings: Vec<(usize, String)>,
}

/// Decides which `candidates` (the parameters of one tool, in document
/// order) are annotated, and under which names (see the module docs).
pub fn decide(candidates: &[Candidate], routing: &Routing) -> Decision {
    let mut decision = Decision {
        names: vec![None; candidates.len()],
        warnings: Vec::new(),
    };
    if routing.mode == McpHeaderMode::None {
        return decision;
    }
    let mut taken: Vec<(String, usize)> = Vec::new();
    // The document's names first, so the rule never takes one from it.
    for explicit_pass in [true, false] {
        for (i, c) in candidates.iter().enumerate() {
            let is_explicit = c.explicit != Explicit::Unset;
            if is_explicit != explicit_pass {
                continue;
            }
            let proposed = if explicit_pass {
                explicit_name(c, routing, &mut |w| decision.warnings.push((i, w)))
            } else if routing.mode == McpHeaderMode::Auto {
                auto_name(c, routing)
            } else {
                None
            };
            let Some(name) = proposed else { continue };
            let folded = name.to_ascii_lowercase();
            if let Some((_, other)) = taken.iter().find(|(n, _)| *n == folded) {
                decision.warnings.push((
                    i,
                    format!(
                        "parameter `{}` is not mirrored into an Mcp-Param-{name} header: parameter `{}` already is (x-mcp-header names are unique regardless of case)",
                        c.name, candidates[*other].name
                    ),
                ));
                continue;
            }
            taken.push((folded, i));
            decision.names[i] = Some(name);
        }
    }
    decision
}

/// Why a parameter can never be mirrored, whatever the document says.
fn hard_exclusion(c: &Candidate, routing: &Routing) -> Option<String> {
    match c.scalar.as_deref() {
        Some("string" | "integer" | "boolean") => {}
        Some(other) => {
            return Some(format!(
                "only string, integer and boolean values can be mirrored, and it is a {other}"
            ));
        }
        None => {
            return Some(
                "only string, integer and boolean values can be mirrored, and its schema is not one of these types"
                    .into(),
            );
        }
    }
    if routing.schemes.contains(c.location, &c.name) {
        return Some("a security scheme of the document puts its credential there".into());
    }
    if c.location == Location::Header
        && CREDENTIAL_HEADERS.contains(&c.name.to_ascii_lowercase().as_str())
    {
        return Some("it carries credentials".into());
    }
    if c.format.as_deref() == Some("password") {
        return Some("its schema's format is `password`".into());
    }
    None
}

/// The document's name for `c`, validated; a problem is warned about and
/// leaves the parameter unannotated.
fn explicit_name(c: &Candidate, routing: &Routing, warn: &mut dyn FnMut(String)) -> Option<String> {
    let name = match &c.explicit {
        Explicit::Unset | Explicit::Never => return None,
        Explicit::Malformed(what) => {
            warn(format!(
                "`{KEYWORD}` of parameter `{}` must be a header name, true or false, not {what}; the parameter is not mirrored",
                c.name
            ));
            return None;
        }
        Explicit::Derived => match to_token(&c.name) {
            Some(name) => name,
            None => {
                warn(format!(
                    "parameter `{}` has no character a header name may carry; give `{KEYWORD}` a name",
                    c.name
                ));
                return None;
            }
        },
        Explicit::Name(name) if !is_token(name) => {
            warn(format!(
                "`{KEYWORD}: {name:?}` of parameter `{}` is not a valid header name (RFC 9110 token: letters, digits and !#$%&'*+-.^_`|~); the parameter is not mirrored",
                c.name
            ));
            return None;
        }
        Explicit::Name(name) => name.clone(),
    };
    if routing.mode == McpHeaderMode::None {
        return None;
    }
    if let Some(why) = hard_exclusion(c, routing) {
        warn(format!(
            "`{KEYWORD}` of parameter `{}` ignored: {why}",
            c.name
        ));
        return None;
    }
    Some(name)
}

/// The rule's name for `c` (a header parameter without `x-mcp-header`).
fn auto_name(c: &Candidate, routing: &Routing) -> Option<String> {
    if c.location != Location::Header || hard_exclusion(c, routing).is_some() {
        return None;
    }
    if per_request(&c.name) || secret_by_name(&c.name) {
        return None;
    }
    to_token(&c.name)
}

#[cfg(test)]
#[path = "mcp_headers_tests.rs"]
mod tests;
