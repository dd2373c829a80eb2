//! Arazzo workflow tools held to what their steps are held to. A
//! workflow's scope rule is its steps' together (see
//! [`super::authz::scopes`]), so the HTTP guard refuses it (403
//! `insufficient_scope`) before the first step and `tools/list` hides it
//! from a token that may not run it. Its confirmation (`--confirm`) is
//! asked before the first step, showing the inputs and every step that
//! changes data. And while it runs, each step is checked as a direct call
//! of its tool would be ([`StepGuard`], asked by the runtime before the
//! step is sent): the step's own scopes, and that a step needing
//! confirmation was covered by the workflow's.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::confirm::ConfirmPolicy;
use super::{Bridge, Inner};
use openapi2mcp_runtime::call::ToolId;
use openapi2mcp_runtime::workflow::StepCheck;

/// The checks of one workflow call's steps.
pub(super) struct StepGuard {
    /// The catalog the workflow was found in.
    inner: Arc<Inner>,
    /// The caller's granted scopes (`None`: no validated token).
    granted: Option<BTreeSet<String>>,
    /// `--confirm`.
    confirm: ConfirmPolicy,
    /// Whether the workflow itself needed confirmation, so that its
    /// confirmation (asked before the first step) listed the steps that
    /// need one.
    confirmed: bool,
}

impl StepCheck for StepGuard {
    fn check(&self, workflow: &str, step: &str, tool: &str) -> Result<(), String> {
        if let Some(rule) = self.inner.scopes.get(tool) {
            let empty = BTreeSet::new();
            let granted = self.granted.as_ref().unwrap_or(&empty);
            if let Err(needed) = super::authz::scopes::check(rule, granted) {
                return Err(format!(
                    "its tool `{tool}` needs the OAuth scope {}, which this request's access token does not carry; nothing of step `{step}` was sent",
                    needed.join(" ")
                ));
            }
        }
        let needs_confirmation = self.confirm != ConfirmPolicy::None
            && self
                .inner
                .api
                .index_of(tool)
                .and_then(|i| self.inner.heads.get(i))
                .is_some_and(|h| self.confirm.applies(&h.annotations));
        if needs_confirmation && !self.confirmed {
            return Err(format!(
                "its tool `{tool}` changes data and needs a person's confirmation, which the call of workflow `{workflow}` did not ask for; nothing of step `{step}` was sent"
            ));
        }
        Ok(())
    }
}

impl Bridge {
    /// The checks of `tool`'s steps when it is a workflow (`None` for an
    /// operation), for a caller granted `granted`.
    pub(super) fn step_guard(
        &self,
        tool: ToolId,
        granted: Option<BTreeSet<String>>,
    ) -> Option<Arc<dyn StepCheck>> {
        self.inner.api.tool(tool).http.workflow.as_ref()?;
        Some(Arc::new(StepGuard {
            inner: Arc::clone(&self.inner),
            granted,
            confirm: self.shared.options.confirm,
            confirmed: self.needs_confirmation(tool),
        }))
    }

    /// What a person confirms before workflow `tool` runs with `args`:
    /// its inputs, the steps that change data and the others (each step's
    /// own arguments come from the steps before it, so they are not known
    /// yet). `None` for an operation; `Some(None)` when the inputs would
    /// be refused (nothing is sent then, so nothing is asked).
    pub(super) fn workflow_request(
        &self,
        tool: ToolId,
        args: &Map<String, Value>,
    ) -> Option<Option<String>> {
        let workflow = self.inner.api.tool(tool).http.workflow.as_ref()?;
        if self.inner.api.invalid_args(tool, args).is_some() {
            return Some(None);
        }
        let mut changing = Vec::new();
        let mut others = Vec::new();
        for step in &workflow.steps {
            let head = self
                .inner
                .api
                .index_of(&step.tool)
                .and_then(|i| self.inner.heads.get(i));
            let Some(head) = head else {
                others.push(format!("`{}` ({})", step.id, step.tool));
                continue;
            };
            let mut what = if head.steps.is_empty() {
                format!(
                    "`{}`: {} {} ({})",
                    step.id, head.origin.method, head.origin.path, step.tool
                )
            } else {
                format!("`{}`: the workflow `{}`", step.id, step.tool)
            };
            if head.annotations.destructive_hint {
                what.push_str(", destructive");
            }
            if !head.annotations.read_only_hint {
                changing.push(what);
            } else {
                others.push(what);
            }
        }
        let inputs = serde_json::to_string_pretty(&Value::Object(args.clone())).unwrap_or_default();
        let mut text = format!(
            "Arazzo workflow `{}` with the inputs\n{inputs}\n\nSteps that change data (each sent when its step runs, with values from the steps before it):\n- {}",
            workflow.id,
            changing.join("\n- ")
        );
        if !others.is_empty() {
            text.push_str(&format!("\n\nOther steps: {}", others.join("; ")));
        }
        Some(Some(text))
    }
}
