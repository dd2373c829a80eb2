//! Which operations may be long-running, and what their tools' HTTP
//! bindings record about it ([`LroBinding`]), for the runtime
//! (`runtime::lro`) that follows them to their end.
//!
//! # The rule
//!
//! An operation **may be long-running** when the document says so in any
//! of these ways:
//!
//! - it has a `202` response (Accepted: "processing has not been
//!   completed", RFC 9110 §15.3.3);
//! - it carries Azure's `x-ms-long-running-operation: true`;
//! - a 2xx response documents an `Operation-Location` or
//!   `Azure-AsyncOperation` header (Microsoft's REST guidelines, Azure).
//!
//! Its binding then records `final-state-via` from Azure's
//! `x-ms-long-running-operation-options` (`location`,
//! `azure-async-operation`, `original-uri`, `operation-location`; another
//! value is a warning and the runtime's default rule applies), and a
//! **cancel link** when the document gives one.
//!
//! At run time a `202` with a `Location` or `Operation-Location` is
//! followed even when the document said nothing (see `runtime::lro`).
//!
//! # The cancel link
//!
//! OpenAPI 3.x `links` on the operation's `202` response (then on its other
//! 2xx responses) are searched for one whose target (by `operationId`, or a
//! local `operationRef` `#/paths/<path>/<method>`) cancels: its
//! operationId, summary or the link's name says `cancel`, `abort` or
//! `stop` (preferred), or else its method is `DELETE` (the status
//! resource, or the resource being made, deleted). The link's
//! `parameters` (plain or qualified names, `path.exportId`) feed the
//! target's parameters with constants or runtime expressions
//! (`$response.body#/id`, `$response.header.Location`, `$request.path.id`)
//! that the runtime resolves when the operation starts. A required path,
//! query or header parameter of the target that the link leaves out takes
//! the value of the called operation's parameter of the same name and
//! location (`$request.path.id`), when it has one; otherwise the link
//! cannot be used and a warning says so. A link's `requestBody` and
//! `server` are not used: the cancel request has no body and goes to the
//! API's base URL.
//!
//! # The output schema
//!
//! When the document announces a status resource (a status header on the
//! 202, Azure's extension, a 2xx with an async-operation header, or a
//! cancel link), what the tool returns is the operation's *final* result,
//! not the 202 (see `outputs`): the schema of its lowest non-202 2xx
//! response (Azure documents the final resource as the `200`/`201`), or,
//! when the 202 is its only success, just `{"type": "object"}` (the final
//! result is described nowhere). A bare 202 is a result like any 2xx, and
//! the lowest 2xx gives the schema as for any operation: GitHub's "the
//! fork is being created" answers the fork, its "notifications are being
//! marked in the background" a message.

use openapi2mcp_document::Diagnostic;
use openapi2mcp_document::model::{Link, Operation};
use openapi2mcp_model::binding::{
    CancelLink, FinalStateVia, HttpBinding, LinkArgument, Location, LroBinding,
};

use super::inputs::param_bindings;

/// Headers that name an operation's status resource.
const STATUS_HEADERS: &[&str] = &["location", "operation-location", "azure-asyncoperation"];
/// Headers that only long-running operations send on a 200 or 201.
const ASYNC_HEADERS: &[&str] = &["operation-location", "azure-asyncoperation"];
/// Words in a target's name or summary that mean it cancels.
const CANCEL_WORDS: &[&str] = &["cancel", "abort", "stop"];

/// What the document says about one long-running operation.
#[derive(Debug, Clone, PartialEq)]
pub struct LongRunning {
    /// What the tool's binding records.
    pub binding: LroBinding,
    /// Whether the document announces a status resource (a status header
    /// on the 202, Azure's extension, a 2xx with an async-operation
    /// header, or a cancel link): the 202's body is then a status, not
    /// the result.
    pub announces_status: bool,
}

/// Whether `op` may be long-running (see the module docs), and what its
/// binding records; problems with its extension or links go to `warnings`.
pub fn long_running(op: &Operation<'_>, warnings: &mut Vec<Diagnostic>) -> Option<LongRunning> {
    let codes = op.response_codes();
    let success: Vec<&str> = codes
        .iter()
        .copied()
        .filter(|c| c.len() == 3 && c.starts_with('2'))
        .collect();
    let has_202 = success.contains(&"202");
    let extension = op.long_running_extension();
    let async_header = success.iter().any(|code| {
        op.response(code)
            .is_some_and(|r| ASYNC_HEADERS.iter().any(|h| r.documents_header(h)))
    });
    if !(has_202 || extension.flagged || async_header) {
        return None;
    }
    let final_state_via = extension.final_state_via.as_deref().and_then(|text| {
        let parsed = FinalStateVia::parse(text);
        if parsed.is_none() {
            warnings.push(op.warning_at(
                "x-ms-long-running-operation-options",
                format!(
                    "final-state-via `{text}` is not one of location, azure-async-operation, original-uri, operation-location; the default rule finds the final result"
                ),
            ));
        }
        parsed
    });
    let status_on_202 = has_202
        && op
            .response("202")
            .is_some_and(|r| STATUS_HEADERS.iter().any(|h| r.documents_header(h)));
    // The 202's links first, then the other successes'.
    let mut order: Vec<&str> = success.iter().copied().filter(|c| *c == "202").collect();
    order.extend(success.iter().copied().filter(|c| *c != "202"));
    let cancel = order
        .iter()
        .filter_map(|code| op.response(code))
        .find_map(|r| cancel_link(op, &r.links(), warnings));
    Some(LongRunning {
        announces_status: status_on_202 || extension.flagged || async_header || cancel.is_some(),
        binding: LroBinding {
            final_state_via,
            cancel: cancel.map(Box::new),
        },
    })
}

