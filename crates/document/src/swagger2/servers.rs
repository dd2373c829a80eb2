//! `servers` from `host`, `basePath` and `schemes`, document-wide and per
//! operation.

use super::*;

impl Upgrader<'_> {
    /// One server per scheme, or a relative server when there is no host.
    pub(super) fn server_list(&self, schemes: &[String]) -> Vec<Value> {
        let base = normalise_base_path(self.server.base_path.as_deref());
        match &self.server.host {
            Some(host) => {
                let host = host.trim_end_matches('/');
                let default = ["https".to_string()];
                let schemes = if schemes.is_empty() {
                    &default[..]
                } else {
                    schemes
                };
                schemes
                    .iter()
                    .map(|scheme| json!({ "url": format!("{scheme}://{host}{base}") }))
                    .collect()
            }
            None if self.server.base_path.is_some() => {
                let url = if base.is_empty() {
                    "/".to_string()
                } else {
                    base
                };
                vec![json!({ "url": url })]
            }
            None => Vec::new(),
        }
    }

    /// Operation-level `servers` when the operation's `schemes` differ from
    /// the document's (and there is a host to build URLs from).
    pub(super) fn operation_servers(
        &mut self,
        schemes: Option<&Value>,
        pointer: &str,
    ) -> Option<Value> {
        let schemes = self.string_list(schemes, pointer, "scheme")?;
        if self.server.host.is_none() || schemes.is_empty() {
            return None;
        }
        let global = if self.server.schemes.is_empty() {
            vec!["https".to_string()]
        } else {
            self.server.schemes.clone()
        };
        if schemes == global {
            return None;
        }
        Some(Value::Array(self.server_list(&schemes)))
    }
}

/// `basePath` as a URL suffix: leading `/`, no trailing `/` (`/` → ``).
fn normalise_base_path(base: Option<&str>) -> String {
    let trimmed = base.unwrap_or_default().trim_matches('/');
    if trimmed.is_empty() {
        String::new()
    } else {
        format!("/{trimmed}")
    }
}
