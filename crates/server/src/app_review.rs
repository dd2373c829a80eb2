//! The review form for hosts that render MCP Apps (the
//! `io.modelcontextprotocol/ui` extension) but cannot be asked through
//! elicitation (claude.ai and Claude Desktop declare the extension and no
//! elicitation): a call that needs a person's confirmation is answered,
//! nothing sent, with the resolved request for the form the host shows
//! beside the result ([`REVIEW_URI`], an HTML view), and only that form can
//! send it, through the app-only tool [`SEND_TOOL`] (`visibility: ["app"]`:
//! hosts do not show it to the model), carrying the state this server
//! sealed for the call.
//!
//! The state is sealed with the confirmations' key (AES-256-GCM), bound to
//! the caller, expires with them (ten minutes) and is used once (the
//! nonce is claimed as a confirmation's is: in the shared token store
//! when there is one). The review data travels in the result's `_meta`
//! (which the extension says is not for the model), the model reads only
//! that the request waits for the person. Every tool a confirmation gates
//! names the form in `_meta.ui.resourceUri` (and the older flat
//! `ui/resourceUri` some hosts still read); a host that renders apps shows
//! it with each call's result, and the form says how a call that was not
//! a review ended. [`SEND_TOOL`] is listed and answered only for clients
//! that declared the extension (to any other it is an unknown tool).

use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, Tool};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::Bridge;
use super::confirm::Gate;
use openapi2mcp_runtime::auth::login::now_secs;
use openapi2mcp_runtime::call::ToolId;

/// The MCP Apps extension's identifier.
pub const UI_EXTENSION: &str = "io.modelcontextprotocol/ui";

/// The MIME type of an MCP App's HTML view.
pub const APP_MIME: &str = "text/html;profile=mcp-app";

/// The review form's resource.
pub const REVIEW_URI: &str = "ui://openapi2mcp/review";

/// The app-only tool the form sends a reviewed call with.
pub const SEND_TOOL: &str = "send_reviewed_call";

/// Where a review result carries the form's data (`_meta`).
pub const REVIEW_KEY: &str = "openapi2mcp/review";

/// The form: one self-contained HTML document (inline script and style,
/// no network: the extension's default content security policy).
pub const REVIEW_HTML: &str = include_str!("app_review.html");

/// How long the form can send a reviewed call, as a confirmation's state.
const REVIEW_TTL_SECS: u64 = 600;

/// What the form sends back, sealed.
#[derive(Serialize, Deserialize)]
struct Reviewed {
    /// Tool name.
    t: String,
    /// The call's arguments (those the person reviewed).
    a: Map<String, Value>,
    /// Expiry, seconds since the epoch.
    x: u64,
    /// A random nonce: one review sends one request.
    n: String,
}

/// Whether the client of this request declared MCP Apps with HTML views.
pub(super) fn declares_apps(context: &RequestContext<RoleServer>) -> bool {
    context.client_capabilities().is_some_and(|c| {
        c.extensions
            .as_ref()
            .and_then(|e| e.get(UI_EXTENSION))
            .and_then(|ui| ui.get("mimeTypes"))
            .and_then(Value::as_array)
            .is_some_and(|types| types.iter().any(|t| t == APP_MIME))
    })
}

/// Names the review form on a tool a confirmation gates, and keeps the
/// tool the model's: an app (this form included) cannot call it around
/// the review.
pub(super) fn name_the_form(tool: &mut Tool) {
    let meta = tool.meta.get_or_insert_with(Default::default);
    meta.insert(
        "ui".into(),
        json!({ "resourceUri": REVIEW_URI, "visibility": ["model"] }),
    );
    meta.insert("ui/resourceUri".into(), json!(REVIEW_URI));
}

/// The app-only tool the form sends a reviewed call with.
pub(super) fn send_tool() -> Option<Tool> {
    serde_json::from_value(json!({
        "name": SEND_TOOL,
        "title": "Send a reviewed call",
        "description": "Sends a call the person reviewed and approved in the review form. Only the form calls it.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "state": {"type": "string", "description": "The state the review form was given."}
            },
            "required": ["state"]
        },
        "annotations": {
            "title": "Send a reviewed call",
            "readOnlyHint": false,
            "destructiveHint": true,
            "idempotentHint": false
        },
        "_meta": {"ui": {"resourceUri": REVIEW_URI, "visibility": ["app"]}}
    }))
    .ok()
}

fn refuse(text: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(text)])
}

/// The additional data a state is sealed with: the caller.
fn sealed_for(context: &RequestContext<RoleServer>) -> Vec<u8> {
    let caller = super::protocol::caller_digest(context);
    format!("openapi2mcp/review/v1|{caller}").into_bytes()
}

