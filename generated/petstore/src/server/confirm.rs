//! Asking a person before a call that destroys or writes (`--confirm`).
//!
//! The request is resolved first (method, URL without secrets, body) and
//! shown; nothing reaches the API until the person accepts.
//! - MCP 2026-07-28 clients get an `InputRequiredResult` with a form
//!   elicitation and a sealed `requestState` ([`super::seal`]) bound to the
//!   tool, a digest of the arguments and the caller; the retry carrying the
//!   answer is checked against all three.
//! - Older clients that declared elicitation get an `elicitation/create`
//!   request on their session.
//! - Clients that cannot be asked (no elicitation capability, stateless
//!   HTTP on an older revision) are refused with a clear error, or let
//!   through when the operator said so (`--unconfirmed allow`).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rmcp::model::{
    CallToolResponse, CallToolResult, ClientCapabilities, ContentBlock, ElicitRequest,
    ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationSchema, InputRequest,
    InputRequests, InputRequiredResult, InputResponses,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::Bridge;
use super::protocol::modern;
use super::seal::{SealError, sha256_hex};
use crate::runtime::call::ToolId;
use crate::runtime::catalog::ToolAnnotations;

/// Key of the confirmation in `inputRequests` / `inputResponses`.
pub const CONFIRM_KEY: &str = "confirm";

/// How long a confirmation request stays answerable.
const STATE_TTL: Duration = Duration::from_secs(600);

/// How long an older client's user has to answer `elicitation/create`.
const ELICIT_TIMEOUT: Duration = Duration::from_secs(600);

/// Which calls need a person's confirmation (`--confirm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ConfirmPolicy {
    /// Operations annotated destructive (DELETE, or `x-mcp-annotations`).
    #[default]
    Destructive,
    /// Every operation that is not read-only.
    Writes,
    /// None.
    None,
}

impl ConfirmPolicy {
    /// Whether a tool with these annotations needs confirmation.
    pub fn applies(self, annotations: &ToolAnnotations) -> bool {
        match self {
            ConfirmPolicy::Destructive => {
                !annotations.read_only_hint && annotations.destructive_hint
            }
            ConfirmPolicy::Writes => !annotations.read_only_hint,
            ConfirmPolicy::None => false,
        }
    }
}

/// What to do when the client cannot be asked (`--unconfirmed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Unconfirmable {
    /// Refuse the call; nothing is sent.
    #[default]
    Refuse,
    /// Send it unconfirmed (logged).
    Allow,
}

/// What a 2026-07-28 retry brought back: `inputResponses` and
/// `requestState` (both `None` on a first call).
pub(super) type Retry<'a> = (Option<&'a InputResponses>, Option<&'a str>);

/// The gate's verdict on one call.
pub(super) enum Gate {
    /// Send the request.
    Proceed,
    /// Answer the client with this instead (a question, or a refusal).
    Answer(Box<CallToolResponse>),
}

/// What a sealed confirmation state holds.
#[derive(Debug, Serialize, Deserialize)]
struct State {
    /// Tool name.
    t: String,
    /// Digest of the arguments.
    d: String,
    /// Expiry, seconds since the epoch.
    x: u64,
}

/// Arguments in a canonical form (keys sorted at every level), so that a
/// retry sending the same arguments in another order still matches.
fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), canonical(&map[k])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

fn args_digest(args: &Map<String, Value>) -> String {
    let canonical = canonical(&Value::Object(args.clone()));
    sha256_hex(
        serde_json::to_string(&canonical)
            .unwrap_or_default()
            .as_bytes(),
    )
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// What the person answered, from an `ElicitResult`-shaped value.
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    Accepted,
    Declined,
    Cancelled,
}

fn answer_of(result: &ElicitResult) -> Answer {
    match result.action {
        ElicitationAction::Accept => {
            // A form with `confirm: false` submitted is no acceptance.
            let unticked = result
                .content
                .as_ref()
                .and_then(|c| c.get(CONFIRM_KEY))
                .and_then(Value::as_bool)
                == Some(false);
            if unticked {
                Answer::Declined
            } else {
                Answer::Accepted
            }
        }
        ElicitationAction::Decline => Answer::Declined,
        _ => Answer::Cancelled,
    }
}

fn refusal(text: String) -> CallToolResponse {
    let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
    result.structured_content = None;
    result.into()
}

impl Bridge {
    /// Whether calls of `tool` need confirmation under `--confirm`.
    pub(super) fn needs_confirmation(&self, tool: ToolId) -> bool {
        let policy = self.shared.options.confirm;
        policy != ConfirmPolicy::None
            && self
                .inner
                .heads
                .get(tool.index())
                .is_some_and(|h| policy.applies(&h.annotations))
    }

