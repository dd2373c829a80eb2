//! Code mode (`--tools code`): a model writes a short JavaScript program
//! that calls the API's operations as async functions (`api.list_pulls({...})`),
//! and gets back only what the program returns. Several operations chain in
//! one tool call, and their intermediate results never reach the model's
//! context.
//!
//! - [`sandbox`] runs a script in an embedded QuickJS engine (`rquickjs`):
//!   no network, file system, clock, environment or timers; only the
//!   `api` object, whose functions call back into the host (which runs
//!   each call exactly as `tools/call` would). Budgets for wall time,
//!   memory, number of calls and output size end the script with an error
//!   naming the budget.
//! - [`typescript`] renders tools as compact TypeScript declarations (the
//!   arguments and result shape from the JSON Schemas, doc comments from
//!   descriptions, examples from the document), which is what the search
//!   tool of code mode returns.
//!
//! From the rest of the crate only `jsoncut` is used (the preview of a
//! result over the output budget, cut at whole items); operations are
//! called back through [`sandbox::Host`], so the sandbox holds no
//! credentials and knows nothing of how a call is made.

pub mod sandbox;
pub mod typescript;
