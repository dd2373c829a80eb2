//! Unit tests of `call.rs` (kept out of generated crates).

use super::*;
use crate::binding::{Location, ParamBinding, Style};

fn query(arg: &str, name: &str) -> ParamBinding {
    ParamBinding {
        arg: arg.into(),
        name: name.into(),
        location: Location::Query,
        style: Style::Form,
        explode: true,
        required: false,
        allow_reserved: false,
        content_type: None,
    }
}

fn binding(params: Vec<ParamBinding>) -> HttpBinding {
    HttpBinding {
        method: "GET".into(),
        path: "/items".into(),
        params,
        body: None,
        servers: vec![],
        security: vec![],
        output: None,
        response_media_types: Vec::new(),
        response_headers: Vec::new(),
        lro: None,
        workflow: None,
    }
}

#[test]
fn a_cut_result_names_the_operation_s_own_paging_and_filter_arguments() {
    let http = binding(vec![
        query("per_page", "per_page"),
        query("page", "page"),
        query("q", "q"),
        query("select", "$select"),
    ]);
    let advice = fetch_less_advice(&http).expect("paging arguments");
    assert_eq!(
        advice,
        "To see the rest, page through the rest with this tool's `per_page`, `page`; or ask for less with `select`"
    );
    let mut outcome = ToolOutcome {
        content: vec![Content::Text(format!(
            "[1]\n\n[truncated: the response exceeded the 9-byte limit; the first 1 item of `$` were kept and later items dropped. {}]",
            response::FETCH_LESS
        ))],
        structured: None,
        is_error: false,
    };
    name_fetch_less_arguments(&mut outcome, &advice);
    let Content::Text(text) = &outcome.content[0] else {
        panic!("text")
    };
    assert!(text.ends_with(&format!("dropped. {advice}]")), "{text}");
    // An operation without such arguments keeps the generic advice, and an
    // uncut result is left alone.
    assert_eq!(fetch_less_advice(&binding(vec![query("q", "q")])), None);
    let mut whole = ToolOutcome {
        content: vec![Content::Text("[1, 2]".into())],
        structured: None,
        is_error: false,
    };
    name_fetch_less_arguments(&mut whole, &advice);
    assert_eq!(whole.content, vec![Content::Text("[1, 2]".into())]);
}

/// A handler that answers every call with `outcome` and counts calls.
struct Canned {
    outcome: ToolOutcome,
    calls: std::sync::atomic::AtomicUsize,
}

impl Handlers for Canned {
    fn handle<'a>(
        &'a self,
        _call: Call<'a>,
        _args: Map<String, Value>,
    ) -> BoxFuture<'a, CallReport> {
        self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let report = CallReport::from(self.outcome.clone());
        Box::pin(async move { report })
    }
}

const RUN_SECRET: &str = "run-entry-point-secret-0123456789";

fn run_api() -> Api {
    let endpoint = ToolEndpoint {
        name: "get_item".into(),
        http: binding(vec![]),
        input_schema: Arc::new(
            serde_json::from_value(serde_json::json!({
                "type": "object",
                "properties": {"id": {"type": "integer"}},
                "required": ["id"]
            }))
            .unwrap(),
        ),
        output_schema: Some(Arc::new(
            serde_json::from_value(serde_json::json!({
                "type": "object",
                "properties": {"token": {"type": "string"}, "n": {"type": "integer"}},
                "required": ["n"]
            }))
            .unwrap(),
        )),
        input_full: None,
        output_full: None,
    };
    let headers =
        auth::fixed::FixedHeaders::parse(&[format!("X-Key: {RUN_SECRET}")], |_| None).unwrap();
    let options = ApiOptions {
        headers: Arc::new(headers),
        ..ApiOptions::default()
    };
    Api::with_endpoints(&BTreeMap::new(), vec![endpoint], options).unwrap()
}

fn structured(value: Value) -> ToolOutcome {
    ToolOutcome {
        content: vec![Content::Text(value.to_string())],
        structured: Some(value),
        is_error: false,
    }
}

#[tokio::test]
async fn a_whole_call_runs_admit_handler_conform_and_redact_in_that_order() {
    let api = run_api();
    let tool = api.find("get_item").unwrap();
    let handler = Canned {
        outcome: structured(serde_json::json!({"token": RUN_SECRET, "n": 1})),
        calls: Default::default(),
    };
    // Refused arguments never reach the handler.
    let ran = api.run(&handler, CallRequest::new(tool, Map::new())).await;
    assert_eq!(ran.verdict, Verdict::Invalid);
    assert!(ran.report.outcome.is_error);
    assert!(ran.backend.is_none());
    assert_eq!(handler.calls.load(std::sync::atomic::Ordering::SeqCst), 0);
    // Admitted: the handler's result comes back with the secret masked,
    // in the text and in the structured content.
    let args: Map<String, Value> = serde_json::from_value(serde_json::json!({"id": 7})).unwrap();
    let ran = api
        .run(&handler, CallRequest::new(tool, args.clone()))
        .await;
    assert_eq!(ran.verdict, Verdict::Ok);
    assert!(ran.backend.is_some());
    assert_eq!(handler.calls.load(std::sync::atomic::Ordering::SeqCst), 1);
    let Content::Text(text) = &ran.report.outcome.content[0] else {
        panic!("{:?}", ran.report.outcome)
    };
    assert!(!text.contains(RUN_SECRET), "{text}");
    let token = ran.report.outcome.structured.as_ref().unwrap()["token"].clone();
    assert_ne!(token, Value::String(RUN_SECRET.into()));
    // A result that cannot be made to fit the output schema is an error,
    // and the verdict says so.
    let unfit = Canned {
        outcome: structured(serde_json::json!({"token": "t"})),
        calls: Default::default(),
    };
    let ran = api.run(&unfit, CallRequest::new(tool, args)).await;
    assert_eq!(ran.verdict, Verdict::Error, "{:?}", ran.report.outcome);
    assert!(ran.report.outcome.is_error);
}

#[test]
fn response_notes_in_meta_join_a_repeated_header_and_name_the_next_call() {
    let notes = ResponseNotes {
        headers: vec![
            ("Link".into(), "<https://a/x?page=2>; rel=\"next\"".into()),
            ("ETag".into(), "W/\"1\"".into()),
            ("Link".into(), "<https://a/x?page=9>; rel=\"last\"".into()),
        ],
        next: Some(serde_json::json!({"page": 2}).as_object().unwrap().clone()),
    };
    assert_eq!(
        notes.to_meta("list_x"),
        serde_json::json!({
            "headers": {
                "Link": "<https://a/x?page=2>; rel=\"next\", <https://a/x?page=9>; rel=\"last\"",
                "ETag": "W/\"1\""
            },
            "next": {"tool": "list_x", "arguments": {"page": 2}}
        })
    );
    assert!(ResponseNotes::default().is_empty());
    assert_eq!(ResponseNotes::default().to_meta("t"), serde_json::json!({}));
}
