//! openapi2mcp: turn an OpenAPI document (2.0, 3.0, 3.1 or 3.2) into Model
//! Context Protocol tools.
//!
//! Data flows one way: [`document`] reads and normalises the document and
//! resolves its operations ([`document::model`], the only reader of raw
//! document JSON), [`tools`] turns every operation into a
//! [`tools::ToolDef`] (the model both back ends render), [`mock`] and
//! [`lint`] read the same operation model, [`runtime`] turns a call into an HTTP request and the response into
//! tool content, [`server`] serves it all over MCP, and [`codegen`] renders it
//! as a standalone crate that depends on `runtime` and `server` (the
//! workspace crates `openapi2mcp-runtime` and `openapi2mcp-server`). [`mock`] answers
//! as the API would, from the document's examples and schemas; [`lint`]
//! checks the tools against the tool-design rules. [`pipeline`] runs the
//! load → build → locate sequence every caller needs (one entry each for an
//! eager catalog, a served one and the mock), and [`commands`] is what each
//! CLI command does with it; `main.rs` only parses arguments and prints.
//!
//! # Where the tool model lives
//!
//! The model's types are defined in the `openapi2mcp-model` crate
//! (`crates/model`), re-exported by the runtime as [`runtime::catalog`]
//! and by [`tools`], which builds them, because generated crates depend on
//! the runtime crate and read their embedded catalog back at start-up. One tool
//! has one name per stage, each a cut of the one before:
//!
//! - [`tools::ToolHead`]: what is known before its schemas are built (name,
//!   description, hints, origin, argument names). A server starts with
//!   these ([`runtime::catalog::LazyCatalog`]); [`tools::Planned`] pairs a
//!   head with its operation.
//! - [`tools::ToolDef`]: the full definition, what `tools/list` shows plus
//!   the [`tools::HttpBinding`] a call needs. A [`tools::Catalog`] holds
//!   them; everything downstream reads it, never the raw document.
//! - [`runtime::call::ToolEndpoint`]: the part of a `ToolDef` a call needs
//!   (name, binding, the schemas arguments and results are checked
//!   against), cut from it when the server first calls the tool.
//! - [`codegen::model::ToolView`]: a `ToolDef` with the Rust names a
//!   generated crate's templates render (like every `*View` there).
#![deny(missing_docs)]
// The future `serve --config` runs (every API's server, each call's
// confirmation, handle, task and long-running operation nested inside)
// is deeper than the compiler's default query depth lets it compute the
// layout of in a clean (non-incremental) build: "queries overflow the
// depth limit" at src/apis/mod.rs.
#![recursion_limit = "256"]

pub mod apis;
/// The generator (`generate` and the build-script API): the
/// `openapi2mcp-codegen` crate, which depends on neither the run time nor
/// the server.
pub use openapi2mcp_codegen as codegen;
/// The build-script API: the generator's `build`.
pub use openapi2mcp_codegen::build;
/// MCP client configurations: the generator's `client_config`.
pub use openapi2mcp_codegen::client_config;
pub mod commands;
pub mod footprint;
pub mod lint;
/// The mock backend (a REST API answering from its document): the
/// `openapi2mcp-mock` crate.
pub use openapi2mcp_mock as mock;
pub mod pipeline;
pub mod reload;
/// The OpenAPI reader (document in, resolved operation model out): the
/// `openapi2mcp-document` crate, which depends on no call or server code.
pub use openapi2mcp_document as document;
/// The run time (tool model and one call): the `openapi2mcp-runtime` crate,
/// shared with generated crates.
pub use openapi2mcp_runtime as runtime;
/// The MCP layer (rmcp): the `openapi2mcp-server` crate, shared with generated
/// crates.
pub use openapi2mcp_server as server;
/// The tool builder (operation model in, tool catalog out): the
/// `openapi2mcp-tools` crate, which depends on the reader and the model
/// alone.
pub use openapi2mcp_tools as tools;
/// Arazzo workflows as tools: the tool builder's `arazzo`.
pub use openapi2mcp_tools::arazzo;
