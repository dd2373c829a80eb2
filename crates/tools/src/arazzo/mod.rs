//! Arazzo workflows as tools (`--arazzo FILE`): each workflow of an
//! Arazzo 1.0/1.1 document becomes one tool whose `inputSchema` is the
//! workflow's `inputs` and whose result is its `outputs`; its steps call
//! the catalog's operation tools (found by `operationId` or
//! `operationPath`) or its other workflows (`workflowId`), as the runtime
//! runs them (the data: [`openapi2mcp_model::workflow`]; the runner: the
//! runtime crate's `workflow`).
//!
//! What is read: `workflows` (`workflowId`, `summary`, `description`,
//! `inputs`, `steps`, `outputs`, `successActions`, `failureActions`),
//! steps (`stepId`, `operationId`, `operationPath`, `workflowId`,
//! `parameters` with `name`/`in`/`value` or a `reference` to
//! `components.parameters`, `requestBody.payload`, `successCriteria`,
//! `onSuccess`, `onFailure`, `outputs`), actions (`end`, `goto` a step,
//! `retry` with `retryAfter`/`retryLimit`, `criteria`, or a `reference`
//! to `components.successActions`/`failureActions`) and `$ref`s to
//! `components.inputs`. A workflow this cannot run (a step naming no
//! operation, an `xpath` criterion, a `goto` to another
//! workflow) is left out with a warning naming the workflow and the step.
//!
//! Annotations are the most dangerous of the steps': read-only only when
//! every step is, destructive when any step is, idempotent when all are.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use openapi2mcp_document::Diagnostic;
use openapi2mcp_document::model::pointers::path_and_method;
use openapi2mcp_model::binding::HttpBinding;
use openapi2mcp_model::catalog::{Origin, ToolAnnotations, ToolDef};
use openapi2mcp_model::workflow::{
    Action, ActionKind, Criterion, CriterionKind, StepBinding, WorkflowBinding,
};

/// The method a workflow tool reports (it sends no request of its own).
pub const WORKFLOW_METHOD: &str = "WORKFLOW";

/// Reads the Arazzo document at `location` (a file path) and makes a tool
/// of each of its workflows over `tools` (the catalog's, which the names
/// of the new tools avoid). Fails only when the file cannot be read or is
/// not an Arazzo document; a workflow that cannot be made is a warning.
pub fn workflows(
    location: &str,
    tools: &[ToolDef],
) -> Result<(Vec<ToolDef>, Vec<Diagnostic>), Diagnostic> {
    let text = std::fs::read_to_string(location).map_err(|e| {
        Diagnostic::error(
            location,
            "",
            format!("cannot read the Arazzo document: {e}"),
        )
    })?;
    let doc = openapi2mcp_document::parse::parse_text(&text, location)?;
    from_value(location, &doc, tools)
}

/// [`workflows`] of an Arazzo document already parsed.
pub fn from_value(
    file: &str,
    doc: &Value,
    tools: &[ToolDef],
) -> Result<(Vec<ToolDef>, Vec<Diagnostic>), Diagnostic> {
    match doc.get("arazzo").and_then(Value::as_str) {
        Some(v) if v.starts_with("1.") => {}
        Some(v) => {
            return Err(Diagnostic::error(
                file,
                "/arazzo",
                format!("unsupported Arazzo version {v}: expected 1.0.x or 1.1.x"),
            ));
        }
        None => {
            return Err(Diagnostic::error(
                file,
                "",
                "not an Arazzo document: no `arazzo` version field at the top level",
            ));
        }
    }
    let list = doc
        .get("workflows")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let reader = Reader { file, doc, tools };
    // Names first, so a step can call a workflow defined after it.
    let mut taken: BTreeSet<String> = tools.iter().map(|t| t.name.clone()).collect();
    let mut names = Vec::new();
    for workflow in &list {
        let id = workflow
            .get("workflowId")
            .and_then(Value::as_str)
            .unwrap_or("workflow");
        let base = crate::naming::sanitize(id);
        let mut name = base.clone();
        let mut n = 2;
        while taken.contains(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        taken.insert(name.clone());
        names.push((id.to_string(), name));
    }
    let mut out = Vec::new();
    let mut diags = Vec::new();
    for (at, workflow) in list.iter().enumerate() {
        match reader.workflow(at, workflow, &names) {
            Ok(tool) => out.push(tool),
            Err(d) => diags.push(d),
        }
    }
    // Annotations of workflows that call workflows: their steps' again,
    // now that every workflow has its own.
    for _ in 0..names.len() {
        let all: Vec<ToolDef> = tools.iter().chain(out.iter()).cloned().collect();
        for tool in &mut out {
            if let Some(w) = &tool.http.workflow {
                tool.annotations = combined(&tool.title, &w.steps, &all);
            }
        }
    }
    Ok((out, diags))
}

struct Reader<'a> {
    file: &'a str,
    doc: &'a Value,
    tools: &'a [ToolDef],
}

