//! Asking a person before a call that destroys or writes (`--confirm`).
//!
//! The request is resolved first (method, URL without secrets, body) and
//! shown; nothing reaches the API until the person accepts.
//! - MCP 2026-07-28 clients get an `InputRequiredResult` with a form
//!   elicitation and a sealed `requestState` ([`super::seal`]) bound to the
//!   tool, a digest of the arguments and the caller (the person, see
//!   [`super::protocol::caller_digest`]); the retry carrying the answer is
//!   checked against all three, and an accepted answer sends one request:
//!   its nonce is then used ([`super::once`]), so a replay is refused.
//! - Older clients that declared elicitation get an `elicitation/create`
//!   request on their session.
//! - Hosts that render MCP Apps and cannot be asked (claude.ai, Claude
//!   Desktop) get the call held for the review form of
//!   [`super::app_review`]: only the form's Send sends it, once.
//! - Other clients that cannot be asked (no elicitation capability,
//!   stateless HTTP on an older revision: Gemini CLI and opencode declare
//!   none) get the call sent by default, logged: the tool
//!   is annotated destructive, and those hosts ask their person before a
//!   tool call themselves; refusing would leave a destructive tool listed
//!   that no call of theirs could ever send. `--unconfirmed refuse` refuses
//!   such calls with an error saying why instead.

use std::time::Duration;

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
use super::ask;
use super::once::ClaimError;
use super::protocol::modern;
use super::seal::{MAX_STATE_CHARS, SealError, sha256_hex};
use openapi2mcp_runtime::auth::login::now_secs;
use openapi2mcp_runtime::call::ToolId;
use openapi2mcp_runtime::catalog::ToolAnnotations;

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
    Refuse,
    /// Send it, relying on the host's own approval of tool calls (the
    /// tool is annotated destructive); logged. The default: the hosts that
    /// declare no elicitation ask their person before every call they
    /// have not been told to trust.
    #[default]
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
    /// The question asked.
    q: Question,
    /// Arguments the person gave in earlier rounds (the retry resends
    /// only the model's original arguments).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    a: Option<Map<String, Value>>,
    /// A random nonce: an accepted confirmation is used once
    /// ([`super::once`]), however often its state is sent back.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    n: String,
}

