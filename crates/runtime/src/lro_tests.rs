//! Unit tests of the long-running-operation runtime: detection, status
//! reading, waits, the final-result rule and runtime expressions.

use std::time::{Duration, SystemTime};

use serde_json::{Map, Value, json};

use super::*;
use crate::binding::{HttpBinding, Location, ParamBinding, Style};

fn headers(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

const CALLED: &str = "https://api.example.com/v1/exports?api-version=2";

#[test]
fn a_202_with_any_status_header_is_long_running_preferring_azure_then_operation_location() {
    let all = headers(&[
        ("Location", "/v1/exports/e1"),
        (
            "Operation-Location",
            "https://api.example.com/v1/operations/o1",
        ),
        ("Azure-AsyncOperation", "operations/a1?api-version=2"),
    ]);
    let found = detect(None, 202, &all, CALLED).unwrap();
    assert_eq!(
        found.status_url,
        "https://api.example.com/v1/operations/a1?api-version=2"
    );
    assert_eq!(found.header, "azure-asyncoperation");
    assert_eq!(
        found.location.as_deref(),
        Some("https://api.example.com/v1/exports/e1")
    );
    let two = headers(&[
        ("location", "/v1/exports/e1"),
        ("operation-location", "/v1/operations/o1"),
    ]);
    assert_eq!(
        detect(None, 202, &two, CALLED).unwrap().status_url,
        "https://api.example.com/v1/operations/o1"
    );
    let location = headers(&[("LOCATION", "exports/e1#frag")]);
    assert_eq!(
        detect(None, 202, &location, CALLED).unwrap().status_url,
        "https://api.example.com/v1/exports/e1"
    );
}

#[test]
fn only_a_declared_operation_is_long_running_on_200_or_201_and_never_by_location_alone() {
    let async_op = headers(&[("Azure-AsyncOperation", "/v1/operations/a1")]);
    let declared = LroBinding::default();
    assert!(detect(None, 201, &async_op, CALLED).is_none());
    assert_eq!(
        detect(Some(&declared), 201, &async_op, CALLED)
            .unwrap()
            .status_url,
        "https://api.example.com/v1/operations/a1"
    );
    // A 201's Location names the created resource, not a status.
    let created = headers(&[("Location", "/v1/exports/e1")]);
    assert!(detect(Some(&declared), 201, &created, CALLED).is_none());
    // A 202 without a status URL, or with one that is not http(s).
    assert!(detect(None, 202, &[], CALLED).is_none());
    let odd = headers(&[("Location", "mailto:ops@example.com")]);
    assert!(detect(None, 202, &odd, CALLED).is_none());
    assert!(detect(None, 200, &created, CALLED).is_none());
}

#[test]
fn status_bodies_are_read_like_azure_and_the_microsoft_guidelines_write_them() {
    let read = |v: Value| read_status(Some(&v));
    assert_eq!(
        read(json!({"status": "Running"})),
        OpStatus::Running(Some("Running".into()))
    );
    assert_eq!(
        read(json!({"status": "notStarted", "percentComplete": 45})),
        OpStatus::Running(Some("notStarted (45%)".into()))
    );
    assert_eq!(
        read(json!({"Status": "in_progress", "progress": 12.5})),
        OpStatus::Running(Some("in_progress (12.5%)".into()))
    );
    assert_eq!(
        read(json!({"status": "succeeded"})),
        OpStatus::Succeeded("succeeded".into())
    );
    assert_eq!(
        read(json!({"status": "FAILED", "error": {"code": "X"}})),
        OpStatus::Failed("FAILED".into())
    );
    assert_eq!(
        read(json!({"status": "Cancelled"})),
        OpStatus::Canceled("Cancelled".into())
    );
    assert_eq!(
        read(json!({"status": "Canceled"})),
        OpStatus::Canceled("Canceled".into())
    );
    assert_eq!(
        read(json!({"provisioningState": "Creating"})),
        OpStatus::Running(Some("Creating".into()))
    );
    assert_eq!(
        read(json!({"id": "vm1", "properties": {"provisioningState": "Succeeded"}})),
        OpStatus::Succeeded("Succeeded".into())
    );
    // A resource with a domain status of its own is a result, not a status.
    assert_eq!(
        read(json!({"id": "r1", "status": "published"})),
        OpStatus::Unknown
    );
    assert_eq!(read(json!({"id": "r1"})), OpStatus::Unknown);
    assert_eq!(read(json!([1, 2])), OpStatus::Unknown);
    assert_eq!(read_status(None), OpStatus::Unknown);
    assert_eq!(read(json!({"status": 200})), OpStatus::Unknown);
    assert_eq!(
        read(json!({"percentComplete": 40})),
        OpStatus::Running(None)
    );
}

#[test]
fn retry_after_is_honoured_within_bounds_and_the_default_grows_gently() {
    let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_445_412_480);
    let ask = |v: &str| wait_after(&headers(&[("Retry-After", v)]), 0, now);
    assert_eq!(ask("3"), Duration::from_secs(3));
    assert_eq!(ask("0"), MIN_RETRY_AFTER);
    assert_eq!(ask("86400"), MAX_RETRY_AFTER);
    // An HTTP date 10 s after `now`.
    assert_eq!(
        ask("Wed, 21 Oct 2015 07:28:10 GMT"),
        Duration::from_secs(10)
    );
    // Nonsense is no Retry-After at all: the default.
    assert_eq!(ask("soon"), DEFAULT_POLL_INTERVAL);
    let waits: Vec<Duration> = (0..12).map(|quiet| wait_after(&[], quiet, now)).collect();
    assert_eq!(waits[0], Duration::from_secs(1));
    assert_eq!(waits[1], Duration::from_millis(1500));
    assert!(waits.windows(2).all(|w| w[0] <= w[1]), "{waits:?}");
    assert_eq!(*waits.last().unwrap(), MAX_DEFAULT_INTERVAL);
    assert_eq!(wait_after(&[], u32::MAX, now), MAX_DEFAULT_INTERVAL);
}

