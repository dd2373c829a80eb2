//! `securitySchemes` from `securityDefinitions`: basic, apiKey and the
//! OAuth2 flows renamed to their 3.0 names.

use super::*;

impl Upgrader<'_> {
    /// `securityDefinitions` → `securitySchemes`.
    pub(super) fn security_schemes(&mut self, value: Value) -> Map<String, Value> {
        let Some(map) = self.expect_object(value, "/securityDefinitions") else {
            return Map::new();
        };
        let mut out = Map::new();
        for (name, scheme) in map {
            let pointer = push_token("/securityDefinitions", &name);
            if let Some(converted) = self.security_scheme(scheme, &pointer) {
                out.insert(name, converted);
            }
        }
        out
    }

    /// One security scheme; unknown types are skipped with a warning.
    fn security_scheme(&mut self, value: Value, pointer: &str) -> Option<Value> {
        let scheme = self.expect_object(value, pointer)?;
        match scheme.get("type").and_then(Value::as_str) {
            Some("basic") => Some(basic_scheme(scheme)),
            Some("apiKey") => Some(Value::Object(scheme)),
            Some("oauth2") => self.oauth2_scheme(scheme, pointer),
            Some(other) => {
                let message = format!("unknown security scheme type `{other}`; skipped");
                self.warn(&push_token(pointer, "type"), message);
                None
            }
            None => {
                self.warn(pointer, "security scheme has no string `type`; skipped");
                None
            }
        }
    }

    /// `type: oauth2` with a single 2.0 `flow` → 3.0 `flows`.
    fn oauth2_scheme(&mut self, scheme: Map<String, Value>, pointer: &str) -> Option<Value> {
        let flow_pointer = push_token(pointer, "flow");
        let (flow_name, needs_auth_url, needs_token_url) =
            match scheme.get("flow").and_then(Value::as_str) {
                Some("implicit") => ("implicit", true, false),
                Some("password") => ("password", false, true),
                Some("application") => ("clientCredentials", false, true),
                Some("accessCode") => ("authorizationCode", true, true),
                Some(other) => {
                    let message = format!("unknown oauth2 flow `{other}`; scheme skipped");
                    self.warn(&flow_pointer, message);
                    return None;
                }
                None => {
                    self.warn(pointer, "oauth2 scheme has no string `flow`; skipped");
                    return None;
                }
            };
        let mut flow = Map::new();
        let mut out = Map::new();
        let mut scopes = None;
        for (key, value) in scheme {
            match key.as_str() {
                "flow" => {}
                "authorizationUrl" if needs_auth_url => {
                    flow.insert(key, value);
                }
                "tokenUrl" if needs_token_url => {
                    flow.insert(key, value);
                }
                "authorizationUrl" | "tokenUrl" => {}
                "scopes" => scopes = Some(value),
                _ => {
                    out.insert(key, value);
                }
            }
        }
        self.require_flow_url(&flow, needs_auth_url, "authorizationUrl", pointer);
        self.require_flow_url(&flow, needs_token_url, "tokenUrl", pointer);
        let scopes = match scopes {
            None => Map::new(),
            Some(value) => self
                .expect_object(value, &push_token(pointer, "scopes"))
                .unwrap_or_default(),
        };
        flow.insert("scopes".into(), Value::Object(scopes));
        out.insert("flows".into(), json!({ flow_name: flow }));
        Some(Value::Object(out))
    }

    /// Warns when a URL the 3.0 flow requires is missing.
    fn require_flow_url(
        &mut self,
        flow: &Map<String, Value>,
        needed: bool,
        key: &str,
        pointer: &str,
    ) {
        if needed && !flow.contains_key(key) {
            self.warn(
                pointer,
                format!("oauth2 flow requires `{key}`, which is missing"),
            );
        }
    }
}

/// `type: basic` → `{type: http, scheme: basic}`, other keys kept.
fn basic_scheme(scheme: Map<String, Value>) -> Value {
    let mut out = Map::new();
    out.insert("type".into(), "http".into());
    out.insert("scheme".into(), "basic".into());
    out.extend(scheme.into_iter().filter(|(key, _)| key != "type"));
    Value::Object(out)
}
