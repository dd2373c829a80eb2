//! The question a call asks when it needs the caller's own login to the
//! API and finds none (or one granted too few scopes): a URL elicitation
//! to the login pages of [`super::connect`] (MCP 2026-07-28
//! `InputRequiredResult`, or `elicitation/create` on an older session), or
//! the link in the result for clients that cannot open one; on the retry,
//! a wait for the login to complete.

use std::sync::Arc;

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
                    if self.wait_for_login(tool, &person, context).await =>
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
                return Ok(Some(self.link_in_text(name, &scheme, &link)));
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
            return Ok(Some(self.link_in_text(name, &scheme, &link)));
        }
        let Ok(url) = url::Url::parse(&link) else {
            return Ok(Some(self.link_in_text(name, &scheme, &link)));
        };
        let asked = context
            .peer
            .elicit_url_with_timeout(message, url, random_token(), Some(LINK_TTL))
            .await;
        match asked {
            Ok(ElicitationAction::Accept) => {
                if self.wait_for_login(tool, &person, context).await {
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
                Ok(Some(self.link_in_text(name, &scheme, &link)))
            }
        }
    }

    /// A result telling the model to have the person open `link`, for
    /// clients that cannot open one themselves.
    fn link_in_text(&self, name: &str, scheme: &str, link: &str) -> Gate {
        refusal(format!(
            "Not sent: `{name}` calls the API as the user, who has not logged in to it yet (security scheme `{scheme}`), and this client cannot open a login page itself. Ask the user to open this link in a browser to log in (it works only for them), then call `{name}` again:\n\n{link}"
        ))
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

    /// Waits (at most [`LOGIN_WAIT`], or until the request is cancelled)
    /// for `person`'s login `tool` needs; whether it came.
    async fn wait_for_login(
        &self,
        tool: ToolId,
        person: &str,
        context: &RequestContext<RoleServer>,
    ) -> bool {
        let rounds = (LOGIN_WAIT.as_millis() / LOGIN_POLL.as_millis()).max(1);
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
