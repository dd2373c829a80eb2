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
            success: vec![Criterion {
                condition: "$statusCode == 200".into(),
            }],
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
