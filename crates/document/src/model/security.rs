//! API-level facts and what applies to every operation unless it says
//! otherwise: `info`, the security schemes, security requirements and
//! servers (each operation's effective ones).

use std::collections::BTreeMap;

use serde_json::Value;

use super::operations::Operation;
use crate::refs::Located;
use crate::{Diagnostic, Document};
use openapi2mcp_model::binding::LoginFlows;
use openapi2mcp_model::binding::{
    Location, SchemeUse, SecurityRequirement, SecurityScheme, Server, ServerVariable,
};

/// The document's `info`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Info<'d> {
    /// `info.title`.
    pub title: Option<&'d str>,
    /// `info.version`.
    pub version: Option<&'d str>,
    /// `info.description`.
    pub description: Option<&'d str>,
}

impl Document {
    /// The document's `info` (strings only).
    pub fn info(&self) -> Info<'_> {
        let info = self.root().get("info");
        let text = |key: &str| info.and_then(|i| i.get(key)).and_then(Value::as_str);
        Info {
            title: text("title"),
            version: text("version"),
            description: text("description"),
        }
    }

    /// `components.securitySchemes`, each `$ref` followed. Unknown kinds
    /// are skipped with a diagnostic.
    pub fn security_schemes(
        &self,
        diags: &mut Vec<Diagnostic>,
    ) -> BTreeMap<String, SecurityScheme> {
        let mut out = BTreeMap::new();
        let Some(node) = self
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
            let entry = match self.deref(entry) {
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
                    self.display_name(entry.file),
                    entry.pointer,
                    format!("security scheme `{name}` skipped: {msg}"),
                )),
            }
        }
        out
    }

    /// The document's own `servers` (not an operation's), relative URLs
    /// resolved as [`Operation::servers`] resolves them.
    pub fn servers(&self) -> Vec<Server> {
        servers_of(self, [&self.root_node()])
    }
}

impl Operation<'_> {
    /// The operation's security alternatives (its own list, else the
    /// document's).
    pub fn security(&self) -> Vec<SecurityRequirement> {
        let list = self
            .node()
            .value
            .get("security")
            .or_else(|| self.document().root().get("security"));
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

    /// Servers for the operation: its own, else its path item's, else the
    /// document's. Relative URLs are resolved against the document URL
    /// when it was fetched over HTTP.
    pub fn servers(&self) -> Vec<Server> {
        let doc = self.document();
        servers_of(doc, [self.node(), self.item(), &doc.root_node()])
    }
}

/// The first non-empty `servers` list among `owners`.
fn servers_of<'a, 'd: 'a, const N: usize>(
    doc: &Document,
    owners: [&'a Located<'d>; N],
) -> Vec<Server> {
    let list = owners.into_iter().find_map(|n| {
        n.value
            .get("servers")
            .and_then(Value::as_array)
            .filter(|s| !s.is_empty())
    });
    let Some(list) = list else {
        return Vec::new();
    };
    let base = url::Url::parse(doc.root_key())
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"));
    list.iter()
        .filter_map(|s| server(s, base.as_ref()))
        .collect()
}

fn server(value: &Value, base: Option<&url::Url>) -> Option<Server> {
    let url = value.get("url")?.as_str()?;
    let url = match base {
        Some(b) if !url.contains("://") && !url.starts_with('{') => b
            .join(url)
            .map(|u| u.to_string())
            .unwrap_or_else(|_| url.to_string()),
        _ => url.to_string(),
    };
    let variables = value
        .get("variables")
        .and_then(Value::as_object)
        .map(|vars| {
            vars.iter()
                .map(|(name, v)| ServerVariable {
                    name: name.clone(),
                    default: v.get("default").map(scalar_text).unwrap_or_default(),
                    allowed: v
                        .get("enum")
                        .and_then(Value::as_array)
                        .map(|e| e.iter().map(scalar_text).collect())
                        .unwrap_or_default(),
                })
                .collect()
        })
        .unwrap_or_default();
    Some(Server { url, variables })
}

fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// What a person logs in through: the `authorizationCode` flow, the
/// OpenAPI 3.2 `deviceAuthorization` flow, `oauth2MetadataUrl`; `None`
/// when the scheme offers none of them.
fn login_flows(v: &Value) -> Option<Box<LoginFlows>> {
    let flows = v.get("flows").and_then(Value::as_object);
    let flow = |name: &str| flows.and_then(|f| f.get(name)).and_then(Value::as_object);
    let text = |flow: Option<&serde_json::Map<String, Value>>, key: &str| {
        flow.and_then(|f| f.get(key))
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
            .map(str::to_string)
    };
    let code = flow("authorizationCode");
    let device = flow("deviceAuthorization");
    let metadata_url = v
        .get("oauth2MetadataUrl")
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
        .map(str::to_string);
    if code.is_none() && device.is_none() && metadata_url.is_none() {
        return None;
    }
    let mut scopes: Vec<String> = Vec::new();
    for f in [code, device].into_iter().flatten() {
        if let Some(map) = f.get("scopes").and_then(Value::as_object) {
            for scope in map.keys() {
                if !scopes.contains(scope) {
                    scopes.push(scope.clone());
                }
            }
        }
    }
    Some(Box::new(LoginFlows {
        authorization_url: text(code, "authorizationUrl"),
        token_url: text(code, "tokenUrl").or_else(|| text(device, "tokenUrl")),
        device_authorization_url: text(device, "deviceAuthorizationUrl"),
        refresh_url: text(code, "refreshUrl").or_else(|| text(device, "refreshUrl")),
        metadata_url,
        scopes,
    }))
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
            let login = login_flows(v);
            Ok(SecurityScheme::OAuth2 {
                login,
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
