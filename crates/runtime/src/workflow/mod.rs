//! Arazzo workflows as tools: a workflow tool's call runs its steps, each
//! a call of another tool of the same catalog through the same path as
//! `tools/call` (argument validation, rate limit, credentials, redirects,
//! retries, long-running operations), honouring each step's success
//! criteria and its `onSuccess`/`onFailure` actions (`end`, `goto`,
//! `retry` with `retryAfter` and `retryLimit`, a `Retry-After` from the
//! API overruling `retryAfter`), and returns the workflow's outputs.
//! What a step reads and writes is runtime expressions (see [`expr`]).
//!
//! Built by `openapi2mcp::arazzo` from an Arazzo document (the bindings
//! here are plain data, serialized into generated crates with the tools),
//! run by [`run`] from `Api::execute_in`. Errors name the workflow and the
//! step.
//!
//! Before each step runs, the caller's [`StepCheck`] (installed with
//! [`checking`]; the server checks the step's scopes and confirmation as
//! for a direct call of its tool) may refuse it: the workflow then ends at
//! that step, with nothing of it sent, and no `onFailure` action applies.

pub mod expr;

use crate::forward::Forwarded;
use std::time::Duration;

use serde_json::{Map, Value};

use super::binding::{BodyShape, HttpBinding};
use super::call::{Api, CallReport, Refused};
use super::lro::LroMode;
use super::response::{Content, HttpResponse, ToolOutcome};
use expr::{Exchange, Scope};

/// The most steps one workflow call runs (retries and gotos included):
/// a loop of gotos ends here with an error instead of running forever.
pub const MAX_STEP_RUNS: usize = 1000;

/// The longest wait before a retry (`retryAfter`, or the API's
/// `Retry-After`).
pub const MAX_RETRY_WAIT: Duration = Duration::from_secs(60);

/// How deep workflows may call workflows.
pub const MAX_DEPTH: usize = 8;

/// What the caller of a workflow checks before each of its steps is sent,
/// as it checks a direct call of the step's tool: the server refuses a
/// step whose tool the caller's token may not call, or that needs a
/// confirmation the workflow's did not cover.
pub trait StepCheck: Send + Sync {
    /// `Err(why)`: `step` of `workflow` (the `workflowId`s and `stepId`)
    /// calling `tool` is not run, and the workflow fails saying `why`.
    fn check(&self, workflow: &str, step: &str, tool: &str) -> Result<(), String>;
}

/// Runs `fut` (a call that may run workflows, nested ones included) with
/// `check` asked before every workflow step it runs.
pub async fn checking<F: std::future::Future>(
    check: std::sync::Arc<dyn StepCheck>,
    fut: F,
) -> F::Output {
    STEP_CHECK.scope(check, fut).await
}

pub use openapi2mcp_model::workflow::{
    Action, ActionKind, Criterion, CriterionKind, StepBinding, WorkflowBinding,
};

/// Whether `criterion` holds in `scope`; `Err` names a criterion that
/// cannot be evaluated (no value for its context, a bad pattern or query).
fn holds(criterion: &Criterion, scope: &Scope) -> Result<bool, String> {
    let context = |expr: &str| {
        scope.eval(expr).ok_or_else(|| {
            format!(
                "criterion `{}`: its context `{expr}` has no value",
                criterion.condition
            )
        })
    };
    match &criterion.kind {
        CriterionKind::Simple => scope.holds(&criterion.condition),
        CriterionKind::Regex { context: expr } => {
            let value = context(expr)?;
            let text = match &value {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let pattern = regex::Regex::new(&criterion.condition).map_err(|e| {
                format!(
                    "criterion `{}` is not a regular expression: {e}",
                    criterion.condition
                )
            })?;
            Ok(pattern.is_match(&text))
        }
        CriterionKind::JsonPath { context: expr } => {
            let value = context(expr)?;
            let path = serde_json_path::JsonPath::parse(&criterion.condition).map_err(|e| {
                format!(
                    "criterion `{}` is not a JSONPath query: {e}",
                    criterion.condition
                )
            })?;
            Ok(!path.query(&value).all().is_empty())
        }
    }
}

/// Runs `workflow` with `inputs` (already checked against the tool's input
/// schema): the report's structured content is the workflow's outputs; a
/// failure is an error naming the step.
pub fn run<'a>(
    api: &'a Api,
    workflow: &'a WorkflowBinding,
    inputs: &'a Map<String, Value>,
    client: &'a Forwarded,
) -> super::call::BoxFuture<'a, CallReport> {
    Box::pin(async move {
        let depth = DEPTH.try_with(|d| *d).unwrap_or(0);
        if depth >= MAX_DEPTH {
            return failure(
                workflow,
                None,
                format!("workflows call each other more than {MAX_DEPTH} deep"),
            );
        }
        DEPTH
            .scope(
                depth + 1,
                Runner {
                    api,
                    workflow,
                    client,
                    scope: Scope {
                        inputs: Value::Object(inputs.clone()),
                        ..Scope::default()
                    },
                    log: Vec::new(),
                }
                .run(),
            )
            .await
    })
}

