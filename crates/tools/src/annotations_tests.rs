use super::*;

#[test]
fn hints_follow_the_method() {
    let none = XMcp::default();
    let get = for_method("GET", "t", &none);
    assert!(
        get.read_only_hint && get.idempotent_hint && !get.destructive_hint && get.open_world_hint
    );
    let post = for_method("POST", "t", &none);
    assert!(!post.read_only_hint && !post.idempotent_hint && !post.destructive_hint);
    let put = for_method("PUT", "t", &none);
    assert!(!put.read_only_hint && put.idempotent_hint && !put.destructive_hint);
    let delete = for_method("DELETE", "t", &none);
    assert!(delete.destructive_hint && delete.idempotent_hint && !delete.read_only_hint);
    let query = for_method("QUERY", "t", &none);
    assert!(query.read_only_hint && query.idempotent_hint && !query.destructive_hint);
    let copy = for_method("COPY", "t", &none);
    assert!(!copy.read_only_hint && !copy.idempotent_hint && !copy.destructive_hint);
    let patch = for_method("PATCH", "t", &none);
    assert!(!patch.idempotent_hint && !patch.destructive_hint);
}

#[test]
fn overrides_win() {
    let o = XMcp {
        annotations: HintOverrides {
            destructive_hint: Some(true),
            ..HintOverrides::default()
        },
        ..XMcp::default()
    };
    assert!(for_method("POST", "t", &o).destructive_hint);
}
