//! Error-level findings: defects of the document itself that break tools,
//! as opposed to the quality rules of [`super::rules`]. An operation the
//! build could not make into a tool, an `operationId` used twice (OpenAPI
//! requires them unique), and path templates whose `{slots}` and `in: path`
//! parameters disagree.

use std::collections::HashMap;

use super::Finding;
use super::rules::rule;
use crate::document::model::Operation;
use crate::document::model::pointers::{self, path_and_method};
use crate::document::{Diagnostic, Document};
use crate::runtime::catalog::Catalog;

/// Where a finding sorts: its path's position under `paths`, then its
/// operation's position in the path item (0 for the path item itself).
pub(super) type Anchor = (usize, usize);

/// Runs the error-level rules over `doc`, whose tools are `catalog`;
/// `document` names the root file as the user did.
pub(super) fn check(catalog: &Catalog, doc: &Document, document: &str) -> Vec<(Anchor, Finding)> {
    let order = Order::of(doc);
    let built: HashMap<(String, String), &str> = catalog
        .tools
        .iter()
        .map(|t| {
            (
                (t.http.method.to_ascii_lowercase(), t.http.path.clone()),
                t.name.as_str(),
            )
        })
        .collect();
    let tool_of = |method: &str, path: &str| {
        built
            .get(&(method.to_string(), path.to_string()))
            .map(|n| n.to_string())
    };
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    let ops = doc.operations(&mut skipped);
    // Path items and parameters the build could not read: every operation
    // under them is skipped.
    for d in skipped {
        let anchor = order.of_pointer(&d.pointer);
        let what = match anchor_path(&order, &d.pointer) {
            Some(path) => format!("the operations under `{path}` are not tools: "),
            None => "an entry under `paths` is not a tool: ".to_string(),
        };
        out.push((
            anchor,
            from_diagnostic("operation-not-a-tool", None, what, d),
        ));
    }
    let mut ids: HashMap<String, (String, String)> = HashMap::new();
    for op in &ops {
        let anchor = order.operation(op.path, op.method);
        let method = op.method.to_ascii_uppercase();
        let tool = tool_of(op.method, op.path);
        if tool.is_none()
            && let Some(d) = build_failure(op)
        {
            let what = format!("{method} {} is not a tool: ", op.path);
            out.push((
                anchor,
                from_diagnostic("operation-not-a-tool", None, what, d),
            ));
        }
        if let Ok(x) = op.x_mcp() {
            for dialect in &x.dialects {
                let left_out = match x.exclude {
                    true => " (the operation is left out)",
                    false => "",
                };
                out.push((
                    anchor,
                    at_operation(
                        "other-generator-extension",
                        op,
                        &tool,
                        format!(
                            "{method} {}: `{dialect}` read as `x-mcp`{left_out}",
                            op.path
                        ),
                        // Kong's are flat keys of the operation itself.
                        match dialect.strip_prefix("x-kong-mcp") {
                            Some(_) => op.pointer().to_string(),
                            None => format!("{}/{}", op.pointer(), dialect.replace('.', "/")),
                        },
                    ),
                ));
            }
        }
        if let Some(finding) = effect_from_words(op, &method, &tool) {
            out.push((anchor, finding));
        }
        if let Some(id) = op.operation_id().map(str::to_string) {
            match ids.get(&id) {
                Some((m, p)) => {
                    out.push((
                        anchor,
                        at_operation(
                            "duplicate-operation-id",
                            op,
                            &tool,
                            format!(
                                "operationId `{id}` of {method} {} is also the operationId of {m} {p}; tools, links and generated code that name operations by id cannot tell them apart",
                                op.path
                            ),
                            pointers::operation_id(op.pointer()),
                        ),
                    ));
                }
                None => {
                    ids.insert(id, (method.clone(), op.path.to_string()));
                }
            }
        }
        for finding in path_parameters(op, tool) {
            out.push((anchor, finding));
        }
    }
    // Diagnostics of the root file name it as the user did.
    let root = doc.display_name(doc.root_key()).to_string();
    for (_, f) in &mut out {
        if f.file == root {
            f.file = document.to_string();
        }
    }
    out
}

/// Why the build skipped `op`, if it did, by the same checks in the same
/// order as `tools::build` (`x-mcp` read, request body `$ref` followed);
/// `None` for an operation left out on purpose (`x-mcp: false`, or one
/// the selection flags did not pick).
fn build_failure(op: &Operation<'_>) -> Option<Diagnostic> {
    match op.x_mcp() {
        Err(d) => return Some(d),
        Ok(x) if x.exclude => return None,
        Ok(_) => {}
    }
    op.request_body().err()
}

