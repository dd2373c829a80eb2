use super::*;
use openapi2mcp_runtime::catalog::ToolAnnotations;

fn annotations(read_only: bool, destructive: bool) -> ToolAnnotations {
    ToolAnnotations {
        title: String::new(),
        read_only_hint: read_only,
        destructive_hint: destructive,
        idempotent_hint: false,
        open_world_hint: true,
    }
}

#[test]
fn policies_pick_the_calls_to_confirm() {
    let get = annotations(true, false);
    let post = annotations(false, false);
    let delete = annotations(false, true);
    assert!(!ConfirmPolicy::Destructive.applies(&get));
    assert!(!ConfirmPolicy::Destructive.applies(&post));
    assert!(ConfirmPolicy::Destructive.applies(&delete));
    assert!(ConfirmPolicy::Writes.applies(&post) && ConfirmPolicy::Writes.applies(&delete));
    assert!(!ConfirmPolicy::Writes.applies(&get));
    assert!(!ConfirmPolicy::None.applies(&delete));
}

#[test]
fn argument_digests_ignore_key_order_but_not_values() {
    let a: Map<String, Value> =
        serde_json::from_str(r#"{"id":1,"body":{"x":1,"y":[2,3]}}"#).unwrap();
    let b: Map<String, Value> =
        serde_json::from_str(r#"{"body":{"y":[2,3],"x":1},"id":1}"#).unwrap();
    let c: Map<String, Value> =
        serde_json::from_str(r#"{"body":{"y":[3,2],"x":1},"id":1}"#).unwrap();
    assert_eq!(args_digest(&a), args_digest(&b));
    assert_ne!(args_digest(&a), args_digest(&c));
}

#[test]
fn an_unticked_form_is_no_acceptance() {
    let accepted: ElicitResult =
        serde_json::from_value(json!({"action": "accept", "content": {"confirm": true}})).unwrap();
    let unticked: ElicitResult =
        serde_json::from_value(json!({"action": "accept", "content": {"confirm": false}})).unwrap();
    let declined: ElicitResult = serde_json::from_value(json!({"action": "decline"})).unwrap();
    let cancelled: ElicitResult = serde_json::from_value(json!({"action": "cancel"})).unwrap();
    assert_eq!(answer_of(&accepted), Answer::Accepted);
    assert_eq!(answer_of(&unticked), Answer::Declined);
    assert_eq!(answer_of(&declined), Answer::Declined);
    assert_eq!(answer_of(&cancelled), Answer::Cancelled);
}
