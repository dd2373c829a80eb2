#![deny(missing_docs)]
//! Reading OpenAPI documents: load (file or URL, JSON or YAML), upgrade
//! Swagger 2.0 to the 3.0 shape, resolve `$ref`s, and convert schemas to JSON
//! Schema 2020-12.
//!
//! Nothing here knows about MCP or how a call is made: this crate depends
//! on no other openapi2mcp crate but the tool model (`openapi2mcp-model`,
//! for the security and server types the operation model shares with the
//! tools). The output is a [`Document`] whose resolved operation [`model`]
//! the generator's `tools` turns into tools (and its `mock` and `lint`
//! read). The raw document JSON is visible only inside this crate.

pub mod diag;
pub mod dialect;
#[cfg(feature = "reqwest")]
pub mod fetch;
pub mod http;
pub mod lazy;
pub mod load;
pub mod locate;
pub mod model;
pub mod overlay;
pub mod parse;
pub mod pointer;
pub mod refs;
mod refs_fetch;
pub mod swagger2;
mod yaml;

pub use diag::{Diagnostic, Severity};
pub use load::{
    DEFAULT_FETCH_TIMEOUT, DEFAULT_MAX_DOCUMENT_BYTES, Document, LoadOptions, SpecVersion, load,
    shown_location,
};