tokio::task_local! {
    static DEPTH: usize;
    static STEP_CHECK: std::sync::Arc<dyn StepCheck>;
}

struct Runner<'a> {
    api: &'a Api,
    workflow: &'a WorkflowBinding,
    client: &'a Forwarded,
    scope: Scope,
    /// One line per step run, for the result.
    log: Vec<String>,
}

/// How one run of a step went.
enum StepResult {
    Succeeded,
    /// Why not: the criteria, the API's error, or arguments refused.
    Failed(String),
    /// The caller's [`StepCheck`] refused it (nothing was sent): the
    /// workflow ends here, whatever its failure actions say.
    Refused(String),
}

impl Runner<'_> {
    async fn run(mut self) -> CallReport {
        let steps = &self.workflow.steps;
        let mut at = 0;
        let mut runs = 0;
        let mut retries: Vec<u32> = vec![0; steps.len()];
        let mut last_status = None;
        while at < steps.len() {
            runs += 1;
            if runs > MAX_STEP_RUNS {
                return failure(
                    self.workflow,
                    Some(&steps[at].id),
                    format!("more than {MAX_STEP_RUNS} steps ran (a loop of goto actions?)"),
                );
            }
            let step = &steps[at];
            let (result, report) = self.step(step).await;
            if let StepResult::Refused(why) = &result {
                return self.failed(step, &format!("not run: {why}"), None);
            }
            last_status = report.as_ref().and_then(|r| r.status).or(last_status);
            let (actions, fallback) = match &result {
                StepResult::Succeeded => {
                    if let Err(why) = self.record_outputs(step) {
                        return failure(self.workflow, Some(&step.id), why);
                    }
                    retries[at] = 0;
                    (pick(&step.on_success, &self.workflow.on_success), None)
                }
                StepResult::Failed(why) | StepResult::Refused(why) => (
                    pick(&step.on_failure, &self.workflow.on_failure),
                    Some(why.clone()),
                ),
            };
            let action = match self.first_applying(actions) {
                Ok(action) => action,
                Err(why) => return failure(self.workflow, Some(&step.id), why),
            };
            match (action.map(|a| &a.kind), &fallback) {
                (None, None) => at += 1,
                (None, Some(why)) => {
                    return self.failed(step, why, report);
                }
                (Some(ActionKind::End), None) => break,
                (Some(ActionKind::End), Some(why)) => return self.failed(step, why, report),
                (Some(ActionKind::Goto { step: target }), _) => {
                    match steps.iter().position(|s| &s.id == target) {
                        Some(i) => at = i,
                        None => {
                            return failure(
                                self.workflow,
                                Some(&step.id),
                                format!(
                                    "goto names step `{target}`, which this workflow does not have"
                                ),
                            );
                        }
                    }
                }
                (Some(ActionKind::Retry { .. }), None) => at += 1,
                (
                    Some(ActionKind::Retry {
                        after_seconds,
                        limit,
                    }),
                    Some(why),
                ) => {
                    if retries[at] >= *limit {
                        return self.failed(
                            step,
                            &format!(
                                "{why} (after {} retr{})",
                                limit,
                                if *limit == 1 { "y" } else { "ies" }
                            ),
                            report,
                        );
                    }
                    retries[at] += 1;
                    let asked = self.scope.current.as_ref().and_then(|c| {
                        super::http::retry_after(&c.headers, std::time::SystemTime::now())
                    });
                    let wait = asked
                        .unwrap_or_else(|| Duration::from_secs_f64(after_seconds.clamp(0.0, 60.0)))
                        .min(MAX_RETRY_WAIT);
                    self.log.push(format!(
                        "step `{}` failed ({why}); retry {} of {limit} in {:.1}s",
                        step.id,
                        retries[at],
                        wait.as_secs_f64()
                    ));
                    tokio::time::sleep(wait).await;
                }
            }
        }
        self.finish(last_status)
    }

    /// Runs `step` once: its arguments filled in, the tool called, the
    /// success criteria checked.
    async fn step(&mut self, step: &StepBinding) -> (StepResult, Option<CallReport>) {
        self.scope.current = None;
        let tool = match self.api.find(&step.tool) {
            Ok(tool) => tool,
            Err(_) => {
                return (
                    StepResult::Failed(format!("its tool `{}` is not served", step.tool)),
                    None,
                );
            }
        };
        let refused = STEP_CHECK
            .try_with(|c| c.check(&self.workflow.id, &step.id, &step.tool))
            .unwrap_or(Ok(()));
        if let Err(why) = refused {
            self.log
                .push(format!("step `{}`: not run ({why})", step.id));
            return (StepResult::Refused(why), None);
        }
        let binding = &self.api.tool(tool).http;
        let args = match self.arguments(step, binding) {
            Ok(args) => args,
            Err(why) => return (StepResult::Failed(why), None),
        };
        let args = match self.api.admit(tool, args) {
            Ok(args) => args,
            Err(Refused::Invalid(outcome) | Refused::RateLimited(outcome)) => {
                return (StepResult::Failed(text_of(&outcome)), None);
            }
        };
        let (report, response) = match &binding.workflow {
            Some(_) => (
                self.api
                    .execute_in(tool, &args, self.client, LroMode::Wait)
                    .await,
                None,
            ),
            None => {
                self.api
                    .exchange(tool, &args, self.client, LroMode::Wait)
                    .await
            }
        };
        let report = CallReport {
            outcome: self.api.conform(tool, report.outcome),
            ..report
        };
        self.scope.current = Some(exchange_of(binding, &args, &report, response.as_ref()));
        let result = if step.success.is_empty() {
            match report.status {
                Some(200..=299) if !report.outcome.is_error => StepResult::Succeeded,
                _ if binding.workflow.is_some() && !report.outcome.is_error => {
                    StepResult::Succeeded
                }
                _ => StepResult::Failed(problem(&report)),
            }
        } else {
            let mut unmet = None;
            for criterion in &step.success {
                match holds(criterion, &self.scope) {
                    Ok(true) => {}
                    Ok(false) => {
                        unmet = Some(format!(
                            "its success criterion `{}` does not hold ({})",
                            criterion.condition,
                            problem(&report)
                        ));
                        break;
                    }
                    Err(why) => {
                        unmet = Some(why);
                        break;
                    }
                }
            }
            match unmet {
                None => StepResult::Succeeded,
                Some(why) => StepResult::Failed(why),
            }
        };
        self.log.push(format!(
            "step `{}`: {} {}",
            step.id,
            report
                .status
                .map_or_else(|| "no response".to_string(), |s| format!("HTTP {s}")),
            match &result {
                StepResult::Succeeded => "succeeded".to_string(),
                StepResult::Failed(why) | StepResult::Refused(why) => format!("failed: {why}"),
            }
        ));
        (result, Some(report))
    }

    /// The tool arguments of `step`: its parameters' values, and its
    /// payload spread into the body's arguments.
    fn arguments(
        &self,
        step: &StepBinding,
        binding: &HttpBinding,
    ) -> Result<Map<String, Value>, String> {
        let mut args = Map::new();
        // An argument (or body member) from an expression that names
        // nothing, say an input the caller left out, is left out; the
        // tool's input schema says whether it may be.
        for (arg, template) in &step.args {
            let value = self
                .scope
                .fill_present(template)
                .map_err(|e| format!("its argument `{arg}`: {e}"))?;
            if let Some(value) = value {
                args.insert(arg.clone(), value);
            }
        }
        if let Some(payload) = &step.payload {
            let Some(payload) = self
                .scope
                .fill_present(payload)
                .map_err(|e| format!("its request body: {e}"))?
            else {
                return Ok(args);
            };
            match binding.body.as_ref().map(|b| &b.shape) {
                Some(BodyShape::Whole { arg, .. }) => {
                    args.insert(arg.clone(), payload);
                }
                Some(BodyShape::Properties { props }) => {
                    let Value::Object(fields) = payload else {
                        return Err("its request body must be an object (the operation's body has properties)".into());
                    };
                    for (name, value) in fields {
                        let arg = props
                            .iter()
                            .find(|p| p.name == name)
                            .map_or(name.clone(), |p| p.arg.clone());
                        args.insert(arg, value);
                    }
                }
                None if binding.workflow.is_some() => {
                    if let Value::Object(fields) = payload {
                        args.extend(fields);
                    }
                }
                None => return Err("it has a request body, but its operation takes none".into()),
            }
        }
        Ok(args)
    }

    fn record_outputs(&mut self, step: &StepBinding) -> Result<(), String> {
        let mut outputs = Map::new();
        for (name, expr) in &step.outputs {
            let value = self
                .scope
                .eval(expr)
                .ok_or_else(|| format!("its output `{name}` (`{expr}`) has no value"))?;
            outputs.insert(name.clone(), value);
        }
        self.scope.steps.insert(step.id.clone(), outputs);
        Ok(())
    }

    /// The first action whose criteria all hold.
    fn first_applying<'b>(&self, actions: &'b [Action]) -> Result<Option<&'b Action>, String> {
        for action in actions {
            let mut all = true;
            for criterion in &action.criteria {
                if !holds(criterion, &self.scope)? {
                    all = false;
                    break;
                }
            }
            if all {
                return Ok(Some(action));
            }
        }
        Ok(None)
    }

    fn failed(&self, step: &StepBinding, why: &str, report: Option<CallReport>) -> CallReport {
        let mut out = failure(self.workflow, Some(&step.id), why.to_string());
        if !self.log.is_empty() {
            out.outcome.content.push(Content::Text(format!(
                "Steps run:\n{}",
                self.log.join("\n")
            )));
        }
        if let Some(report) = report {
            out.status = report.status;
            out.outcome
                .content
                .extend(report.outcome.content.into_iter().take(2));
        }
        out
    }

    /// The workflow's outputs, once it ended well.
    fn finish(self, status: Option<u16>) -> CallReport {
        let mut outputs = Map::new();
        for (name, expr) in &self.workflow.outputs {
            match self.scope.eval(expr) {
                Some(value) => {
                    outputs.insert(name.clone(), value);
                }
                None => {
                    return failure(
                        self.workflow,
                        None,
                        format!("its output `{name}` (`{expr}`) has no value"),
                    );
                }
            }
        }
        let text = format!(
            "Workflow `{}` completed.\n{}\nOutputs:\n{}",
            self.workflow.id,
            self.log.join("\n"),
            serde_json::to_string_pretty(&outputs).unwrap_or_default()
        );
        CallReport {
            outcome: ToolOutcome {
                content: vec![Content::Text(text)],
                structured: Some(Value::Object(outputs)),
                is_error: false,
            },
            status,
            pending: None,
            response: None,
        }
    }
}

