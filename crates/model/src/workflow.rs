//! An Arazzo workflow as plain data: the steps a workflow tool runs (each
//! a call of another tool of the same catalog), their success criteria,
//! their `onSuccess`/`onFailure` actions and the workflow's outputs.
//! Written by `openapi2mcp::arazzo` from an Arazzo document, carried in a
//! tool's [`crate::binding::HttpBinding`] (and so serialized into
//! generated crates with the tools), run by the run time's `workflow`
//! module. Expressions and conditions are kept as written; the run time
//! reads them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One workflow, ready to run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorkflowBinding {
    /// The `workflowId`, for messages.
    pub id: String,
    /// The steps, in order.
    pub steps: Vec<StepBinding>,
    /// The workflow's outputs: name and the expression giving it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outputs: Vec<(String, String)>,
    /// Success actions applying to every step that has none of its own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_success: Vec<Action>,
    /// Failure actions applying to every step that has none of its own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_failure: Vec<Action>,
}

/// One step: the tool it calls and how its arguments are made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepBinding {
    /// The `stepId`.
    pub id: String,
    /// The tool called (an operation's, or another workflow's).
    pub tool: String,
    /// Tool arguments and the value (a template the run time fills) of
    /// each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<(String, Value)>,
    /// The request body's payload (a template), spread into the tool's
    /// body arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload: Option<Value>,
    /// Simple conditions that must all hold; none: a 2xx status.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub success: Vec<Criterion>,
    /// What to do once it succeeded (the first action whose criteria hold).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_success: Vec<Action>,
    /// What to do once it failed (the first action whose criteria hold).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_failure: Vec<Action>,
    /// The step's outputs: name and expression.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outputs: Vec<(String, String)>,
}

/// A criterion: a simple condition (see the run time's `workflow::expr`; `openapi2mcp::arazzo`
/// writes a simple one with a `context` as `<context> <condition>`), or a
/// regular expression or JSONPath query applied to the value of its
/// `context`. (`xpath` criteria are refused by `openapi2mcp::arazzo`.)
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Criterion {
    /// The condition as written.
    pub condition: String,
    /// How the condition is read.
    #[serde(default, skip_serializing_if = "CriterionKind::is_simple")]
    pub kind: CriterionKind,
}

/// The Arazzo criterion types this runtime evaluates.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum CriterionKind {
    /// A simple condition.
    #[default]
    Simple,
    /// The condition is a regular expression that must match (anywhere)
    /// the context's value (its text; other values as JSON).
    Regex {
        /// The runtime expression giving the value.
        context: String,
    },
    /// The condition is a JSONPath query (RFC 9535) that must select at
    /// least one node of the context's value.
    JsonPath {
        /// The runtime expression giving the value.
        context: String,
    },
}

impl CriterionKind {
    fn is_simple(&self) -> bool {
        *self == CriterionKind::Simple
    }
}

/// A success or failure action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Action {
    /// Its `name`, for messages.
    pub name: String,
    /// What it does.
    pub kind: ActionKind,
    /// Conditions that must all hold for it to apply.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub criteria: Vec<Criterion>,
}

/// What an action does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ActionKind {
    /// The workflow ends (successfully after a success; as a failure
    /// after a failure).
    End,
    /// Control goes to this step of the workflow.
    Goto {
        /// The step id.
        step: String,
    },
    /// The step runs again, after `after_seconds`, at most `limit` more
    /// times.
    Retry {
        /// Seconds to wait first (`retryAfter`).
        #[serde(default)]
        after_seconds: f64,
        /// How many retries at most (`retryLimit`, default 1).
        limit: u32,
    },
}
