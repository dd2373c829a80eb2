//! What a call takes from the MCP client's own HTTP request and sends on
//! to the API: its `Authorization` header (`--forward-authorization`) and
//! the headers `--forward-header` names (an `X-Api-Key` per caller, as
//! LiteLLM and gateway users ask for).
//!
//! Per request, never shared: a caller's headers go on that caller's
//! requests (and the status polls of the long-running operations it
//! started) and nowhere else. They count as credentials: masked in what
//! the API sends back, and never carried to another origin by a redirect.
//! A header this server itself reads is never forwarded ([`refusal`]):
//! passing the MCP session's id on would let the API's operator take the
//! session over, and this server's own cookies and tokens are not the
//! API's to see.

/// The MCP client's headers a call sends on (empty on stdio).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Forwarded {
    /// The client's `Authorization` value, sent instead of configured
    /// credentials.
    pub authorization: Option<String>,
    /// Headers by name, as the client sent them, each replacing any header
    /// of that name the request would otherwise carry.
    pub headers: Vec<(String, String)>,
}

/// Nothing forwarded: stdio, and calls made by the server itself.
pub static NONE: Forwarded = Forwarded {
    authorization: None,
    headers: Vec::new(),
};

impl Forwarded {
    /// What of `self` a call may use: the `Authorization` only when
    /// `authorization` allows it, and only the headers named in `names`
    /// (case-insensitively).
    pub fn allowed(&self, authorization: bool, names: &[String]) -> Forwarded {
        Forwarded {
            authorization: self.authorization.clone().filter(|_| authorization),
            headers: self
                .headers
                .iter()
                .filter(|(n, _)| names.iter().any(|allowed| allowed.eq_ignore_ascii_case(n)))
                .cloned()
                .collect(),
        }
    }
}

/// Why `name` may not be given to `--forward-header`; `None` when it may.
pub fn refusal(name: &str) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    let valid = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
    if !valid {
        return Some(format!("`{name}` is not an HTTP header name"));
    }
    let why = match lower.as_str() {
        "authorization" => {
            "the client's Authorization is forwarded by --forward-authorization, which refuses the tokens meant for this server (--auth-token, --oauth-issuer)"
        }
        "proxy-authorization" => "it is a credential for a proxy on the way to this server",
        "cookie" => "it carries this server's own cookies (its login pages' session)",
        "mcp-session-id" | "mcp-protocol-version" | "last-event-id" => {
            "it belongs to the MCP session with this server: passing it on would let the API's operator take the session over"
        }
        "host" | "content-length" | "content-type" | "content-encoding" | "transfer-encoding"
        | "connection" | "keep-alive" | "te" | "trailer" | "upgrade" | "expect" | "accept"
        | "accept-encoding" => {
            "the request's framing and negotiation are set from the document and by the HTTP client"
        }
        _ => return None,
    };
    Some(format!("`{name}` cannot be forwarded: {why}"))
}

#[cfg(test)]
#[path = "forward_tests.rs"]
mod tests;