impl Bridge {
    /// Whether this client is offered [`SEND_TOOL`]: it declared MCP Apps,
    /// calls are confirmed, and no API operation has the name.
    pub(super) fn sends_reviews(&self, context: &RequestContext<RoleServer>) -> bool {
        self.shared.options.confirm != super::confirm::ConfirmPolicy::None
            && declares_apps(context)
            && self.inner.api.index_of(SEND_TOOL).is_none()
    }

    /// Answers a call that needs confirmation, from a client that renders
    /// MCP Apps and cannot be asked, with the review form's data: nothing
    /// is sent.
    pub(super) fn review(
        &self,
        tool: ToolId,
        name: &str,
        args: &Map<String, Value>,
        what: &str,
        context: &RequestContext<RoleServer>,
    ) -> Result<Gate, McpError> {
        let nonce = super::connect::random_token();
        if nonce.is_empty() {
            return Err(McpError::internal_error(
                "the system random generator failed",
                None,
            ));
        }
        let reviewed = Reviewed {
            t: name.to_string(),
            a: args.clone(),
            x: now_secs() + REVIEW_TTL_SECS,
            n: nonce,
        };
        let state = self
            .shared
            .sealer
            .seal(
                &serde_json::to_vec(&reviewed).unwrap_or_default(),
                &sealed_for(context),
            )
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        let mut result = CallToolResult::success(vec![ContentBlock::text(format!(
            "Not sent yet: `{name}` waits for the person to review it in the form shown with this result; it is sent only if they press Send there, and they see its outcome there. Do not call `{name}` again for this. The request:\n\n{what}"
        ))]);
        // Not the tool's result: an SDK checks a success against the
        // tool's output schema, an error it reads as it is.
        if self.inner.api.tool(tool).output_schema.is_some() {
            result.is_error = Some(true);
        }
        let meta = result.meta.get_or_insert_with(Default::default);
        meta.insert(
            REVIEW_KEY.into(),
            json!({"tool": name, "request": what, "state": state, "sendTool": SEND_TOOL}),
        );
        tracing::info!(target: "openapi2mcp::audit", tool = %name, "held for review in the MCP Apps form: nothing sent");
        Ok(Gate::Answer(Box::new(result.into())))
    }

    /// `send_reviewed_call` (dispatched only where [`Bridge::sends_reviews`]
    /// holds: a client of any other kind calls an unknown tool): the call
    /// the person approved in the form, sent once, when its state is this
    /// server's for this caller and has not expired.
    pub(super) async fn send_reviewed(
        &self,
        args: &Map<String, Value>,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let Some(state) = args.get("state").and_then(Value::as_str) else {
            return Ok(refuse(format!(
                "`{SEND_TOOL}`: the argument `state` (a string) is required"
            ))
            .into());
        };
        let Ok(bytes) = self.shared.sealer.open(state, &sealed_for(context)) else {
            tracing::warn!(target: "openapi2mcp::audit", "{SEND_TOOL}: a state this server did not seal for this caller; nothing sent");
            return Ok(refuse(
                "Not sent: this review was not issued by this server to you (altered, or another caller's)."
                    .into(),
            )
            .into());
        };
        let Ok(reviewed) = serde_json::from_slice::<Reviewed>(&bytes) else {
            return Ok(refuse("Not sent: the review could not be read.".into()).into());
        };
        let name = reviewed.t.clone();
        if reviewed.x < now_secs() {
            return Ok(refuse(format!(
                "Not sent: this review of `{name}` expired ({} minutes after it was shown). Ask the model to call `{name}` again.",
                REVIEW_TTL_SECS / 60
            ))
            .into());
        }
        let tool = match self.inner.api.find(&name) {
            Ok(tool) if self.allowed(tool.index()) && self.not_enabled(tool).is_none() => tool,
            _ => {
                return Ok(
                    refuse(format!("Not sent: `{name}` is no longer served to you.")).into(),
                );
            }
        };
        let store = self.shared.options.token_store.as_ref();
        if let Err(why) = self
            .shared
            .used_once
            .claim(&reviewed.n, reviewed.x, store.map(|s| &*s.0))
            .await
        {
            tracing::warn!(target: "openapi2mcp::audit", tool = %name, "review refused: {why}");
            return Ok(refuse(format!(
                "Not sent: this review of `{name}` was used already ({why}); one review sends one request."
            ))
            .into());
        }
        tracing::info!(target: "openapi2mcp::audit", tool = %name, "confirmed by the user in the MCP Apps review form");
        self.run_call(tool, &name, reviewed.a, None, context).await
    }
}

#[cfg(test)]
#[path = "app_review_tests.rs"]
mod tests;
