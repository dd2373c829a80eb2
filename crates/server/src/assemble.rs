//! Parts of a catalog's server state built once per catalog (at start-up
//! and on every reload): the APIs its tools call, and its search index.

use std::sync::Arc;
use std::time::Instant;

use super::ServeOptions;
use openapi2mcp_runtime::call::{ApiMember, ApiOptions};
use openapi2mcp_runtime::catalog::ToolHead;
use openapi2mcp_runtime::search::{SearchEntry, ToolIndex};

/// Builds the search index over `heads` on a thread of its own and hands
/// it over when ready: over Microsoft Graph's 11,000 tools it takes a
/// few hundred milliseconds that start-up need not wait for. A search
/// arriving earlier waits for it.
pub(super) fn search_index(
    heads: Arc<Vec<ToolHead>>,
) -> tokio::sync::watch::Receiver<Option<Arc<ToolIndex>>> {
    let (ready, index) = tokio::sync::watch::channel(None);
    let spawned = std::thread::Builder::new()
        .name("search-index".into())
        .spawn(move || {
            let started = Instant::now();
            let index = ToolIndex::new(heads.iter().map(|h| SearchEntry {
                name: &h.name,
                title: &h.title,
                description: &h.description,
                tags: &h.origin.tags,
                method: &h.origin.method,
                path: &h.origin.path,
                params: &h.args,
            }));
            tracing::debug!(
                tools = heads.len(),
                ms = started.elapsed().as_millis() as u64,
                "search index built"
            );
            let _ = ready.send(Some(Arc::new(index)));
        });
    if let Err(e) = spawned {
        tracing::warn!(
            "could not start the search index thread ({e}): search_tools is unavailable"
        );
    }
    index
}

/// The APIs the tools call: those `options.members` lists (`serve
/// --config`), each with the server's token store unless it has its own;
/// else the one API of the catalog, reached as the top-level options say.
pub(super) fn api_members(
    options: &ServeOptions,
    security_schemes: &std::collections::BTreeMap<
        String,
        openapi2mcp_runtime::binding::SecurityScheme,
    >,
) -> Vec<ApiMember> {
    if !options.members.is_empty() {
        let mut members = options.members.clone();
        for m in &mut members {
            if m.options.token_store.is_none() {
                m.options.token_store = options.token_store.clone();
            }
        }
        return members;
    }
    vec![ApiMember {
        label: String::new(),
        first: 0,
        security_schemes: security_schemes.clone(),
        options: ApiOptions {
            base_url: options.base_url.clone(),
            server_variables: options.server_variables.clone(),
            http: options.http.clone(),
            rate_limit: options.rate_limit,
            credentials: options.credentials.clone(),
            forward_authorization: options.forward_authorization,
            schemas: options.schemas.clone(),
            token_store: options.token_store.clone(),
            headers: Arc::clone(&options.headers),
        },
    }]
}
