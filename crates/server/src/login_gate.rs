//! The question a call asks when it needs the caller's own login to the
//! API and finds none (or one granted too few scopes): a URL elicitation
//! to the login pages of [`super::connect`] (MCP 2026-07-28
//! `InputRequiredResult`, or `elicitation/create` on an older session), or
//! the link in the result for clients that cannot open one; on the retry,
//! a wait for the login to complete.
//!
//! Most hosts cannot open a URL elicitation (Claude Code, claude.ai,
//! Cursor; VS Code can): for them the link in the result is all a person
//! sees, so it says what to open, for how long it works, and what to do
//! next; and the model's retry waits (up to `--handle-after`, at most a
//! minute) for a login still under way instead of answering with another
//! link, so the retry works whenever it comes. The links handed out are
//! remembered per person and scheme until they expire ([`PendingLogins`],
//! in memory: with several instances, a retry on another one gets a new
//! link).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolResult, ContentBlock, ElicitRequest, ElicitRequestParams, ElicitResult,
    ElicitationAction, InputRequest, InputRequests, InputRequiredResult,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};
use serde_json::{Map, Value};

use super::Bridge;
use super::confirm::{Gate, Retry};
use super::connect::{
    LINK_TTL, LOGIN_KEY, LOGIN_POLL, LOGIN_WAIT, LoginPages, TICKET_AAD, Ticket, random_token,
};
use openapi2mcp_runtime::auth::login::{LoginClient, as_user, now_secs};
use openapi2mcp_runtime::call::ToolId;

/// Login links handed out in results and not yet expired, per person and
/// security scheme: a retry of a call whose link is out waits for the
/// login instead of answering with another link.
#[derive(Default)]
pub(super) struct PendingLogins(Mutex<HashMap<(String, String), Instant>>);

/// Links remembered at once; past it, a new one is not remembered (its
/// retry answers with a new link instead of waiting).
const PENDING_CAP: usize = 10_000;

impl PendingLogins {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<(String, String), Instant>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Remembers a link for `person` and `scheme` until `LINK_TTL` ends.
    fn note(&self, person: &str, scheme: &str) {
        let mut map = self.map();
        let now = Instant::now();
        map.retain(|_, expires| *expires > now);
        if map.len() < PENDING_CAP {
            map.insert((person.to_string(), scheme.to_string()), now + LINK_TTL);
        }
    }

    /// Whether a link for `person` and `scheme` is out and unexpired.
    fn out(&self, person: &str, scheme: &str) -> bool {
        self.map()
            .get(&(person.to_string(), scheme.to_string()))
            .is_some_and(|expires| *expires > Instant::now())
    }

    /// Forgets the link of `person` and `scheme` (the login came).
    fn done(&self, person: &str, scheme: &str) {
        self.map().remove(&(person.to_string(), scheme.to_string()));
    }
}

fn refusal(text: String) -> Gate {
    let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
    result.structured_content = None;
    Gate::Answer(Box::new(result.into()))
}

impl Bridge {
    /// Says that people log in through this server's pages at `pages`
    /// (HTTP with `--oauth-issuer` and a token store).
    pub fn set_login_pages(&self, pages: LoginPages) {
        let _ = self.shared.login_pages.set(pages);
    }

    /// The login client of `scheme` in the current catalog, and its store.
    pub(super) async fn login_client(
        &self,
        scheme: &str,
    ) -> Result<
        (
            LoginClient,
            Arc<dyn openapi2mcp_runtime::auth::store::TokenStore>,
        ),
        String,
    > {
        let inner = self.shared.current.load_full();
        // Several APIs (`serve --config`): the one whose document has the
        // scheme (their login schemes have distinct names).
        for (_, auth) in inner.api.authenticators() {
            if let Some(r) = auth.login_client(scheme).await {
                return r.map_err(|e| e.to_string());
            }
        }
        Err(format!(
            "security scheme `{scheme}` is not served with people's logins"
        ))
    }

    /// The login `tool` needs of `person`, when they have none (or one
    /// granted fewer scopes than it needs).
    async fn login_needed(
        &self,
        tool: ToolId,
        person: &str,
    ) -> Option<openapi2mcp_runtime::auth::LoginNeed> {
        let security = &self.inner.api.tool(tool).http.security;
        let auth = self.inner.api.authenticator_of(tool);
        as_user(Some(person.to_string()), auth.login_needed(security))
            .await
            .ok()
            .flatten()
    }