/// The step's own actions, else the workflow's.
fn pick<'b>(own: &'b [Action], workflow: &'b [Action]) -> &'b [Action] {
    if own.is_empty() { workflow } else { own }
}

fn failure(workflow: &WorkflowBinding, step: Option<&str>, why: String) -> CallReport {
    let at = step.map_or_else(String::new, |s| format!(" at step `{s}`"));
    CallReport {
        outcome: ToolOutcome {
            content: vec![Content::Text(format!(
                "Workflow `{}` failed{at}: {why}.",
                workflow.id
            ))],
            structured: None,
            is_error: true,
        },
        status: None,
        pending: None,
        response: None,
    }
}

fn text_of(outcome: &ToolOutcome) -> String {
    outcome
        .content
        .iter()
        .filter_map(|c| match c {
            Content::Text(t) => Some(t.lines().next().unwrap_or_default().to_string()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What went wrong with a step's call, in a few words.
fn problem(report: &CallReport) -> String {
    match report.status {
        Some(status) if report.outcome.is_error => {
            format!("HTTP {status}: {}", text_of(&report.outcome))
        }
        Some(status) => format!("HTTP {status}"),
        None => text_of(&report.outcome),
    }
}

/// What expressions read of a step's call.
fn exchange_of(
    binding: &HttpBinding,
    args: &Map<String, Value>,
    report: &CallReport,
    response: Option<&HttpResponse>,
) -> Exchange {
    let body = match response {
        Some(r) => serde_json::from_slice(&r.body)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&r.body).into_owned())),
        // A nested workflow (or a call without a response): its result.
        None => report.outcome.structured.clone().unwrap_or(Value::Null),
    };
    let outputs = match (&binding.workflow, &report.outcome.structured) {
        (Some(_), Some(Value::Object(map))) => map.clone(),
        _ => Map::new(),
    };
    Exchange {
        status: report.status,
        method: binding.method.clone(),
        url: binding.path.clone(),
        request_body: Value::Object(args.clone()),
        headers: response.map(|r| r.headers.clone()).unwrap_or_default(),
        body,
        outputs,
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
