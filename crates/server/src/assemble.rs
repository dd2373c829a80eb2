//! Parts of a catalog's server state built once per catalog (at start-up
//! and on every reload): the APIs its tools call.

use std::sync::Arc;

use super::ServeOptions;
use openapi2mcp_runtime::call::{ApiMember, ApiOptions};

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
            forward_headers: options.forward_headers.clone(),
            schemas: options.schemas.clone(),
            token_store: options.token_store.clone(),
            headers: Arc::clone(&options.headers),
        },
    }]
}