    /// Before a call on the HTTP server: when it needs the caller's own
    /// login to the API and they have none, asks them to log in (a URL
    /// elicitation to the login pages) and, on the retry, waits a while
    /// for the login to complete.
    pub(super) async fn login_gate(
        &self,
        tool: ToolId,
        name: &str,
        args: &Map<String, Value>,
        (input_responses, request_state): Retry<'_>,
        context: &RequestContext<RoleServer>,
    ) -> Result<Option<Gate>, McpError> {
        let Some(pages) = self.shared.login_pages.get() else {
            return Ok(None);
        };
        let parts = context.extensions.get::<axum::http::request::Parts>();
        let Some(person) = parts
            .and_then(|p| p.extensions.get::<super::authz::Principal>())
            .and_then(super::run::person_id)
        else {
            return Ok(None);
        };
        let Some(need) = self.login_needed(tool, &person).await else {
            return Ok(None);
        };
        let scheme = need.scheme.clone();
        let ticket = Ticket {
            p: person.clone(),
            s: scheme.clone(),
            c: need.scopes.clone(),
            x: now_secs() + LINK_TTL.as_secs(),
        };
        let ticket = self
            .shared
            .sealer
            .seal(&serde_json::to_vec(&ticket).unwrap_or_default(), TICKET_AAD)
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        let link = pages.connect(&ticket);
        let message = if need.scopes.is_empty() {
            format!(
                "`{name}` calls the API as you, and you have not logged in to it yet (security scheme `{scheme}`). Open this page to log in; your assistant will not see your credentials."
            )
        } else {
            format!(
                "`{name}` needs more access to the API than you granted (security scheme `{scheme}`, scopes {}). Open this page to log in again and allow it; your assistant will not see your credentials.",
                need.scopes.join(" ")
            )
        };
        let can_open = context
            .client_capabilities()
            .is_some_and(|c| c.elicitation.as_ref().is_some_and(|e| e.url.is_some()));
        tracing::debug!(
            modern = super::protocol::modern(context),
            can_open,
            "a call needs the caller's login to the API"
        );
        if super::protocol::modern(context) {
            let answered = self.login_answer(name, args, input_responses, request_state, context);
            match answered? {
                Some(ElicitationAction::Accept)
                    if self
                        .wait_for_login(tool, &person, context, LOGIN_WAIT)
                        .await =>
                {
                    return Ok(None);
                }
                Some(ElicitationAction::Accept) => {}
                Some(ElicitationAction::Decline) => {
                    return Ok(Some(refusal(format!(
                        "Not sent: `{name}` needs you to log in to the API (security scheme `{scheme}`) and you declined. Do not retry it unless the user asks again."
                    ))));
                }
                Some(_) => {
                    return Ok(Some(refusal(format!(
                        "Not sent: the login `{name}` needs (security scheme `{scheme}`) was dismissed."
                    ))));
                }
                None => {}
            }
            if !can_open {
                return Ok(self
                    .link_path(tool, name, &person, &need, &link, context)
                    .await);
            }
            let state = self.seal_login_question(name, args, context)?;
            let mut requests = InputRequests::new();
            requests.insert(
                LOGIN_KEY.to_string(),
                InputRequest::Elicitation(ElicitRequest::new(
                    ElicitRequestParams::UrlElicitationParams {
                        meta: None,
                        message,
                        url: link,
                        elicitation_id: String::new(),
                    },
                )),
            );
            return Ok(Some(Gate::Answer(Box::new(
                InputRequiredResult::new(Some(requests), Some(state)).into(),
            ))));
        }
        if !can_open || context.peer.peer_info().is_none() {
            return Ok(self
                .link_path(tool, name, &person, &need, &link, context)
                .await);
        }
        let Ok(url) = url::Url::parse(&link) else {
            return Ok(self
                .link_path(tool, name, &person, &need, &link, context)
                .await);
        };
        let asked = context
            .peer
            .elicit_url_with_timeout(message, url, random_token(), Some(LINK_TTL))
            .await;
        match asked {
            Ok(ElicitationAction::Accept) => {
                if self
                    .wait_for_login(tool, &person, context, LOGIN_WAIT)
                    .await
                {
                    Ok(None)
                } else {
                    Ok(Some(refusal(format!(
                        "Not sent: the login to the API (security scheme `{scheme}`) was not completed within {} seconds. Call `{name}` again once logged in.",
                        LOGIN_WAIT.as_secs()
                    ))))
                }
            }
            Ok(ElicitationAction::Decline) => Ok(Some(refusal(format!(
                "Not sent: `{name}` needs you to log in to the API (security scheme `{scheme}`) and you declined."
            )))),
            Ok(_) => Ok(Some(refusal(format!(
                "Not sent: the login `{name}` needs (security scheme `{scheme}`) was dismissed."
            )))),
            Err(e) => {
                tracing::debug!("URL elicitation failed: {e}");
                Ok(self
                    .link_path(tool, name, &person, &need, &link, context)
                    .await)
            }
        }
    }