    /// Decides whether `tool` may be called with `args` now: asks the
    /// person when it needs confirmation and no valid answer came with the
    /// request (`input_responses` and `request_state` of a 2026-07-28
    /// retry).
    pub(super) async fn gate(
        &self,
        tool: ToolId,
        name: &str,
        args: &Map<String, Value>,
        input_responses: Option<&InputResponses>,
        request_state: Option<&str>,
        context: &RequestContext<RoleServer>,
    ) -> Result<Gate, McpError> {
        if !self.needs_confirmation(tool) {
            return Ok(Gate::Proceed);
        }
        let preview = match self.inner.api.preview(tool, args) {
            Ok(preview) => preview,
            // The call cannot be built, so it will be refused before
            // anything is sent: no need to ask.
            Err(_) => return Ok(Gate::Proceed),
        };
        let what = preview.describe();
        let message = format!(
            "`{name}` wants to send this request, which changes data on the API and may not be reversible:\n\n{what}\n\nSend it?"
        );
        let can_elicit = context
            .client_capabilities()
            .is_some_and(|c| c.elicitation.is_some());
        if modern(context) {
            let context_bytes = self.state_context(name, context);
            if let Some(token) = request_state {
                match self.shared.sealer.open(token, &context_bytes) {
                    Ok(bytes) => {
                        let state: Option<State> = serde_json::from_slice(&bytes).ok();
                        let fresh = state.as_ref().is_some_and(|s| {
                            s.t == name && s.d == args_digest(args) && s.x >= now_secs()
                        });
                        let answer = input_responses
                            .and_then(|r| r.get(CONFIRM_KEY))
                            .and_then(|v| serde_json::from_value::<ElicitResult>(v.clone()).ok());
                        // Expired, or the arguments changed since the
                        // question was asked: ask again about these.
                        if let (true, Some(answer)) = (fresh, answer) {
                            return Ok(self.decided(name, &what, answer_of(&answer)));
                        }
                    }
                    Err(SealError::TooLong | SealError::Forged) => {
                        return Err(McpError::invalid_params(
                            format!(
                                "requestState of this `{name}` call was not issued by this server for it (altered, from another call or caller, or from a server with another OPENAPI2MCP_STATE_KEY); call again without requestState to be asked anew"
                            ),
                            None,
                        ));
                    }
                }
            }
            if !can_elicit {
                return self.cannot_ask(name, &what, true);
            }
            let state = State {
                t: name.to_string(),
                d: args_digest(args),
                x: now_secs() + STATE_TTL.as_secs(),
            };
            let sealed = self
                .shared
                .sealer
                .seal(
                    &serde_json::to_vec(&state).unwrap_or_default(),
                    &context_bytes,
                )
                .map_err(|e| McpError::internal_error(e.to_string(), None))?;
            let mut requests = InputRequests::new();
            requests.insert(
                CONFIRM_KEY.to_string(),
                InputRequest::Elicitation(ElicitRequest::new(form(message)?)),
            );
            return Ok(Gate::Answer(Box::new(
                InputRequiredResult::new(Some(requests), Some(sealed)).into(),
            )));
        }
        if !can_elicit || context.peer.peer_info().is_none() {
            return self.cannot_ask(name, &what, false);
        }
        let asked = context
            .peer
            .create_elicitation_with_timeout(form(message)?, Some(ELICIT_TIMEOUT))
            .await;
        match asked {
            Ok(result) => Ok(self.decided(name, &what, answer_of(&result))),
            Err(e) => Ok(Gate::Answer(Box::new(refusal(format!(
                "Not sent: the confirmation of `{name}` could not be obtained ({e}). The request was:\n\n{what}"
            ))))),
        }
    }

    /// Associated data binding a state to the tool and the caller (their
    /// `Authorization` header's digest on HTTP; nothing on stdio).
    fn state_context(&self, name: &str, context: &RequestContext<RoleServer>) -> Vec<u8> {
        let caller = super::protocol::caller_digest(context);
        format!("openapi2mcp/confirm/v1|{name}|{caller}").into_bytes()
    }

    fn decided(&self, name: &str, what: &str, answer: Answer) -> Gate {
        match answer {
            Answer::Accepted => {
                tracing::info!(target: "openapi2mcp::audit", tool = %name, "confirmed by the user");
                Gate::Proceed
            }
            Answer::Declined => Gate::Answer(Box::new(refusal(format!(
                "Not sent: the user declined `{name}`. The request would have been:\n\n{what}\n\nDo not retry it unless the user asks again."
            )))),
            Answer::Cancelled => Gate::Answer(Box::new(refusal(format!(
                "Not sent: the user dismissed the confirmation of `{name}`. The request would have been:\n\n{what}"
            )))),
        }
    }

    fn cannot_ask(&self, name: &str, what: &str, modern: bool) -> Result<Gate, McpError> {
        if self.shared.options.unconfirmed == Unconfirmable::Allow {
            tracing::warn!(target: "openapi2mcp::audit", tool = %name, "sent without confirmation: the client cannot be asked (--unconfirmed allow)");
            return Ok(Gate::Proceed);
        }
        if modern {
            // 2026-07-28: a server must not rely on an undeclared capability.
            let mut required = ClientCapabilities::default();
            required.elicitation = Some(Default::default());
            let mut error = McpError::missing_required_client_capability(required);
            error.message = format!(
                "`{name}` needs a person's confirmation and this client did not declare elicitation; nothing was sent"
            )
            .into();
            return Err(error);
        }
        Ok(Gate::Answer(Box::new(refusal(format!(
            "Not sent: `{name}` changes data and this server asks a person to confirm such calls, but this MCP client cannot be asked (it did not declare elicitation, or has no session). The request would have been:\n\n{what}\n\nThe server's operator can turn confirmation off (--confirm none) or allow unconfirmed calls from such clients (--unconfirmed allow)."
        )))))
    }
}

/// The confirmation form: one checkbox.
fn form(message: String) -> Result<ElicitRequestParams, McpError> {
    let schema: ElicitationSchema = serde_json::from_value(json!({
        "type": "object",
        "properties": {
            CONFIRM_KEY: {
                "type": "boolean",
                "title": "Send this request",
                "default": false
            }
        },
        "required": [CONFIRM_KEY]
    }))
    .map_err(|e| McpError::internal_error(e.to_string(), None))?;
    Ok(ElicitRequestParams::FormElicitationParams {
        meta: None,
        message,
        requested_schema: schema,
    })
}
