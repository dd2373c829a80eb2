//! Security: the API's security schemes in the runtime's terms, and each
//! operation's requirements (its own `security`, else the document's).

use std::collections::BTreeMap;

use serde_json::Value;

use super::operations::Operation;
use crate::document::{Diagnostic, Document};
use crate::runtime::binding::{Location, SchemeUse, SecurityRequirement, SecurityScheme};

/// `components.securitySchemes`, each `$ref` followed. Unknown kinds are
/// skipped with a diagnostic.
pub fn schemes(doc: &Document, diags: &mut Vec<Diagnostic>) -> BTreeMap<String, SecurityScheme> {
    let mut out = BTreeMap::new();
    let Some(node) = doc
        .root_node()
        .child("components")
        .and_then(|c| c.child("securitySchemes"))
    else {
        return out;
    };
    let Value::Object(map) = node.value else {
        return out;
    };
    for name in map.keys() {
        let Some(entry) = node.child(name) else {
            continue;
        };
        let entry = match doc.deref(entry) {
            Ok(e) => e,
            Err(d) => {
                diags.push(d);
                continue;
            }
        };
        match scheme(entry.value) {
            Ok(s) => {
                out.insert(name.clone(), s);
            }
            Err(msg) => diags.push(Diagnostic::warning(
                doc.display_name(entry.file),
                entry.pointer,
                format!("security scheme `{name}` skipped: {msg}"),
            )),
        }
    }
    out
}

fn scheme(v: &Value) -> Result<SecurityScheme, String> {
    let s = |k: &str| v.get(k).and_then(Value::as_str);
    match s("type") {
        Some("apiKey") => {
            let name = s("name").ok_or("apiKey needs `name`")?.to_string();
            let location = match s("in") {
                Some("header") => Location::Header,
                Some("query") => Location::Query,
                Some("cookie") => Location::Cookie,
                other => {
                    return Err(format!(
                        "apiKey `in` must be header, query or cookie, not {other:?}"
                    ));
                }
            };
            Ok(SecurityScheme::ApiKey { name, location })
        }
        Some("http") => Ok(SecurityScheme::Http {
            scheme: s("scheme")
                .ok_or("http needs `scheme`")?
                .to_ascii_lowercase(),
            bearer_format: s("bearerFormat").map(str::to_string),
        }),
        Some("oauth2") => {
            let flows = v.get("flows").and_then(Value::as_object);
            Ok(SecurityScheme::OAuth2 {
                client_credentials_token_url: flows
                    .and_then(|f| f.get("clientCredentials"))
                    .and_then(|f| f.get("tokenUrl"))
                    .and_then(Value::as_str)
                    .map(str::to_string),
                flows: flows
                    .map(|f| f.keys().cloned().collect())
                    .unwrap_or_default(),
            })
        }
        Some("openIdConnect") => Ok(SecurityScheme::OpenIdConnect {
            url: s("openIdConnectUrl").unwrap_or_default().to_string(),
        }),
        Some("mutualTLS") => Ok(SecurityScheme::MutualTls),
        other => Err(format!("unknown type {other:?}")),
    }
}

/// The operation's security alternatives (its own list, else the document's).
pub fn requirements(doc: &Document, op: &Operation<'_>) -> Vec<SecurityRequirement> {
    let list = op
        .node
        .value
        .get("security")
        .or_else(|| doc.root().get("security"));
    let Some(Value::Array(reqs)) = list else {
        return Vec::new();
    };
    reqs.iter()
        .filter_map(Value::as_object)
        .map(|req| SecurityRequirement {
            schemes: req
                .iter()
                .map(|(name, scopes)| SchemeUse {
                    name: name.clone(),
                    scopes: scopes
                        .as_array()
                        .map(|s| {
                            s.iter()
                                .filter_map(Value::as_str)
                                .map(str::to_string)
                                .collect()
                        })
                        .unwrap_or_default(),
                })
                .collect(),
        })
        .collect()
}