impl Reader<'_> {
    fn warn(&self, pointer: String, message: String) -> Diagnostic {
        Diagnostic::warning(self.file, pointer, message)
    }

    /// `$ref: '#/components/…'` followed within the Arazzo document.
    fn follow<'v>(&'v self, mut value: &'v Value) -> &'v Value {
        for _ in 0..32 {
            match value.get("$ref").and_then(Value::as_str) {
                Some(r) if r.starts_with('#') => match self.doc.pointer(&r[1..]) {
                    Some(target) => value = target,
                    None => return value,
                },
                _ => return value,
            }
        }
        value
    }

    /// A schema with every local `$ref` inlined (bounded).
    fn inline(&self, value: &Value, depth: usize) -> Value {
        if depth > 32 {
            return json!({});
        }
        match self.follow(value) {
            Value::Object(map) => Value::Object(
                map.iter()
                    .filter(|(k, _)| k.as_str() != "$ref")
                    .map(|(k, v)| (k.clone(), self.inline(v, depth + 1)))
                    .collect(),
            ),
            Value::Array(items) => {
                Value::Array(items.iter().map(|v| self.inline(v, depth + 1)).collect())
            }
            other => other.clone(),
        }
    }

    fn workflow(
        &self,
        at: usize,
        w: &Value,
        names: &[(String, String)],
    ) -> Result<ToolDef, Diagnostic> {
        let pointer = format!("/workflows/{at}");
        let (id, name) = &names[at];
        let text = |k: &str| {
            w.get(k)
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
        };
        let mut steps = Vec::new();
        for (i, step) in w
            .get("steps")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let step = self.step(step, names).map_err(|why| {
                self.warn(
                    format!("{pointer}/steps/{i}"),
                    format!(
                        "workflow `{id}` left out: step `{}` {why}",
                        step.get("stepId").and_then(Value::as_str).unwrap_or("?")
                    ),
                )
            })?;
            steps.push(step);
        }
        if steps.is_empty() {
            return Err(self.warn(pointer, format!("workflow `{id}` has no steps; left out")));
        }
        let ids: Vec<&str> = steps.iter().map(|s| s.id.as_str()).collect();
        let actions = |key: &str, success: bool| -> Result<Vec<Action>, String> {
            self.actions(w.get(key), success)
        };
        let on_success = actions("successActions", true).map_err(|why| {
            self.warn(pointer.clone(), format!("workflow `{id}` left out: {why}"))
        })?;
        let on_failure = actions("failureActions", false).map_err(|why| {
            self.warn(pointer.clone(), format!("workflow `{id}` left out: {why}"))
        })?;
        for step in &steps {
            for action in step
                .on_success
                .iter()
                .chain(&step.on_failure)
                .chain(&on_success)
                .chain(&on_failure)
            {
                if let ActionKind::Goto { step: target } = &action.kind
                    && !ids.contains(&target.as_str())
                {
                    return Err(self.warn(pointer, format!("workflow `{id}` left out: step `{}` goes to step `{target}`, which it does not have", step.id)));
                }
            }
        }
        let outputs = expressions(w.get("outputs"));
        let mut input_schema = match w.get("inputs") {
            Some(inputs) => self.inline(inputs, 0),
            None => json!({"type": "object", "properties": {}}),
        };
        if let Value::Object(map) = &mut input_schema {
            map.entry("type").or_insert(json!("object"));
        }
        let output_schema = Map::from_iter([
            ("type".to_string(), json!("object")),
            (
                "properties".to_string(),
                Value::Object(
                    outputs
                        .iter()
                        .map(|(n, _)| (n.clone(), json!({})))
                        .collect(),
                ),
            ),
        ]);
        let title = text("summary").unwrap_or(id).to_string();
        let mut description = [text("summary"), text("description")]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join("\n\n");
        if description.is_empty() {
            description = format!("Runs the Arazzo workflow `{id}`.");
        }
        description.push_str(&format!(
            "\n\nSteps: {}.",
            steps
                .iter()
                .map(|s| format!("`{}` ({})", s.id, s.tool))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        let annotations = combined(&title, &steps, self.tools);
        Ok(ToolDef {
            name: name.clone(),
            title: title.clone(),
            description,
            input_schema,
            output_schema: Some(std::sync::Arc::new(output_schema)),
            input_full: None,
            output_full: None,
            annotations,
            origin: Origin {
                operation_id: Some(id.clone()),
                method: WORKFLOW_METHOD.into(),
                path: format!("arazzo:{id}"),
                tags: Vec::new(),
                deprecated: false,
            },
            http: HttpBinding {
                method: WORKFLOW_METHOD.into(),
                path: format!("arazzo:{id}"),
                params: Vec::new(),
                body: None,
                servers: Vec::new(),
                security: Vec::new(),
                output: None,
                response_media_types: Vec::new(),
                response_headers: Vec::new(),
                lro: None,
                workflow: Some(Box::new(WorkflowBinding {
                    id: id.clone(),
                    steps,
                    outputs,
                    on_success,
                    on_failure,
                })),
            },
        })
    }

    fn step(&self, step: &Value, names: &[(String, String)]) -> Result<StepBinding, String> {
        let id = step
            .get("stepId")
            .and_then(Value::as_str)
            .ok_or("has no `stepId`")?
            .to_string();
        let tool = self.target(step, names)?;
        let target = self.tools.iter().find(|t| t.name == tool);
        let mut args = Vec::new();
        for p in step
            .get("parameters")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let p = self.parameter(p)?;
            let name = p
                .get("name")
                .and_then(Value::as_str)
                .ok_or("has a parameter without a `name`")?;
            let location = p.get("in").and_then(Value::as_str);
            let arg = target
                .and_then(|t| argument_of(&t.http, name, location))
                .unwrap_or_else(|| name.to_string());
            args.push((arg, p.get("value").cloned().unwrap_or(Value::Null)));
        }
        let payload = step
            .get("requestBody")
            .and_then(|b| b.get("payload"))
            .cloned();
        if payload.is_some()
            && target.is_some_and(|t| t.http.body.is_none() && t.http.workflow.is_none())
        {
            return Err(format!("has a request body, but `{tool}` takes none"));
        }
        Ok(StepBinding {
            id,
            tool,
            args,
            payload,
            success: self.criteria(step.get("successCriteria"))?,
            on_success: self.actions(step.get("onSuccess"), true)?,
            on_failure: self.actions(step.get("onFailure"), false)?,
            outputs: expressions(step.get("outputs")),
        })
    }

    /// The tool a step calls.
    fn target(&self, step: &Value, names: &[(String, String)]) -> Result<String, String> {
        let last = |s: &str| s.rsplit('.').next().unwrap_or(s).to_string();
        if let Some(op) = step.get("operationId").and_then(Value::as_str) {
            let op = if op.starts_with("$sourceDescriptions.") {
                last(op)
            } else {
                op.to_string()
            };
            return self
                .tools
                .iter()
                .find(|t| {
                    t.origin.operation_id.as_deref() == Some(op.as_str())
                        && t.http.workflow.is_none()
                })
                .map(|t| t.name.clone())
                .ok_or_else(|| {
                    format!("names operation `{op}`, which is not among the served tools")
                });
        }
        if let Some(path) = step.get("operationPath").and_then(Value::as_str) {
            let pointer = path.split_once('#').map_or(path, |(_, p)| p);
            let (p, method) = path_and_method(pointer)
                .ok_or_else(|| format!("has an operationPath `{path}` that names no operation"))?;
            let method = method.unwrap_or_default();
            return self
                .tools
                .iter()
                .find(|t| t.http.path == p && t.http.method.eq_ignore_ascii_case(&method))
                .map(|t| t.name.clone())
                .ok_or_else(|| {
                    format!(
                        "names `{} {p}`, which is not among the served tools",
                        method.to_ascii_uppercase()
                    )
                });
        }
        if let Some(w) = step.get("workflowId").and_then(Value::as_str) {
            let w = if w.starts_with('$') {
                last(w)
            } else {
                w.to_string()
            };
            return names
                .iter()
                .find(|(id, _)| *id == w)
                .map(|(_, name)| name.clone())
                .ok_or_else(|| format!("names workflow `{w}`, which this document does not have"));
        }
        Err("names no operation or workflow".into())
    }

    /// A step parameter, a `reference` to `components.parameters` followed
    /// (its `value` overriding the component's).
    fn parameter(&self, p: &Value) -> Result<Value, String> {
        let Some(reference) = p.get("reference").and_then(Value::as_str) else {
            return Ok(p.clone());
        };
        let name = reference
            .strip_prefix("$components.parameters.")
            .ok_or_else(|| format!("has a parameter reference `{reference}` that is not to `$components.parameters`"))?;
        let mut found = self
            .doc
            .pointer(&format!("/components/parameters/{name}"))
            .cloned()
            .ok_or_else(|| {
                format!("refers to parameter `{name}`, which the components do not have")
            })?;
        if let (Value::Object(map), Some(value)) = (&mut found, p.get("value")) {
            map.insert("value".into(), value.clone());
        }
        Ok(found)
    }

    fn criteria(&self, list: Option<&Value>) -> Result<Vec<Criterion>, String> {
        let mut out = Vec::new();
        for c in list.and_then(Value::as_array).into_iter().flatten() {
            let condition = c
                .get("condition")
                .and_then(Value::as_str)
                .ok_or("has a criterion without a `condition`")?;
            // `type` is a name, or (Arazzo 1.0.1) an object naming it and
            // the version of its language.
            let kind = match c.get("type") {
                None => "simple".to_string(),
                Some(Value::String(t)) => t.clone(),
                Some(Value::Object(o)) => o
                    .get("type")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                Some(other) => {
                    return Err(format!(
                        "has a criterion whose type is {other} (`{condition}`)"
                    ));
                }
            };
            let context = c.get("context").and_then(Value::as_str);
            match kind.as_str() {
                "simple" => {}
                "regex" | "jsonpath" => {
                    let context = context.ok_or_else(|| {
                        format!("has a {kind} criterion (`{condition}`) without the `context` it applies to")
                    })?;
                    let kind = if kind == "regex" {
                        CriterionKind::Regex {
                            context: context.to_string(),
                        }
                    } else {
                        CriterionKind::JsonPath {
                            context: context.to_string(),
                        }
                    };
                    out.push(Criterion {
                        condition: condition.to_string(),
                        kind,
                    });
                    continue;
                }
                other => {
                    return Err(format!(
                        "has a criterion of type `{other}` (`{condition}`); simple, regex and jsonpath criteria are supported"
                    ));
                }
            }
            if let Some(context) = context {
                // A simple condition with a context reads it as its left side
                // when the condition does not name one itself.
                if !condition.trim_start().starts_with('$') {
                    out.push(Criterion {
                        condition: format!("{context} {condition}"),
                        kind: CriterionKind::Simple,
                    });
                    continue;
                }
            }
            out.push(Criterion {
                condition: condition.to_string(),
                kind: CriterionKind::Simple,
            });
        }
        Ok(out)
    }

    fn actions(&self, list: Option<&Value>, success: bool) -> Result<Vec<Action>, String> {
        let mut out = Vec::new();
        for a in list.and_then(Value::as_array).into_iter().flatten() {
            let a = match a.get("reference").and_then(Value::as_str) {
                Some(reference) => {
                    let kind = if success {
                        "successActions"
                    } else {
                        "failureActions"
                    };
                    let name = reference.rsplit('.').next().unwrap_or(reference);
                    self.doc
                        .pointer(&format!("/components/{kind}/{name}"))
                        .ok_or_else(|| {
                            format!(
                                "refers to action `{reference}`, which the components do not have"
                            )
                        })?
                }
                None => a,
            };
            let name = a
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("action")
                .to_string();
            let kind = match a.get("type").and_then(Value::as_str) {
                Some("end") => ActionKind::End,
                Some("goto") | Some("retry") if a.get("workflowId").is_some() => {
                    return Err(format!(
                        "has action `{name}` that goes to another workflow; not supported"
                    ));
                }
                Some("goto") => ActionKind::Goto {
                    step: a
                        .get("stepId")
                        .and_then(Value::as_str)
                        .ok_or_else(|| format!("has goto action `{name}` without a `stepId`"))?
                        .to_string(),
                },
                Some("retry") if !success => {
                    if a.get("stepId").is_some() {
                        return Err(format!(
                            "has retry action `{name}` that runs a step first; not supported"
                        ));
                    }
                    ActionKind::Retry {
                        after_seconds: a
                            .get("retryAfter")
                            .and_then(Value::as_f64)
                            .unwrap_or(0.0)
                            .max(0.0),
                        limit: a
                            .get("retryLimit")
                            .and_then(Value::as_u64)
                            .map_or(1, |n| n.min(100) as u32),
                    }
                }
                other => return Err(format!("has action `{name}` of unknown type {other:?}")),
            };
            out.push(Action {
                name,
                kind,
                criteria: self.criteria(a.get("criteria"))?,
            });
        }
        Ok(out)
    }
}

