//! Static upstream headers (`--header 'Name: value'`): what an operator
//! adds to every request when the document has no security scheme to hold
//! a credential (Jupyter Server's token, most internal APIs) or the API
//! wants a header of its own (`X-Tenant`, `User-Agent`).
//!
//! Values may name environment variables (`${VAR}`), so a key need not
//! sit in a client's configuration file; they are credentials as far as
//! the rest of the runtime is concerned: never in `Debug` output or
//! messages, masked in results, not carried to another origin on a
//! redirect. A header the operator supplies is also taken out of every
//! tool's arguments ([`FixedHeaders::strip_from`]): the model is not asked
//! for what it cannot know, and cannot replace the operator's value.

use std::fmt;

use super::super::binding::Location;
use super::super::catalog::ToolDef;
use super::super::request::CLIENT_HEADERS;
use super::super::request::RequestDraft;
use super::credentials::Secret;

/// The operator's headers, in the order given. `Debug` shows names only.
#[derive(Clone, Default)]
pub struct FixedHeaders {
    headers: Vec<(String, Secret)>,
}

impl fmt::Debug for FixedHeaders {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.headers.iter().map(|(name, _)| name))
            .finish()
    }
}

/// Why a `--header` cannot be used. Messages name the header and the
/// variable, never a value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FixedHeaderError {
    /// Not `Name: value`.
    #[error("`{0}` is not `Name: value`")]
    Shape(String),
    /// The name is not an HTTP header name.
    #[error("`{0}` is not a valid HTTP header name")]
    Name(String),
    /// The HTTP client sets this header itself.
    #[error("`{0}` is set by the HTTP client (message framing); it cannot be given")]
    Framing(String),
    /// A `${VAR}` the environment does not have (or has empty).
    #[error("{what}: environment variable `{var}` is not set")]
    Unset {
        /// What the value is of (``header `X-Key` ``).
        what: String,
        /// The variable.
        var: String,
    },
    /// `${` without its `}`, or an empty variable name.
    #[error("{0}: a `${{` has no matching `}}` or names no variable")]
    Placeholder(String),
    /// The value (after substitution) has characters a header value
    /// cannot carry (line breaks, other control characters).
    #[error("header `{0}`: the value has characters an HTTP header cannot carry")]
    Value(String),
    /// The same header given twice.
    #[error("header `{0}` is given twice")]
    Duplicate(String),
}

