//! Reading what a long-running operation's answers say: whether an
//! initial answer names a status URL ([`detect`]), what a status body
//! says ([`read_status`]), how long to wait before the next poll
//! ([`wait_after`]), and where the final result is ([`final_target`]).
//! Pure functions: the [`super::Monitor`] does the I/O.

use std::time::{Duration, SystemTime};

use serde_json::Value;

use super::super::binding::{FinalStateVia, LroBinding};
use super::super::http::retry_after;
use super::{DEFAULT_POLL_INTERVAL, MAX_DEFAULT_INTERVAL, MAX_RETRY_AFTER, MIN_RETRY_AFTER};

/// Status headers in order of preference: Azure's own, the Microsoft REST
/// guidelines', then HTTP's.
const STATUS_HEADERS: &[&str] = &["azure-asyncoperation", "operation-location", "location"];

/// A status URL found on an initial answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detected {
    /// The status URL, absolute (resolved against the request URL).
    pub status_url: String,
    /// The header that named it, lower-case.
    pub header: &'static str,
    /// The initial answer's `Location`, absolute, when it has one (where
    /// the final result may be).
    pub location: Option<String>,
}

/// The status URL of an initial answer (`status`, `headers`) to a request
/// sent to `request_url`, if the answer starts a long-running operation
/// (see the module docs of [`super`]): a 202 with any status header, or,
/// for an operation the document declares long-running (`declared`), a
/// 200 or 201 with `Azure-AsyncOperation` or `Operation-Location`. A
/// header that is not an http(s) URL (once resolved against the request
/// URL) does not count.
pub fn detect(
    declared: Option<&LroBinding>,
    status: u16,
    headers: &[(String, String)],
    request_url: &str,
) -> Option<Detected> {
    let candidates: &[&str] = match status {
        202 => STATUS_HEADERS,
        200 | 201 if declared.is_some() => &STATUS_HEADERS[..2],
        _ => return None,
    };
    let absolute = |name: &str| header(headers, name).and_then(|v| resolve(request_url, v));
    let (header, status_url) = candidates
        .iter()
        .find_map(|name| absolute(name).map(|url| (*name, url)))?;
    Some(Detected {
        status_url,
        header,
        location: absolute("location"),
    })
}

/// `reference` resolved against `base`, when it is an http(s) URL; the
/// fragment dropped.
pub(super) fn resolve(base: &str, reference: &str) -> Option<String> {
    let base = url::Url::parse(base).ok()?;
    let mut url = base.join(reference.trim()).ok()?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return None;
    }
    url.set_fragment(None);
    Some(url.into())
}

/// The first non-empty value of header `name` (case-insensitive).
pub(super) fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .filter(|(n, _)| n.trim().eq_ignore_ascii_case(name))
        .map(|(_, v)| v.trim())
        .find(|v| !v.is_empty())
}

/// What a status body says about the operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpStatus {
    /// Still in progress; the status as written, with the percentage done
    /// when the body gives one (`Running (45%)`), or `None` when it only
    /// gave a percentage.
    Running(Option<String>),
    /// Ended well; the status as written.
    Succeeded(String),
    /// Ended in failure; the status as written.
    Failed(String),
    /// Was canceled; the status as written.
    Canceled(String),
    /// No status field this module knows, or a value it does not know: the
    /// body is not an operation status, it is the result itself.
    Unknown,
}

/// Statuses that mean "still going", compared without case, `_`, `-` or
/// spaces.
const RUNNING: &[&str] = &[
    "notstarted",
    "queued",
    "pending",
    "accepted",
    "scheduled",
    "waiting",
    "started",
    "running",
    "inprogress",
    "processing",
    "executing",
    "creating",
    "updating",
    "deleting",
    "provisioning",
    "canceling",
    "cancelling",
];
const SUCCEEDED: &[&str] = &[
    "succeeded",
    "success",
    "successful",
    "completed",
    "complete",
    "done",
    "finished",
];
const FAILED: &[&str] = &["failed", "failure", "error", "errored", "faulted"];
const CANCELED: &[&str] = &["canceled", "cancelled", "aborted"];

