use serde_json::json;

use super::*;

#[test]
fn bindings_survive_a_json_round_trip() {
    let w = WorkflowBinding {
        id: "w".into(),
        steps: vec![StepBinding {
            id: "s".into(),
            tool: "get_pet".into(),
            args: vec![("petId".into(), json!("$inputs.id"))],
            payload: None,
            success: vec![
                Criterion {
                    condition: "$statusCode == 200".into(),
                    kind: CriterionKind::Simple,
                },
                Criterion {
                    condition: "$[?@.status == 'sold']".into(),
                    kind: CriterionKind::JsonPath {
                        context: "$response.body".into(),
                    },
                },
            ],
            on_success: vec![],
            on_failure: vec![Action {
                name: "again".into(),
                kind: ActionKind::Retry {
                    after_seconds: 0.5,
                    limit: 2,
                },
                criteria: vec![],
            }],
            outputs: vec![("name".into(), "$response.body#/name".into())],
        }],
        outputs: vec![("name".into(), "$steps.s.outputs.name".into())],
        on_success: vec![],
        on_failure: vec![],
    };
    let text = serde_json::to_string(&w).unwrap();
    assert_eq!(serde_json::from_str::<WorkflowBinding>(&text).unwrap(), w);
}

fn answered(status: u16, body: serde_json::Value) -> expr::Scope {
    expr::Scope {
        current: Some(expr::Exchange {
            status: Some(status),
            body,
            ..Default::default()
        }),
        ..Default::default()
    }
}

#[test]
fn regex_and_jsonpath_criteria_apply_to_their_context() {
    let regex = |pattern: &str, context: &str| Criterion {
        condition: pattern.into(),
        kind: CriterionKind::Regex {
            context: context.into(),
        },
    };
    let jsonpath = |query: &str| Criterion {
        condition: query.into(),
        kind: CriterionKind::JsonPath {
            context: "$response.body".into(),
        },
    };
    let scope = answered(
        201,
        json!({"pets": [{"id": 1, "status": "sold"}], "note": "Created OK"}),
    );
    assert_eq!(holds(&regex("^2\\d\\d$", "$statusCode"), &scope), Ok(true));
    assert_eq!(holds(&regex("^200$", "$statusCode"), &scope), Ok(false));
    assert_eq!(
        holds(&regex("OK", "$response.body#/note"), &scope),
        Ok(true)
    );
    assert_eq!(
        holds(&jsonpath("$.pets[?@.status == 'sold']"), &scope),
        Ok(true)
    );
    assert_eq!(
        holds(&jsonpath("$.pets[?@.status == 'available']"), &scope),
        Ok(false)
    );
    assert_eq!(holds(&jsonpath("$.missing"), &scope), Ok(false));
    // Bad patterns and queries, and a context without a value, are errors
    // naming the criterion.
    let bad = holds(&regex("(", "$statusCode"), &scope).unwrap_err();
    assert!(bad.contains("not a regular expression"), "{bad}");
    let bad = holds(&jsonpath("$[?"), &scope).unwrap_err();
    assert!(bad.contains("not a JSONPath query"), "{bad}");
    let none = holds(&regex("x", "$steps.nope.outputs.x"), &scope).unwrap_err();
    assert!(none.contains("has no value"), "{none}");
}

/// A tool calling `GET /items` on a port nothing listens on, and a
/// workflow of one step calling it.
fn api_with_a_workflow() -> (Api, WorkflowBinding) {
    use crate::call::{ApiOptions, ToolEndpoint};
    use std::sync::Arc;
    let schema: Map<String, Value> = serde_json::from_value(json!({"type": "object"})).unwrap();
    let binding = |method: &str, path: &str, workflow: Option<WorkflowBinding>| HttpBinding {
        method: method.into(),
        path: path.into(),
        params: vec![],
        body: None,
        servers: vec![],
        security: vec![],
        output: None,
        response_media_types: Vec::new(),
        response_headers: Vec::new(),
        lro: None,
        workflow: workflow.map(Box::new),
    };
    let workflow = WorkflowBinding {
        id: "w".into(),
        steps: vec![StepBinding {
            id: "fetch".into(),
            tool: "list_items".into(),
            args: vec![],
            payload: None,
            success: vec![],
            on_success: vec![],
            // A refused step is not retried.
            on_failure: vec![Action {
                name: "again".into(),
                kind: ActionKind::Retry {
                    after_seconds: 0.0,
                    limit: 1,
                },
                criteria: vec![],
            }],
            outputs: vec![],
        }],
        outputs: vec![],
        on_success: vec![],
        on_failure: vec![],
    };
    let endpoint = |name: &str, http: HttpBinding| ToolEndpoint {
        name: name.into(),
        http,
        input_schema: Arc::new(schema.clone()),
        output_schema: None,
        input_full: None,
        output_full: None,
    };
    let api = Api::with_endpoints(
        &std::collections::BTreeMap::new(),
        vec![
            endpoint("list_items", binding("GET", "/items", None)),
            endpoint("w", binding("WORKFLOW", "arazzo:w", Some(workflow.clone()))),
        ],
        ApiOptions {
            base_url: Some("http://127.0.0.1:9".into()),
            ..ApiOptions::default()
        },
    )
    .unwrap();
    (api, workflow)
}

/// Refuses every step, counting what it was asked.
struct Refuse(std::sync::Mutex<Vec<String>>);

impl StepCheck for Refuse {
    fn check(&self, workflow: &str, step: &str, tool: &str) -> Result<(), String> {
        self.0
            .lock()
            .unwrap()
            .push(format!("{workflow}/{step}/{tool}"));
        Err("the caller may not call it".into())
    }
}

#[tokio::test]
async fn a_step_the_caller_s_check_refuses_ends_the_workflow_unsent() {
    let (api, workflow) = api_with_a_workflow();
    let check = std::sync::Arc::new(Refuse(Default::default()));
    let report = checking(
        check.clone(),
        run(&api, &workflow, &Map::new(), &crate::forward::NONE),
    )
    .await;
    let text = text_of(&report.outcome);
    assert!(report.outcome.is_error);
    assert!(
        text.contains("failed at step `fetch`: not run: the caller may not call it"),
        "{text}"
    );
    assert_eq!(report.status, None, "nothing was sent");
    // Asked once: the retry action does not apply to a refusal.
    assert_eq!(*check.0.lock().unwrap(), ["w/fetch/list_items"]);
    // Without a check the step is sent (and fails: nothing listens).
    let sent = run(&api, &workflow, &Map::new(), &crate::forward::NONE).await;
    assert!(!text_of(&sent.outcome).contains("not run"));
}