#[test]
fn the_final_result_is_found_as_final_state_via_or_the_default_rule_says() {
    let original = "https://api.example.com/v1/vms/vm1?api-version=2";
    let status = "https://api.example.com/v1/operations/o1";
    let location = Some("https://api.example.com/v1/results/x");
    let body = json!({"status": "Succeeded", "resourceLocation": "/v1/reports/r1"});
    let report = Some("https://api.example.com/v1/reports/r1".to_string());
    let target = |via, method, location, body: Option<&Value>| {
        final_target(via, method, original, location, status, body)
    };
    assert_eq!(
        target(
            Some(FinalStateVia::OriginalUri),
            "POST",
            location,
            Some(&body)
        ),
        Some(original.to_string())
    );
    assert_eq!(
        target(Some(FinalStateVia::Location), "POST", location, Some(&body)),
        location.map(str::to_string)
    );
    assert_eq!(
        target(Some(FinalStateVia::Location), "POST", None, Some(&body)),
        report
    );
    assert_eq!(
        target(
            Some(FinalStateVia::AzureAsyncOperation),
            "POST",
            location,
            Some(&body)
        ),
        report
    );
    assert_eq!(
        target(
            Some(FinalStateVia::OperationLocation),
            "POST",
            location,
            None
        ),
        None
    );
    // Defaults: a PUT reads its resource; a POST its Location, else
    // resourceLocation, else the status body.
    assert_eq!(
        target(None, "PUT", location, None),
        Some(original.to_string())
    );
    assert_eq!(
        target(None, "PATCH", None, None),
        Some(original.to_string())
    );
    assert_eq!(
        target(None, "POST", location, Some(&body)),
        location.map(str::to_string)
    );
    assert_eq!(target(None, "POST", Some(status), Some(&body)), report);
    assert_eq!(target(None, "DELETE", None, None), None);
}

fn binding() -> HttpBinding {
    let param = |arg: &str, name: &str, location| ParamBinding {
        arg: arg.into(),
        name: name.into(),
        location,
        style: Style::Simple,
        explode: false,
        required: false,
        allow_reserved: false,
        content_type: None,
    };
    HttpBinding {
        method: "POST".into(),
        path: "/projects/{projectId}/exports".into(),
        params: vec![
            param("projectId", "projectId", Location::Path),
            param("format", "format", Location::Query),
            param("X-Tenant", "X-Tenant", Location::Header),
            param("query_projectId", "projectId", Location::Query),
        ],
        body: None,
        servers: Vec::new(),
        security: Vec::new(),
        output: None,
        response_media_types: Vec::new(),
        response_headers: Vec::new(),
        lro: None,
        workflow: None,
    }
}

