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
    assert_eq!(regex("^2\\d\\d$", "$statusCode").holds(&scope), Ok(true));
    assert_eq!(regex("^200$", "$statusCode").holds(&scope), Ok(false));
    assert_eq!(regex("OK", "$response.body#/note").holds(&scope), Ok(true));
    assert_eq!(
        jsonpath("$.pets[?@.status == 'sold']").holds(&scope),
        Ok(true)
    );
    assert_eq!(
        jsonpath("$.pets[?@.status == 'available']").holds(&scope),
        Ok(false)
    );
    assert_eq!(jsonpath("$.missing").holds(&scope), Ok(false));
    // Bad patterns and queries, and a context without a value, are errors
    // naming the criterion.
    let bad = regex("(", "$statusCode").holds(&scope).unwrap_err();
    assert!(bad.contains("not a regular expression"), "{bad}");
    let bad = jsonpath("$[?").holds(&scope).unwrap_err();
    assert!(bad.contains("not a JSONPath query"), "{bad}");
    let none = regex("x", "$steps.nope.outputs.x")
        .holds(&scope)
        .unwrap_err();
    assert!(none.contains("has no value"), "{none}");
}
