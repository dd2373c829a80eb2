//! openapi2mcp: turn an OpenAPI document (2.0, 3.0 or 3.1) into Model Context
//! Protocol tools.
//!
//! Data flows one way: [`document`] reads and normalises the document and
//! resolves its operations ([`document::model`], the only reader of raw
//! document JSON), [`tools`] turns every operation into a
//! [`tools::ToolDef`] (the model both back ends render), [`mock`] and
//! [`lint`] read the same operation model, [`runtime`] turns a call into an HTTP request and the response into
//! tool content, [`server`] serves it all over MCP, and [`codegen`] renders it
//! as a standalone crate that vendors `runtime` and `server`.
#![deny(missing_docs)]

pub mod client_config;
pub mod codegen;
pub mod document;
pub mod footprint;
pub mod lint;
pub mod mock;
pub mod pipeline;
pub mod reload;
pub mod runtime;
pub mod server;
pub mod tools;
