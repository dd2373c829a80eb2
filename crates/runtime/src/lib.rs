#![deny(missing_docs)]
//! Everything a tool call needs at run time, as a crate of its own that
//! depends on no other openapi2mcp crate but the tool model
//! (`openapi2mcp-model`): `openapi2mcp serve` and generated crates both run
//! it, and a generated crate depends on it (by version, by path, or on a
//! whole copy under its `vendor/`, made by `generate --vendor`, the
//! default) without depending on the generator, so live and generated
//! behaviour share one source of truth.
//!
//! `binding` and `catalog` are the tool model's data (how arguments map
//! onto HTTP, the tools themselves), re-exported from the model crate
//! with its `wire` helpers; `request` turns a
//! call's arguments into an HTTP request; `response` turns the HTTP
//! response into MCP-neutral tool content; `conform` makes it fit the
//! tool's output schema; `lro` follows long-running operations (202 +
//! status URL) to their end; `next_page` reads a list's next page from
//! the response's headers as the same tool's arguments; `progress` carries the items of a
//! streaming response to whoever reports them; `schemas` (from the model
//! crate) holds the full schemas behind budgeted tools and the resources
//! that serve them;
//! `workflow` runs an Arazzo workflow's steps through the same calls;
//! `forward` holds what a call sends on from the MCP client's own
//! request (`--forward-authorization`, `--forward-header`);
//! `fair` shares the bounded pools (scripts, selector workers) fairly
//! between callers; `exact` keeps integers beyond 64 bits as the client
//! wrote them while a request is built;
//! `typed` holds the serde helpers of generated crates' typed arguments;
//! `settings` lists the environment variables that are the program's own
//! settings (kept apart from credentials).

pub mod auth;
pub mod call;
pub mod conform;
pub mod exact;
pub mod fair;
pub mod forward;
pub mod http;
pub mod jsoncut;
pub mod lro;
pub mod next_page;
pub mod preview;
pub mod program;
pub mod progress;
pub mod ratelimit;
pub mod redirect;
pub mod request;
pub mod response;
pub mod select;
pub mod trace;
pub mod typed;
pub mod workflow;

// The tool model, from the model crate, under the paths the run time,
// the server, the generator and generated crates have always named.
pub use openapi2mcp_model::{binding, catalog, schemas, settings, wire};