/// The tool argument a step parameter feeds: the operation's parameter of
/// that name (and location, when given); else one whose name differs only
/// in case and `_`/`-` (`pet_id` for `petId`); else, when the location is
/// given, the operation's only parameter there (the specification's own
/// pet-coupons example names `tags` `pet_tags`).
fn argument_of(http: &HttpBinding, name: &str, location: Option<&str>) -> Option<String> {
    let here = |b: &&openapi2mcp_model::binding::ParamBinding| {
        location.is_none_or(|l| b.location.as_str() == l)
    };
    let plain = |s: &str| {
        s.chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase()
    };
    let params = || http.params.iter().filter(here);
    if let Some(b) = params().find(|b| b.name == name) {
        return Some(b.arg.clone());
    }
    if let Some(b) = params().find(|b| plain(&b.name) == plain(name)) {
        return Some(b.arg.clone());
    }
    let mut there = params();
    match (location, there.next(), there.next()) {
        (Some(_), Some(only), None) => Some(only.arg.clone()),
        _ => None,
    }
}

/// `name: expression` pairs of an `outputs` map, in order.
fn expressions(outputs: Option<&Value>) -> Vec<(String, String)> {
    outputs
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                .collect()
        })
        .unwrap_or_default()
}

/// The most dangerous of the steps' hints (see the module docs).
fn combined(title: &str, steps: &[StepBinding], tools: &[ToolDef]) -> ToolAnnotations {
    let hints: Vec<&ToolAnnotations> = steps
        .iter()
        .filter_map(|s| tools.iter().find(|t| t.name == s.tool))
        .map(|t| &t.annotations)
        .collect();
    ToolAnnotations {
        title: title.to_string(),
        read_only_hint: !hints.is_empty() && hints.iter().all(|a| a.read_only_hint),
        destructive_hint: hints.iter().any(|a| a.destructive_hint),
        idempotent_hint: !hints.is_empty() && hints.iter().all(|a| a.idempotent_hint),
        open_world_hint: hints.is_empty() || hints.iter().any(|a| a.open_world_hint),
    }
}