/// The first link of `links` whose target cancels, made usable: those
/// whose name says so first, then those that DELETE.
fn cancel_link(
    op: &Operation<'_>,
    links: &[Link<'_>],
    warnings: &mut Vec<Diagnostic>,
) -> Option<CancelLink> {
    let targets: Vec<(&Link<'_>, Operation<'_>)> = links
        .iter()
        .filter_map(|link| match link.target() {
            Ok(target) => Some((link, target)),
            Err(why) => {
                if says_cancel(link.name) {
                    warnings.push(link.warning(format!(
                        "link `{}` cannot be used to cancel the operation: {why}",
                        link.name
                    )));
                }
                None
            }
        })
        .collect();
    let named = targets.iter().filter(|(link, target)| {
        says_cancel(link.name)
            || target.operation_id().is_some_and(says_cancel)
            || target.summary().is_some_and(says_cancel)
    });
    let deletes = targets
        .iter()
        .filter(|(_, target)| target.method == "delete");
    named
        .chain(deletes)
        .find_map(|(link, target)| usable(op, link, target, warnings))
}

/// Whether `text` says cancel, abort or stop (any case).
fn says_cancel(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    CANCEL_WORDS.iter().any(|w| lower.contains(w))
}

/// `link` to `target` as a [`CancelLink`], when each required parameter of
/// `target` gets a value; otherwise a warning and `None`.
fn usable(
    op: &Operation<'_>,
    link: &Link<'_>,
    target: &Operation<'_>,
    warnings: &mut Vec<Diagnostic>,
) -> Option<CancelLink> {
    let params = param_bindings(target);
    let mut arguments: Vec<LinkArgument> = Vec::new();
    for (key, value) in link.parameters() {
        let (location, name) = match key.split_once('.') {
            Some((prefix, rest)) => match location_named(prefix) {
                Some(location) => (Some(location), rest),
                None => (None, key),
            },
            None => (None, key),
        };
        let param = params
            .iter()
            .find(|p| p.name == name && location.is_none_or(|l| l == p.location));
        match param {
            Some(p) if !arguments.iter().any(|a| a.arg == p.arg) => arguments.push(LinkArgument {
                arg: p.arg.clone(),
                value: value.clone(),
            }),
            Some(_) => {}
            None => warnings.push(link.warning(format!(
                "link parameter `{key}` names no parameter of the linked operation; ignored"
            ))),
        }
    }
    for p in params.iter().filter(|p| p.required) {
        if arguments.iter().any(|a| a.arg == p.arg) {
            continue;
        }
        let same = op
            .params
            .iter()
            .any(|own| own.name == p.name && location_named(own.location) == Some(p.location));
        if !same || p.location == Location::Cookie {
            warnings.push(link.warning(format!(
                "link `{}` gives no value for the required {} parameter `{}` of the linked operation, and the operation has no parameter of that name to take it from; the link is not used to cancel",
                link.name,
                p.location.as_str(),
                p.name
            )));
            return None;
        }
        arguments.push(LinkArgument {
            arg: p.arg.clone(),
            value: serde_json::Value::String(format!(
                "$request.{}.{}",
                p.location.as_str(),
                p.name
            )),
        });
    }
    Some(CancelLink {
        link: link.name.to_string(),
        operation: target
            .operation_id()
            .map(str::to_string)
            .unwrap_or_else(|| format!("{} {}", target.method.to_ascii_uppercase(), target.path)),
        http: HttpBinding {
            method: target.method.to_ascii_uppercase(),
            path: target.path.to_string(),
            params,
            body: None,
            servers: target.servers(),
            security: target.security(),
            output: None,
            response_media_types: Vec::new(),
            response_headers: Vec::new(),
            lro: None,
            workflow: None,
        },
        arguments,
    })
}

/// The parameter location `text` names.
fn location_named(text: &str) -> Option<Location> {
    match text {
        "path" => Some(Location::Path),
        "query" => Some(Location::Query),
        "header" => Some(Location::Header),
        "cookie" => Some(Location::Cookie),
        _ => None,
    }
}

#[cfg(test)]
#[path = "lro_tests.rs"]
mod tests;