#[test]
fn runtime_expressions_resolve_against_the_call_and_its_answer() {
    let binding = binding();
    let args: Map<String, Value> = serde_json::from_value(json!({
        "projectId": 7, "format": "csv", "X-Tenant": "acme", "query_projectId": "q"
    }))
    .unwrap();
    let response_headers = headers(&[("Location", "https://api.example.com/v1/exports/e1")]);
    let ctx = ExprContext {
        url: "https://api.example.com/v1/projects/7/exports?format=csv",
        method: "POST",
        binding: &binding,
        args: &args,
        request_body: Some(br#"{"report": {"name": "sales/q1"}}"#),
        status: 202,
        response_headers: &response_headers,
        response_body: br#"{"id": "e1", "links": {"a/b": 3, "m~n": [true]}}"#,
    };
    let eval = |v: Value| resolve_value(&v, &ctx);
    assert_eq!(eval(json!("$response.body#/id")), Ok(json!("e1")));
    assert_eq!(eval(json!("$response.body#/links/a~1b")), Ok(json!(3)));
    assert_eq!(eval(json!("$response.body#/links/m~0n/0")), Ok(json!(true)));
    assert_eq!(eval(json!("$response.body#/links/a%7E1b")), Ok(json!(3)));
    assert_eq!(
        eval(json!("$response.header.location")),
        Ok(json!("https://api.example.com/v1/exports/e1"))
    );
    assert_eq!(eval(json!("$request.path.projectId")), Ok(json!(7)));
    assert_eq!(eval(json!("$request.query.format")), Ok(json!("csv")));
    // The query parameter named like the path one, by its location.
    assert_eq!(eval(json!("$request.query.projectId")), Ok(json!("q")));
    assert_eq!(eval(json!("$request.header.x-tenant")), Ok(json!("acme")));
    assert_eq!(
        eval(json!("$request.body#/report/name")),
        Ok(json!("sales/q1"))
    );
    assert_eq!(eval(json!("$statusCode")), Ok(json!(202)));
    assert_eq!(eval(json!("$method")), Ok(json!("POST")));
    assert_eq!(
        eval(json!("$url")),
        Ok(json!(
            "https://api.example.com/v1/projects/7/exports?format=csv"
        ))
    );
    // Embedded expressions and constants.
    assert_eq!(
        eval(json!(
            "exports/{$response.body#/id}/p{$request.path.projectId}"
        )),
        Ok(json!("exports/e1/p7"))
    );
    assert_eq!(eval(json!("plain")), Ok(json!("plain")));
    assert_eq!(eval(json!(42)), Ok(json!(42)));
    // What has no value says which expression and why.
    let missing = eval(json!("$response.body#/nope")).unwrap_err();
    assert!(missing.contains("$response.body#/nope"), "{missing}");
    let header = eval(json!("$response.header.Retry-After")).unwrap_err();
    assert!(header.contains("no such header"), "{header}");
    let unknown = eval(json!("$request.path.exportId")).unwrap_err();
    assert!(
        unknown.contains("no path parameter `exportId`"),
        "{unknown}"
    );
    let bogus = eval(json!("$response.query.x")).unwrap_err();
    assert!(bogus.contains("not a runtime expression"), "{bogus}");
    let open = eval(json!("a{$url")).unwrap_err();
    assert!(open.contains("without a closing"), "{open}");
}

#[test]
fn an_unset_argument_has_no_value() {
    let binding = binding();
    let args = Map::new();
    let ctx = ExprContext {
        url: "https://api.example.com/v1/projects/7/exports",
        method: "POST",
        binding: &binding,
        args: &args,
        request_body: None,
        status: 202,
        response_headers: &[],
        response_body: b"not json",
    };
    let err = resolve_value(&json!("$request.query.format"), &ctx).unwrap_err();
    assert!(err.contains("did not give `format`"), "{err}");
    let err = resolve_value(&json!("$response.body#/id"), &ctx).unwrap_err();
    assert!(err.contains("not JSON"), "{err}");
    let err = resolve_value(&json!("$request.body"), &ctx).unwrap_err();
    assert!(err.contains("no JSON body"), "{err}");
}

#[test]
fn a_catalog_written_before_long_running_operations_still_reads() {
    let old = json!({"method": "POST", "path": "/exports"});
    let binding: HttpBinding = serde_json::from_value(old).unwrap();
    assert_eq!(binding.lro, None);
    // And the field round-trips, kebab-case as Azure spells it.
    let with = json!({"method": "POST", "path": "/exports",
        "lro": {"final_state_via": "original-uri"}});
    let binding: HttpBinding = serde_json::from_value(with.clone()).unwrap();
    assert_eq!(
        binding.lro.as_ref().unwrap().final_state_via,
        Some(FinalStateVia::OriginalUri)
    );
    assert_eq!(serde_json::to_value(&binding).unwrap(), with);
    assert_eq!(
        FinalStateVia::parse("Azure-Async-Operation"),
        Some(FinalStateVia::AzureAsyncOperation)
    );
    assert_eq!(FinalStateVia::parse("somewhere"), None);
}

/// A monitor moves to another task (a server's task store), and so do the
/// futures of its polls and cancels.
#[test]
fn a_monitor_and_its_futures_are_send() {
    fn send<T: Send>(_: &T) {}
    fn sendable<T: Send>() {}
    sendable::<Monitor>();
    sendable::<crate::call::CallReport>();
    #[allow(dead_code)]
    fn futures(monitor: &mut Monitor) {
        send(&monitor.poll());
        send(&monitor.cancel());
    }
}
