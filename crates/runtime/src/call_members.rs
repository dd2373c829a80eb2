//! The APIs an [`Api`] calls. A server made from one document calls one
//! API; `serve --config` serves several documents through one endpoint,
//! each with its own base URL, credentials, headers, HTTP options and
//! schemas. Their tools sit side by side in one list (each API's a
//! contiguous range), so everything that works on the list (listing
//! modes, search, code mode) spans every API, while each call goes out
//! through its own API's [`Channel`] and options.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use super::super::auth::Authenticator;
use super::super::binding::SecurityScheme;
use super::super::http::HttpClient;
use super::super::lro::Channel;
use super::super::ratelimit::RateLimiter;
use super::super::schemas::SchemaSource;
use super::{Api, ApiOptions, EndpointSource, ToolId};

/// One API of a server, as given to [`Api::with_members`].
#[derive(Debug, Clone)]
pub struct ApiMember {
    /// What logs and resource names call it (`""` when it is the only one).
    pub label: String,
    /// Position of its first tool in the server's list; its tools run up
    /// to the next member's first.
    pub first: usize,
    /// Its document's security schemes.
    pub security_schemes: BTreeMap<String, SecurityScheme>,
    /// How its calls reach it.
    pub options: ApiOptions,
}

/// An [`ApiMember`] ready to call.
pub(super) struct Member {
    pub(super) label: String,
    pub(super) first: usize,
    /// The client, credentials and rate limit, shared with the monitors
    /// of long-running operations.
    pub(super) channel: Channel,
    pub(super) options: ApiOptions,
}

/// The separator of an API's label and a component's key in the resource
/// names of a server of several APIs (`github:repository`): not a
/// character of labels.
pub const LABEL_SEPARATOR: char = ':';

impl Api {
    /// Prepares the HTTP client and the authenticator for the tools called
    /// `names` (in tool order), whose endpoints come from `source` when
    /// first needed.
    pub fn new(
        security_schemes: &BTreeMap<String, SecurityScheme>,
        names: Vec<String>,
        source: Arc<dyn EndpointSource>,
        options: ApiOptions,
    ) -> Result<Self, String> {
        let only = ApiMember {
            label: String::new(),
            first: 0,
            security_schemes: security_schemes.clone(),
            options,
        };
        Self::with_members(names, source, vec![only])
    }

    /// [`Api::new`] for tools of several APIs: `members` in tool order,
    /// the first starting at tool 0.
    pub fn with_members(
        names: Vec<String>,
        source: Arc<dyn EndpointSource>,
        members: Vec<ApiMember>,
    ) -> Result<Self, String> {
        if members.first().is_none_or(|m| m.first != 0) {
            return Err("the first API must start at tool 0".into());
        }
        if members.windows(2).any(|w| w[0].first > w[1].first) {
            return Err("APIs must be given in tool order".into());
        }
        let members = members.into_iter().map(Member::new).collect();
        let slots = names.iter().map(|_| OnceLock::new()).collect();
        let by_name = names.into_iter().enumerate().map(|(i, n)| (n, i)).collect();
        Ok(Self {
            slots,
            source,
            by_name,
            members,
        })
    }

    /// The API `tool` belongs to.
    pub(super) fn member(&self, tool: ToolId) -> &Member {
        self.member_at(tool.0)
    }

    fn member_at(&self, index: usize) -> &Member {
        let after = self.members.partition_point(|m| m.first <= index);
        &self.members[after.saturating_sub(1)]
    }

    /// One line per security scheme of each API: whether credentials are
    /// configured and which variables are read; one per `--header`.
    /// Never contains secrets.
    pub fn describe_auth(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for member in &self.members {
            let mut own = member.channel.auth.describe();
            for name in member.channel.headers.names() {
                own.push(format!("header {name}: set on every request (--header)"));
            }
            if member.label.is_empty() {
                lines.extend(own);
            } else {
                lines.extend(own.into_iter().map(|l| format!("{}: {l}", member.label)));
            }
        }
        lines
    }

    /// What authenticates the calls of the first API (people's logins
    /// included); [`Api::authenticator_of`] for a given tool's.
    pub fn authenticator(&self) -> &Authenticator {
        &self.members[0].channel.auth
    }

    /// What authenticates `tool`'s calls.
    pub fn authenticator_of(&self, tool: ToolId) -> &Authenticator {
        &self.member(tool).channel.auth
    }

    /// Every API's authenticator, with its label.
    pub fn authenticators(&self) -> impl Iterator<Item = (&str, &Authenticator)> {
        self.members
            .iter()
            .map(|m| (m.label.as_str(), &*m.channel.auth))
    }

    /// Where `tool`'s full schemas come from (its document's).
    pub fn schemas_of(&self, tool: ToolId) -> &dyn SchemaSource {
        &*self.member(tool).options.schemas.0
    }

    /// Where the full schemas of the first API come from.
    pub fn schemas(&self) -> &dyn SchemaSource {
        &*self.members[0].options.schemas.0
    }

    /// The component schemas served as resources: their keys, prefixed
    /// with the API's label and [`LABEL_SEPARATOR`] when there are several
    /// APIs.
    pub fn components(&self) -> Vec<String> {
        let mut out = Vec::new();
        for member in &self.members {
            let keys = member.options.schemas.0.components();
            if self.members.len() == 1 {
                return keys;
            }
            out.extend(
                keys.into_iter()
                    .map(|k| format!("{}{LABEL_SEPARATOR}{k}", member.label)),
            );
        }
        out
    }

    /// The schema source and own key of a resource name from
    /// [`Api::components`].
    pub fn component_source<'a>(
        &'a self,
        name: &'a str,
    ) -> Option<(&'a dyn SchemaSource, &'a str)> {
        if self.members.len() == 1 {
            return Some((self.schemas(), name));
        }
        let (label, key) = name.split_once(LABEL_SEPARATOR)?;
        let member = self.members.iter().find(|m| m.label == label)?;
        Some((&*member.options.schemas.0, key))
    }

    /// The API description as JSON text, when the server calls one API
    /// and has it (several documents are not one resource).
    pub fn document_json(&self) -> Option<Arc<str>> {
        match self.members.as_slice() {
            [only] => only.options.schemas.0.document_json(),
            _ => None,
        }
    }
}

impl Member {
    fn new(member: ApiMember) -> Self {
        let ApiMember {
            label,
            first,
            security_schemes,
            options,
        } = member;
        let client = HttpClient::new(options.http.clone());
        let auth = Arc::new(Authenticator::with_store(
            &security_schemes,
            &options.credentials,
            client.reqwest().clone(),
            options.token_store.as_ref().map(|s| Arc::clone(&s.0)),
        ));
        Self {
            label,
            first,
            channel: Channel {
                client,
                auth,
                limiter: options
                    .rate_limit
                    .map(|(rate, burst)| Arc::new(RateLimiter::new(rate, burst))),
                headers: Arc::clone(&options.headers),
            },
            options,
        }
    }
}
