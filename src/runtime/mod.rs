//! Everything a tool call needs at run time, as plain Rust that imports
//! nothing from the rest of this crate: the generator copies these files
//! verbatim into generated servers, so live and generated behaviour share one
//! source of truth.
//!
//! For now this holds the binding data (how a tool's arguments map onto an
//! HTTP request, and the API's security schemes).

pub mod binding;