impl FixedHeaders {
    /// Parses `Name: value` lines, each `${VAR}` in a value replaced by
    /// `lookup(VAR)` (the environment, usually); `$$` is a literal `$`.
    pub fn parse<F>(lines: &[String], lookup: F) -> Result<Self, FixedHeaderError>
    where
        F: Fn(&str) -> Option<String>,
    {
        let mut headers: Vec<(String, Secret)> = Vec::with_capacity(lines.len());
        for line in lines {
            let Some((name, raw)) = line.split_once(':') else {
                // The line may be a secret pasted without its name: not shown.
                return Err(FixedHeaderError::Shape(shown_line(line)));
            };
            let name = name.trim();
            if reqwest::header::HeaderName::from_bytes(name.as_bytes()).is_err() {
                return Err(FixedHeaderError::Name(name.chars().take(64).collect()));
            }
            let lower = name.to_ascii_lowercase();
            if CLIENT_HEADERS.contains(&lower.as_str()) {
                return Err(FixedHeaderError::Framing(name.to_string()));
            }
            if headers.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
                return Err(FixedHeaderError::Duplicate(name.to_string()));
            }
            let value = expand_vars(&format!("header `{name}`"), raw.trim(), &lookup)?;
            if reqwest::header::HeaderValue::from_str(&value).is_err() {
                return Err(FixedHeaderError::Value(name.to_string()));
            }
            headers.push((name.to_string(), Secret(value)));
        }
        Ok(Self { headers })
    }

    /// [`FixedHeaders::parse`] reading `${VAR}` from the process environment.
    pub fn from_env(lines: &[String]) -> Result<Self, FixedHeaderError> {
        Self::parse(lines, |var| std::env::var(var).ok())
    }

    /// Whether no header is configured.
    pub fn is_empty(&self) -> bool {
        self.headers.is_empty()
    }

    /// The header names, as given.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.headers.iter().map(|(name, _)| name.as_str())
    }

    /// Whether `name` (any case) is one of these headers.
    pub fn supplies(&self, name: &str) -> bool {
        self.headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name))
    }

    /// Puts every header on `draft`, replacing a header of the same name
    /// (the operator's value wins over the document's and a scheme's), and
    /// records the values as credentials so a redirect to another origin
    /// cannot carry them on.
    pub fn apply(&self, draft: &mut RequestDraft) {
        for (name, value) in &self.headers {
            draft.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
            draft
                .headers
                .push((name.clone(), value.expose().to_string()));
            if !draft.credentials.iter().any(|c| c == value.expose()) {
                draft.credentials.push(value.expose().to_string());
            }
        }
    }

    /// The values, for masking in results.
    pub fn secret_values(&self) -> impl Iterator<Item = &str> {
        self.headers.iter().map(|(_, value)| value.expose())
    }

    /// Takes the arguments bound to these headers out of `def`: from the
    /// request binding and from the listed (and full) input schema's
    /// properties and `required`. Returns the arguments removed.
    pub fn strip_from(&self, def: &mut ToolDef) -> Vec<String> {
        if self.headers.is_empty() {
            return Vec::new();
        }
        let mut removed = Vec::new();
        def.http.params.retain(|p| {
            let supplied = p.location == Location::Header && self.supplies(&p.name);
            if supplied {
                removed.push(p.arg.clone());
            }
            !supplied
        });
        for schema in [Some(&mut def.input_schema), def.input_full.as_mut()]
            .into_iter()
            .flatten()
        {
            remove_properties(schema, &removed);
        }
        removed
    }
}

/// Removes `args` from an object schema's `properties` and `required`.
fn remove_properties(schema: &mut serde_json::Value, args: &[String]) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    if let Some(props) = object.get_mut("properties").and_then(|p| p.as_object_mut()) {
        for arg in args {
            props.remove(arg);
        }
    }
    if let Some(required) = object.get_mut("required").and_then(|r| r.as_array_mut()) {
        required.retain(|r| !r.as_str().is_some_and(|r| args.iter().any(|a| a == r)));
        if required.is_empty() {
            object.remove("required");
        }
    }
}

/// `raw` with each `${VAR}` replaced by `lookup(VAR)` and each `$$` made
/// `$`; errors say `what` the value is of (``header `X-Key` ``) and name
/// the variable, never a value. Also used for other values an operator
/// writes with variables (a configuration file's credentials).
pub fn expand_vars<F>(what: &str, raw: &str, lookup: &F) -> Result<String, FixedHeaderError>
where
    F: Fn(&str) -> Option<String>,
{
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(tail) = after.strip_prefix('$') {
            out.push('$');
            rest = tail;
        } else if let Some(tail) = after.strip_prefix('{') {
            let Some(end) = tail.find('}') else {
                return Err(FixedHeaderError::Placeholder(what.to_string()));
            };
            let var = &tail[..end];
            if var.is_empty() {
                return Err(FixedHeaderError::Placeholder(what.to_string()));
            }
            match lookup(var).filter(|v| !v.is_empty()) {
                Some(value) => out.push_str(&value),
                None => {
                    return Err(FixedHeaderError::Unset {
                        what: what.to_string(),
                        var: var.to_string(),
                    });
                }
            }
            rest = &tail[end + 1..];
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// What an error shows of a malformed line: its length only (it may be a
/// secret pasted without its name).
fn shown_line(line: &str) -> String {
    format!("<{} characters>", line.chars().count())
}

#[cfg(test)]
#[path = "fixed_tests.rs"]
mod tests;
