//! Where credentials come from: `OPENAPI2MCP_CRED_<SCHEME>_<FIELD>`
//! variables (or the older `OPENAPI2MCP_<SCHEME>_<FIELD>` where that name
//! is not one of the program's settings), held so that `Debug` and
//! redacted text never show a value. The names themselves are the model
//! crate's `credential_vars` (re-exported here): the generator writes them
//! into client configurations and generated READMEs.

use std::collections::BTreeMap;
use std::fmt;

/// What replaces a secret in redacted text.
const MASK: &str = "***";

pub use openapi2mcp_model::credential_vars::{
    CRED_PREFIX, ENV_PREFIX, collision, cred_env_var, env_var, env_var_prefix, legacy_env_var,
};

/// A string that never shows in `Debug` output.
#[derive(Clone, PartialEq, Eq)]
pub(super) struct Secret(pub(super) String);

impl Secret {
    pub(super) fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(MASK)
    }
}

/// Credential values by variable name. `Debug` lists the variable names
/// only.
#[derive(Clone, Default)]
pub struct Credentials {
    pub(super) values: BTreeMap<String, Secret>,
}

impl Credentials {
    /// The process environment's `OPENAPI2MCP_*` variables (others, and
    /// values that are not UTF-8, are skipped).
    pub fn from_env() -> Self {
        let pairs = std::env::vars_os()
            .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
            .filter(|(k, _)| k.starts_with(ENV_PREFIX));
        Self::from_pairs(pairs)
    }

    /// Credentials from `(variable, value)` pairs (a later pair wins; empty
    /// values are skipped, so they count as unset).
    pub fn from_pairs<I, K, V>(pairs: I) -> Self
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        let values = pairs
            .into_iter()
            .map(|(k, v)| (k.into(), v.into()))
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| (k, Secret(v)))
            .collect();
        Self { values }
    }

    /// The value of `variable`, if set and not empty.
    pub fn get(&self, variable: &str) -> Option<&str> {
        self.values.get(variable).map(Secret::expose)
    }

    /// Scheme `scheme`'s `field`: `OPENAPI2MCP_CRED_<SCHEME>_<FIELD>`, else
    /// `OPENAPI2MCP_<SCHEME>_<FIELD>` unless that name is a setting
    /// ([`collision`]); with the variable it was read from.
    pub fn credential(&self, scheme: &str, field: &str) -> Option<(String, &str)> {
        let namespaced = cred_env_var(scheme, field);
        if let Some(value) = self.get(&namespaced) {
            return Some((namespaced, value));
        }
        if collision(scheme, field).is_some() {
            return None;
        }
        let legacy = legacy_env_var(scheme, field);
        self.get(&legacy).map(|value| (legacy, value))
    }

    /// The value of scheme `scheme`'s `field` ([`Credentials::credential`]).
    pub fn value(&self, scheme: &str, field: &str) -> Option<&str> {
        self.credential(scheme, field).map(|(_, value)| value)
    }

    /// The settings among these variables that scheme `scheme`'s `field`
    /// would have been read from under its older name, while its own
    /// `CRED_` name is unset: `(setting, what it is, the name to set)`,
    /// for a warning at start-up.
    pub fn shadowed(&self, scheme: &str, field: &str) -> Option<(String, &'static str, String)> {
        let what = collision(scheme, field)?;
        let legacy = legacy_env_var(scheme, field);
        let namespaced = cred_env_var(scheme, field);
        (self.get(&legacy).is_some() && self.get(&namespaced).is_none())
            .then_some((legacy, what, namespaced))
    }
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("variables", &self.values.keys().collect::<Vec<_>>())
            .finish()
    }
}

/// Replaces every occurrence of each non-empty secret in `text` with `***`
/// (longest secrets first, so one containing another is masked whole).
pub fn redact(text: &str, secrets: &[String]) -> String {
    let ordered = longest_first(secrets);
    mask(text, &ordered).unwrap_or_else(|| text.to_owned())
}

/// [`redact`] for JSON (`structuredContent`): every string in `value`,
/// object keys as well as values, at any depth, has each secret masked.
/// Returns whether anything was masked. Numbers, booleans and the shape
/// stay as they were; a masked key that would collide with another key
/// is kept with a `~2` (`~3`, …) suffix, so no value is lost.
pub fn redact_json(value: &mut serde_json::Value, secrets: &[String]) -> bool {
    let ordered = longest_first(secrets);
    if ordered.is_empty() {
        return false;
    }
    redact_value(value, &ordered)
}

fn longest_first(secrets: &[String]) -> Vec<&str> {
    let mut ordered: Vec<&str> = secrets
        .iter()
        .map(String::as_str)
        .filter(|s| !s.is_empty())
        .collect();
    ordered.sort_by_key(|s| std::cmp::Reverse(s.len()));
    ordered
}

/// `text` with the secrets masked, or `None` when it holds none (the
/// common case, without allocating).
fn mask(text: &str, ordered: &[&str]) -> Option<String> {
    if !ordered.iter().any(|secret| text.contains(secret)) {
        return None;
    }
    Some(
        ordered
            .iter()
            .fold(text.to_owned(), |acc, secret| acc.replace(secret, MASK)),
    )
}

fn redact_value(value: &mut serde_json::Value, ordered: &[&str]) -> bool {
    use serde_json::Value;
    match value {
        Value::String(s) => match mask(s, ordered) {
            Some(masked) => {
                *s = masked;
                true
            }
            None => false,
        },
        Value::Array(items) => items
            .iter_mut()
            .fold(false, |changed, item| redact_value(item, ordered) | changed),
        Value::Object(map) => {
            let mut changed = false;
            if map.keys().any(|k| mask(k, ordered).is_some()) {
                let old = std::mem::take(map);
                // Keys that stay as they are keep their name; a masked
                // key that would take one gets a suffix instead.
                let kept: std::collections::HashSet<String> = old
                    .keys()
                    .filter(|k| mask(k, ordered).is_none())
                    .cloned()
                    .collect();
                for (key, v) in old {
                    let key = match mask(&key, ordered) {
                        Some(masked) => {
                            changed = true;
                            let mut unique = masked.clone();
                            let mut n = 2;
                            while map.contains_key(&unique) || kept.contains(&unique) {
                                unique = format!("{masked}~{n}");
                                n += 1;
                            }
                            unique
                        }
                        None => key,
                    };
                    map.insert(key, v);
                }
            }
            map.values_mut()
                .fold(changed, |changed, v| redact_value(v, ordered) | changed)
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => false,
    }
}