/// Which question a sealed state answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(super) enum Question {
    /// The person's login to the API ([`super::connect::LOGIN_KEY`]).
    #[serde(rename = "l")]
    Login,
    /// The missing-arguments form ([`ask::ARGS_KEY`]).
    #[serde(rename = "a")]
    Arguments,
    /// The confirmation ([`CONFIRM_KEY`]).
    #[serde(rename = "c")]
    Confirm,
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
    sha256_hex(openapi2mcp_runtime::exact::json_text(&canonical).as_bytes())
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
    /// person for required arguments the call lacks (`--ask-missing`,
    /// merging the answers into `args`) and for confirmation when it needs
    /// one and no valid answer came with the request (`input_responses`
    /// and `request_state` of a 2026-07-28 retry).
    pub(super) async fn gate(
        &self,
        tool: ToolId,
        name: &str,
        args: &mut Map<String, Value>,
        input_responses: Option<&InputResponses>,
        request_state: Option<&str>,
        context: &RequestContext<RoleServer>,
    ) -> Result<Gate, McpError> {
        if let Some(gate) = self
            .login_gate(tool, name, args, (input_responses, request_state), context)
            .await?
        {
            return Ok(gate);
        }
        let confirm = self.needs_confirmation(tool);
        let endpoint = self.inner.api.tool(tool);
        let schema = endpoint
            .input_full
            .as_deref()
            .unwrap_or(&endpoint.input_schema);
        let ask_missing = self.shared.options.ask_missing
            && (ask::lacks_required(schema, args) || request_state.is_some());
        if !confirm && !ask_missing {
            return Ok(Gate::Proceed);
        }
        let can_elicit = context
            .client_capabilities()
            .is_some_and(|c| c.elicitation.is_some());
        if modern(context) {
            return self
                .gate_modern(
                    tool,
                    name,
                    args,
                    (input_responses, request_state),
                    can_elicit,
                    context,
                )
                .await;
        }
        let session = can_elicit && context.peer.peer_info().is_some();
        if self.shared.options.ask_missing
            && session
            && let Some(missing) = self.missing_args(tool, args)
        {
            let asked = context
                .peer
                .create_elicitation_with_timeout(missing.request(name), Some(ELICIT_TIMEOUT))
                .await;
            match asked {
                Ok(result) => match self.take_answers(name, &missing, &result) {
                    Ok(values) => args.extend(values),
                    Err(refusal) => return Ok(refusal),
                },
                Err(e) => {
                    return Ok(Gate::Answer(Box::new(refusal(format!(
                        "Not sent: `{name}` lacks {} and they could not be asked for ({e}).",
                        missing.names()
                    )))));
                }
            }
        }
        if !confirm {
            return Ok(Gate::Proceed);
        }
        let Some(what) = self.resolved_request(tool, args) else {
            return Ok(Gate::Proceed);
        };
        if !session {
            if super::app_review::declares_apps(context) {
                return self.review(tool, name, args, &what, context);
            }
            return self.cannot_ask(name, &what, false);
        }
        let asked = context
            .peer
            .create_elicitation_with_timeout(
                form(confirm_message(name, &what))?,
                Some(ELICIT_TIMEOUT),
            )
            .await;
        match asked {
            Ok(result) => Ok(self.decided(name, &what, answer_of(&result))),
            Err(e) => Ok(Gate::Answer(Box::new(refusal(format!(
                "Not sent: the confirmation of `{name}` could not be obtained ({e}). The request was:\n\n{what}"
            ))))),
        }
    }

    /// The gate on a 2026-07-28 request: each question is an
    /// `InputRequiredResult` whose sealed state carries what was asked
    /// (and the arguments given so far), checked when the client retries.
    async fn gate_modern(
        &self,
        tool: ToolId,
        name: &str,
        args: &mut Map<String, Value>,
        (input_responses, request_state): Retry<'_>,
        can_elicit: bool,
        context: &RequestContext<RoleServer>,
    ) -> Result<Gate, McpError> {
        let context_bytes = self.state_context(name, context);
        let digest = args_digest(args);
        let mut asked: Option<State> = None;
        if let Some(token) = request_state {
            match self.shared.sealer.open(token, &context_bytes) {
                Ok(bytes) => {
                    // Expired, or the arguments changed since the question
                    // was asked: ask again about these.
                    // A confirmation without a nonce (sealed before
                    // confirmations were single-use) is asked anew.
                    asked = serde_json::from_slice::<State>(&bytes).ok().filter(|s| {
                        s.t == name
                            && s.d == digest
                            && s.x >= now_secs()
                            && (s.q != Question::Confirm || !s.n.is_empty())
                    });
                }
                Err(SealError::TooLong | SealError::Forged) => return Err(forged_state(name)),
            }
        }
        let response = |key: &str| {
            input_responses
                .and_then(|r| r.get(key))
                .and_then(|v| serde_json::from_value::<ElicitResult>(v.clone()).ok())
        };
        // Arguments given in earlier rounds, then this round's answers.
        let mut given = asked.as_ref().and_then(|s| s.a.clone()).unwrap_or_default();
        for (key, value) in &given {
            args.entry(key.clone()).or_insert_with(|| value.clone());
        }
        if let Some(state) = &asked
            && state.q == Question::Arguments
            && let Some(answer) = response(ask::ARGS_KEY)
            && let Some(missing) = self.missing_args(tool, args)
        {
            match self.take_answers(name, &missing, &answer) {
                Ok(values) => {
                    for (key, value) in values {
                        given.insert(key.clone(), value.clone());
                        args.insert(key, value);
                    }
                }
                Err(refusal) => return Ok(refusal),
            }
        }
        let seal = |question: Question, given: &Map<String, Value>| -> Result<String, McpError> {
            let state = State {
                t: name.to_string(),
                d: digest.clone(),
                x: now_secs() + STATE_TTL.as_secs(),
                q: question,
                a: (!given.is_empty()).then(|| given.clone()),
                n: nonce()?,
            };
            let token = self
                .shared
                .sealer
                .seal(
                    &serde_json::to_vec(&state).unwrap_or_default(),
                    &context_bytes,
                )
                .map_err(|e| McpError::internal_error(e.to_string(), None))?;
            if token.len() > MAX_STATE_CHARS {
                return Err(McpError::invalid_params(
                    format!(
                        "the answers given for `{name}` are too long to carry between rounds ({} characters of requestState, at most {MAX_STATE_CHARS}); pass them as arguments instead",
                        token.len()
                    ),
                    None,
                ));
            }
            Ok(token)
        };
        let ask = |key: &str, params: ElicitRequestParams, token: String| {
            let mut requests = InputRequests::new();
            requests.insert(
                key.to_string(),
                InputRequest::Elicitation(ElicitRequest::new(params)),
            );
            Gate::Answer(Box::new(
                InputRequiredResult::new(Some(requests), Some(token)).into(),
            ))
        };
        if self.shared.options.ask_missing
            && can_elicit
            && let Some(missing) = self.missing_args(tool, args)
        {
            let token = seal(Question::Arguments, &given)?;
            return Ok(ask(ask::ARGS_KEY, missing.request(name), token));
        }
        if !self.needs_confirmation(tool) {
            return Ok(Gate::Proceed);
        }
        let Some(what) = self.resolved_request(tool, args) else {
            return Ok(Gate::Proceed);
        };
        // Only an answer to the confirmation question, asked about these
        // arguments, confirms.
        if let Some(state) = &asked
            && state.q == Question::Confirm
            && let Some(answer) = response(CONFIRM_KEY)
        {
            let answer = answer_of(&answer);
            if answer == Answer::Accepted
                && let Err(why) = self.use_confirmation(state).await
            {
                return Ok(Gate::Answer(Box::new(refusal(match why {
                    ClaimError::Used => format!(
                        "Not sent: this confirmation of `{name}` was used already; one confirmation sends one request. Call `{name}` again without requestState to ask the person again."
                    ),
                    other => format!(
                        "Not sent: the confirmation of `{name}` could not be recorded as used ({other}), so it was not trusted. The request would have been:\n\n{what}"
                    ),
                }))));
            }
            return Ok(self.decided(name, &what, answer));
        }
        if !can_elicit {
            if super::app_review::declares_apps(context) {
                return self.review(tool, name, args, &what, context);
            }
            return self.cannot_ask(name, &what, true);
        }
        let token = seal(Question::Confirm, &given)?;
        Ok(ask(CONFIRM_KEY, form(confirm_message(name, &what))?, token))
    }

    /// The question a 2026-07-28 retry's `requestState` answers, when this
    /// server sealed it for this call (same tool, arguments and caller)
    /// and it has not expired; a forged state is an error.
    pub(super) fn opened_question(
        &self,
        name: &str,
        args: &Map<String, Value>,
        token: &str,
        context: &RequestContext<RoleServer>,
    ) -> Result<Option<Question>, McpError> {
        let bytes = self
            .shared
            .sealer
            .open(token, &self.state_context(name, context))
            .map_err(|_| forged_state(name))?;
        Ok(serde_json::from_slice::<State>(&bytes)
            .ok()
            .filter(|s| s.t == name && s.d == args_digest(args) && s.x >= now_secs())
            .map(|s| s.q))
    }

    /// The sealed state of a login question about this call.
    pub(super) fn seal_login_question(
        &self,
        name: &str,
        args: &Map<String, Value>,
        context: &RequestContext<RoleServer>,
    ) -> Result<String, McpError> {
        let state = State {
            t: name.to_string(),
            d: args_digest(args),
            x: now_secs() + STATE_TTL.as_secs(),
            q: Question::Login,
            a: None,
            n: nonce()?,
        };
        self.shared
            .sealer
            .seal(
                &serde_json::to_vec(&state).unwrap_or_default(),
                &self.state_context(name, context),
            )
            .map_err(|e| McpError::internal_error(e.to_string(), None))
    }

    /// The resolved request shown for confirmation; `None` when the call
    /// cannot be built (it is then refused before anything is sent, so
    /// there is nothing to ask).
    fn resolved_request(&self, tool: ToolId, args: &Map<String, Value>) -> Option<String> {
        if let Some(workflow) = self.workflow_request(tool, args) {
            return workflow;
        }
        self.inner
            .api
            .preview(tool, args)
            .ok()
            .map(|preview| preview.describe())
    }

    /// The form asking for the required arguments `args` lack, when they
    /// lack nothing else (other errors are the model's to mend) and each
    /// fits in a form.
    fn missing_args(&self, tool: ToolId, args: &Map<String, Value>) -> Option<ask::MissingArgs> {
        let endpoint = self.inner.api.tool(tool);
        let schema = endpoint
            .input_full
            .as_deref()
            .unwrap_or(&endpoint.input_schema);
        let missing = ask::missing(schema, args)?;
        self.inner
            .api
            .lacks_only_required(tool, args)
            .then_some(missing)
    }

    /// The values of a missing-arguments answer, or the refusal to send.
    fn take_answers(
        &self,
        name: &str,
        missing: &ask::MissingArgs,
        answer: &ElicitResult,
    ) -> Result<Map<String, Value>, Gate> {
        let refuse = |text: String| Gate::Answer(Box::new(refusal(text)));
        match answer.action {
            ElicitationAction::Accept => {
                let content = answer
                    .content
                    .as_ref()
                    .and_then(Value::as_object)
                    .cloned()
                    .unwrap_or_default();
                missing.answers(&content).map_err(|why| {
                    refuse(format!(
                        "Not sent: the values given for `{name}` cannot be used: {why}. Call it again with {} as arguments.",
                        missing.names()
                    ))
                })
            }
            ElicitationAction::Decline => Err(refuse(format!(
                "Not sent: the user declined to give {} for `{name}`. Do not retry it unless the user asks again.",
                missing.names()
            ))),
            _ => Err(refuse(format!(
                "Not sent: the user dismissed the request for {} of `{name}`.",
                missing.names()
            ))),
        }
    }

    /// Associated data binding a state to the tool and the caller (the
    /// person a validated token names, else the `Authorization` header's
    /// digest on HTTP; nothing on stdio): [`super::protocol::caller_digest`].
    fn state_context(&self, name: &str, context: &RequestContext<RoleServer>) -> Vec<u8> {
        let caller = super::protocol::caller_digest(context);
        format!("openapi2mcp/confirm/v1|{name}|{caller}").into_bytes()
    }

    /// Marks an accepted confirmation's nonce used: in the shared token
    /// store when there is one (every instance then refuses a replay),
    /// else in this process.
    async fn use_confirmation(&self, state: &State) -> Result<(), ClaimError> {
        let store = self.shared.options.token_store.as_ref();
        let result = self
            .shared
            .used_once
            .claim(&state.n, state.x, store.map(|s| &*s.0))
            .await;
        if let Err(e) = &result {
            tracing::warn!(target: "openapi2mcp::audit", tool = %state.t, "confirmation refused: {e}");
        }
        result
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
            tracing::warn!(target: "openapi2mcp::audit", tool = %name, "sent without this server's confirmation: the client cannot be asked, so the host's own approval of tool calls is relied on (--unconfirmed refuse refuses such calls)");
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
            "Not sent: `{name}` changes data and this server asks a person to confirm such calls, but this MCP client cannot be asked (it did not declare elicitation, or has no session). The request would have been:\n\n{what}\n\nThis server refuses such calls from clients that cannot be asked (--unconfirmed refuse); its operator can send them relying on the host's own approval of tool calls (--unconfirmed allow, the default) or turn confirmation off (--confirm none)."
        )))))
    }
}

/// A fresh random nonce for a sealed state.
fn nonce() -> Result<String, McpError> {
    let nonce = super::connect::random_token();
    if nonce.is_empty() {
        return Err(McpError::internal_error(
            "the system random generator failed",
            None,
        ));
    }
    Ok(nonce)
}

/// The error for a `requestState` this server did not seal for the call.
fn forged_state(name: &str) -> McpError {
    McpError::invalid_params(
        format!(
            "requestState of this `{name}` call was not issued by this server for it (altered, from another call or caller, or from a server with another OPENAPI2MCP_STATE_KEY); call again without requestState to be asked anew"
        ),
        None,
    )
}

/// What the confirmation says.
fn confirm_message(name: &str, what: &str) -> String {
    format!(
        "`{name}` wants to send this request, which changes data on the API and may not be reversible:\n\n{what}\n\nSend it?"
    )
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

#[cfg(test)]
#[path = "confirm_tests.rs"]
mod tests;
