#![deny(missing_docs)]
//! The tool model: every served tool as plain data, the contract that the
//! OpenAPI reader and tool builder write and that the run time, the server,
//! the generator and generated crates read. It depends on serde and a few
//! small crates for header and URL text (`http`, `url`,
//! `percent-encoding`), so whatever reads or writes tools
//! can depend on it without compiling an HTTP client or an MCP layer.
//!
//! `binding` says how a tool's arguments map onto HTTP (parameters,
//! bodies, security schemes, servers); `catalog` holds the tools
//! themselves ([`catalog::ToolHead`], [`catalog::ToolDef`],
//! [`catalog::Catalog`], [`catalog::LazyCatalog`]), serializable both
//! ways because a generated crate embeds its catalog as JSON; `workflow`
//! holds an Arazzo workflow tool's steps as data; `schemas` the full
//! schemas behind budgeted tools (a generated crate embeds them too); `wire`
//! holds the media-type, header, URL and error-text helpers that the
//! document reader and the run time must apply the same way; `settings`
//! and `credential_vars` name the environment variables the program reads
//! (its settings, an API's credentials), which the generator writes too.

pub mod binding;
pub mod catalog;
pub mod credential_vars;
pub mod schemas;
pub mod settings;
pub mod wire;
pub mod workflow;