    /// For a client that cannot open a login page itself: the first call
    /// gets `link` in its result, with what to do; a retry while that
    /// link is out waits for the login and goes on (`None`) once it has
    /// come, else says it has not, with a fresh link.
    async fn link_path(
        &self,
        tool: ToolId,
        name: &str,
        person: &str,
        need: &openapi2mcp_runtime::auth::LoginNeed,
        link: &str,
        context: &RequestContext<RoleServer>,
    ) -> Option<Gate> {
        let scheme = &need.scheme;
        let pending = &self.shared.pending_logins;
        let wait = self.retry_login_wait();
        let valid = LINK_TTL.as_secs() / 60;
        if pending.out(person, scheme) {
            if self.wait_for_login(tool, person, context, wait).await {
                pending.done(person, scheme);
                return None;
            }
            pending.note(person, scheme);
            return Some(refusal(format!(
                "Not sent: the user has not finished logging in to the API yet (security scheme `{scheme}`; waited {} s). If they have not opened the login link, they can open this one (it works only for them, for {valid} minutes):\n\n{link}\n\nCall `{name}` again with the same arguments once they say they have logged in.",
                wait.as_secs()
            )));
        }
        pending.note(person, scheme);
        let why = if need.scopes.is_empty() {
            format!(
                "calls the API as the user, who has not logged in to it yet (security scheme `{scheme}`)"
            )
        } else {
            format!(
                "needs more access to the API than the user granted (security scheme `{scheme}`, scopes {})",
                need.scopes.join(" ")
            )
        };
        Some(refusal(format!(
            "Not sent: `{name}` {why}, and this client cannot open the login page itself. To go on:\n1. Ask the user to open this link in their browser and log in. It works only for them, for the next {valid} minutes; you never see their credentials.\n\n{link}\n\n2. Then call `{name}` again with the same arguments. If the login is still under way, the call waits up to {} s for it to finish, then runs.",
            wait.as_secs()
        )))
    }

    /// How long a retry waits for a login under way: `--handle-after`
    /// (under the client's likely timeout), at most [`LOGIN_WAIT`].
    fn retry_login_wait(&self) -> Duration {
        self.shared
            .options
            .handle_after
            .unwrap_or(super::handles::DEFAULT_HANDLE_AFTER)
            .min(LOGIN_WAIT)
    }

    /// The answer to an earlier login question of this call, when the
    /// retry brings one with a state this server sealed for it.
    fn login_answer(
        &self,
        name: &str,
        args: &Map<String, Value>,
        input_responses: Option<&rmcp::model::InputResponses>,
        request_state: Option<&str>,
        context: &RequestContext<RoleServer>,
    ) -> Result<Option<ElicitationAction>, McpError> {
        let (Some(state), Some(answer)) = (
            request_state,
            input_responses
                .and_then(|r| r.get(LOGIN_KEY))
                .and_then(|v| serde_json::from_value::<ElicitResult>(v.clone()).ok()),
        ) else {
            return Ok(None);
        };
        Ok(self
            .opened_question(name, args, state, context)?
            .filter(|q| *q == super::confirm::Question::Login)
            .map(|_| answer.action))
    }

    /// Waits (at most `wait`, or until the request is cancelled) for
    /// `person`'s login `tool` needs; whether it came.
    async fn wait_for_login(
        &self,
        tool: ToolId,
        person: &str,
        context: &RequestContext<RoleServer>,
        wait: Duration,
    ) -> bool {
        let rounds = (wait.as_millis() / LOGIN_POLL.as_millis()).max(1);
        for _ in 0..rounds {
            if self.login_needed(tool, person).await.is_none() {
                return true;
            }
            tokio::select! {
                () = tokio::time::sleep(LOGIN_POLL) => {}
                () = context.ct.cancelled() => return false,
            }
        }
        self.login_needed(tool, person).await.is_none()
    }
}