/// What `body` (a status resource's JSON body) says: its `status` field
/// (any case), else `provisioningState`, else
/// `properties.provisioningState` (Azure Resource Manager); a percentage
/// from `percentComplete` (or `percent_complete`, `percentage`,
/// `progress`, 0 to 100) is added to a running status.
pub fn read_status(body: Option<&Value>) -> OpStatus {
    let Some(Value::Object(map)) = body else {
        return OpStatus::Unknown;
    };
    let field = |m: &serde_json::Map<String, Value>, name: &str| -> Option<String> {
        m.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .and_then(|(_, v)| v.as_str())
            .map(str::to_string)
    };
    let written = field(map, "status")
        .or_else(|| field(map, "provisioningState"))
        .or_else(|| {
            map.get("properties")
                .and_then(Value::as_object)
                .and_then(|p| field(p, "provisioningState"))
        });
    let percent = percent_done(map);
    let Some(written) = written else {
        // A bare percentage is progress too (until it reaches 100).
        return match percent {
            Some(p) if p < 100.0 => OpStatus::Running(None),
            _ => OpStatus::Unknown,
        };
    };
    let key: String = written
        .chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .flat_map(char::to_lowercase)
        .collect();
    let is = |set: &[&str]| set.contains(&key.as_str());
    if is(RUNNING) {
        let label = match percent {
            Some(p) => format!("{written} ({}%)", trim_number(p)),
            None => written,
        };
        OpStatus::Running(Some(label))
    } else if is(SUCCEEDED) {
        OpStatus::Succeeded(written)
    } else if is(FAILED) {
        OpStatus::Failed(written)
    } else if is(CANCELED) {
        OpStatus::Canceled(written)
    } else {
        OpStatus::Unknown
    }
}

/// The percentage done a status body gives, 0 to 100.
fn percent_done(map: &serde_json::Map<String, Value>) -> Option<f64> {
    [
        "percentComplete",
        "percent_complete",
        "percentage",
        "progress",
    ]
    .iter()
    .find_map(|name| {
        map.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .and_then(|(_, v)| v.as_f64())
    })
    .filter(|p| (0.0..=100.0).contains(p))
}

/// `45` for 45.0, `45.5` for 45.5.
fn trim_number(n: f64) -> String {
    if n.fract() == 0.0 {
        format!("{n:.0}")
    } else {
        format!("{n:.1}")
    }
}

/// How long to wait before the next poll after an answer with `headers`:
/// its `Retry-After` (seconds or an HTTP date, as of `now`) clamped to
/// [`MIN_RETRY_AFTER`]..=[`MAX_RETRY_AFTER`]; without one, the default
/// interval after `quiet` earlier answers that named none: one second,
/// half as long again each time, at most [`MAX_DEFAULT_INTERVAL`].
pub fn wait_after(headers: &[(String, String)], quiet: u32, now: SystemTime) -> Duration {
    if let Some(asked) = retry_after(headers, now) {
        return asked.clamp(MIN_RETRY_AFTER, MAX_RETRY_AFTER);
    }
    let grown = DEFAULT_POLL_INTERVAL.as_secs_f64() * 1.5f64.powi(quiet.min(64) as i32);
    Duration::from_secs_f64(grown.min(MAX_DEFAULT_INTERVAL.as_secs_f64()))
}

/// Whether the answer named its own wait (a `Retry-After` that parses).
pub(super) fn names_wait(headers: &[(String, String)]) -> bool {
    retry_after(headers, SystemTime::now()).is_some()
}

/// Where the final result of a succeeded operation is (see the module
/// docs of [`super`]): `None` when it is the status body itself.
/// `method` and `original_url` are the call's; `location` the initial
/// answer's `Location`; `status_body` the status resource's last answer,
/// whose `resourceLocation` is resolved against `status_url`.
pub fn final_target(
    via: Option<FinalStateVia>,
    method: &str,
    original_url: &str,
    location: Option<&str>,
    status_url: &str,
    status_body: Option<&Value>,
) -> Option<String> {
    let resource_location = || {
        status_body
            .and_then(|b| b.get("resourceLocation"))
            .and_then(Value::as_str)
            .and_then(|u| resolve(status_url, u))
    };
    let other_location = || location.filter(|l| *l != status_url).map(str::to_string);
    match via {
        Some(FinalStateVia::OriginalUri) => Some(original_url.to_string()),
        Some(FinalStateVia::Location) => location.map(str::to_string).or_else(resource_location),
        Some(FinalStateVia::AzureAsyncOperation | FinalStateVia::OperationLocation) => {
            resource_location()
        }
        None if matches!(method, "PUT" | "PATCH") => Some(original_url.to_string()),
        None => other_location().or_else(resource_location),
    }
}