/// A finding of rule `id` about `op` (its file), at `pointer`; the line is
/// found from the pointer later.
/// The `effect-from-words` note of `op` (its method upper case), when its
/// words made its tool's annotations differ from its method's and
/// `x-mcp.annotations` did not settle them.
fn effect_from_words(op: &Operation<'_>, method: &str, tool: &Option<String>) -> Option<Finding> {
    use crate::tools::naming::Said;
    use crate::tools::semantics::{self, Reading};
    tool.as_ref()?;
    let x = op.x_mcp().ok()?;
    let said = Said {
        operation_id: op.operation_id(),
        method: op.method,
        path: op.path,
        summary: op.summary().or(op.description()),
        description: op.description(),
    };
    let reading = semantics::read_operation(method, &said)?;
    let (what, verb, source, settle) = match &reading {
        Reading::Destroys(verb, source) if x.annotations.destructive_hint.is_none() => (
            "destructive (confirmed before it is sent)",
            verb,
            source,
            "x-mcp: {annotations: {destructiveHint: false}}",
        ),
        Reading::Reads(verb, source) if x.annotations.read_only_hint.is_none() => (
            "read-only",
            verb,
            source,
            "x-mcp: {annotations: {readOnlyHint: false}}",
        ),
        _ => return None,
    };
    Some(at_operation(
        "effect-from-words",
        op,
        tool,
        format!(
            "{method} {}: annotated {what}: {} says `{verb}`; if it does not, write `{settle}` on the operation",
            op.path,
            source.as_str()
        ),
        op.pointer().to_string(),
    ))
}

fn at_operation(
    id: &str,
    op: &Operation<'_>,
    tool: &Option<String>,
    message: String,
    pointer: String,
) -> Finding {
    let r = rule(id);
    Finding {
        rule: r.id,
        level: r.level,
        tool: tool.clone(),
        message,
        hint: r.hint,
        file: op.file().to_string(),
        pointer,
        line: None,
    }
}

/// A finding quoting a build diagnostic: its file and pointer, `what`
/// before its message.
fn from_diagnostic(id: &str, tool: Option<String>, what: String, d: Diagnostic) -> Finding {
    let r = rule(id);
    Finding {
        rule: r.id,
        level: r.level,
        tool,
        message: format!("{what}{}", d.message),
        hint: r.hint,
        file: d.file,
        pointer: d.pointer,
        line: d.line,
    }
}

/// `{slots}` of the path without an `in: path` parameter, and `in: path`
/// parameters without a slot.
fn path_parameters(op: &Operation<'_>, tool: Option<String>) -> Vec<Finding> {
    let slots = op.template_slots();
    let declared: Vec<(&str, String)> = op
        .params
        .iter()
        .filter(|p| p.location == "path")
        .map(|p| (p.name, p.file().to_string() + "#" + p.pointer()))
        .collect();
    let method = op.method.to_ascii_uppercase();
    let file = op.file().to_string();
    let mut out = Vec::new();
    for slot in &slots {
        if !declared.iter().any(|(name, _)| name == slot) {
            let r = rule("path-parameter-undeclared");
            out.push(Finding {
                rule: r.id,
                level: r.level,
                tool: tool.clone(),
                message: format!(
                    "`{{{slot}}}` in {method} {} has no `in: path` parameter named `{slot}`; the tool takes it as a required string nobody described",
                    op.path
                ),
                hint: r.hint,
                file: file.clone(),
                pointer: op.pointer().to_string(),
                line: None,
            });
        }
    }
    for (name, at) in declared {
        if !slots.contains(&name) {
            let r = rule("path-parameter-not-in-template");
            let (pfile, pointer) = at.split_once('#').unwrap_or((&file, ""));
            out.push(Finding {
                rule: r.id,
                level: r.level,
                tool: tool.clone(),
                message: format!(
                    "path parameter `{name}` of {method} {} has no `{{{name}}}` in the path; the tool leaves it out",
                    op.path
                ),
                hint: r.hint,
                file: pfile.to_string(),
                pointer: pointer.to_string(),
                line: None,
            });
        }
    }
    out
}

/// The path a pointer under `/paths` of the root file belongs to.
fn anchor_path(order: &Order, pointer: &str) -> Option<String> {
    let path = path_and_method(pointer)?.0;
    order.paths.contains_key(&path).then_some(path)
}

/// The document order of paths and of the operations in each.
pub(super) struct Order {
    paths: HashMap<String, (usize, Vec<String>)>,
}

impl Order {
    /// Reads the order from the root document's `paths`.
    pub(super) fn of(doc: &Document) -> Self {
        let paths = doc
            .paths_layout()
            .into_iter()
            .enumerate()
            .map(|(i, item)| (item.path, (i, item.keys)))
            .collect();
        Self { paths }
    }

    /// The anchor of an operation.
    pub(super) fn operation(&self, path: &str, method: &str) -> Anchor {
        match self.paths.get(path) {
            Some((i, methods)) => (
                *i,
                1 + methods.iter().position(|m| m == method).unwrap_or(0),
            ),
            None => (usize::MAX, 0),
        }
    }

    /// The anchor of a pointer into the root document
    /// (`/paths/~1pets/get/...`); others sort last.
    pub(super) fn of_pointer(&self, pointer: &str) -> Anchor {
        let Some((path, method)) = path_and_method(pointer) else {
            return (usize::MAX, 0);
        };
        match (self.paths.get(&path), method) {
            (Some((i, methods)), Some(m)) => (
                *i,
                methods.iter().position(|x| *x == m).map_or(0, |p| p + 1),
            ),
            (Some((i, _)), None) => (*i, 0),
            _ => (usize::MAX, 0),
        }
    }
}
