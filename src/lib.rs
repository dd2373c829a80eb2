//! openapi2mcp: turn an OpenAPI document (2.0, 3.0 or 3.1) into Model Context
//! Protocol tools.
//!
//! Data flows one way: [`spec`] reads and normalises the document, [`tools`]
//! turns every operation into a [`tools::ToolDef`] (the model both back ends
//! render), and [`runtime`] holds the plain data the HTTP side needs.
#![deny(missing_docs)]

pub mod runtime;
pub mod spec;
pub mod tools;
