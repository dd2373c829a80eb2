use super::*;
use serde_json::json;

fn key(scope: &[(&str, &str)]) -> ScopeKey {
    ScopeKey {
        collection: "/repos/{owner}/{repo}/issues".into(),
        scope: scope
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    }
}

fn seed() -> Scope {
    Scope {
        items: vec![json!({"number": 1})],
        next_id: 2,
    }
}

fn push(store: &Store, k: &ScopeKey, n: u64) -> Result<(), Problem> {
    store.write(k, &seed(), |s| {
        s.items.push(json!({ "number": n }));
        s.next_id = n + 1;
        Ok(())
    })
}

#[test]
fn unwritten_scopes_read_as_the_seed_and_writes_stay_in_their_scope() {
    let store = Store::in_memory(10);
    let (a, b) = (
        key(&[("owner", "o"), ("repo", "a")]),
        key(&[("owner", "o"), ("repo", "b")]),
    );
    assert_eq!(store.read(&a, &seed(), |s| s.items.len()), 1);
    push(&store, &a, 2).unwrap();
    assert_eq!(store.read(&a, &seed(), |s| s.items.len()), 2);
    assert_eq!(store.read(&b, &seed(), |s| s.items.len()), 1);
    // Reads did not create scopes; the write did.
    assert_eq!(store.snapshot()["collections"].as_array().unwrap().len(), 1);
    store.reset().unwrap();
    assert_eq!(store.read(&a, &seed(), |s| s.items.len()), 1);
}

#[test]
fn caps_refuse_with_507_and_undo_the_change() {
    let store = Store::in_memory(2);
    let k = key(&[]);
    push(&store, &k, 2).unwrap();
    let refused = push(&store, &k, 3).unwrap_err();
    assert_eq!(refused.status, 507);
    assert!(refused.detail.contains("2 items"), "{}", refused.detail);
    assert_eq!(store.read(&k, &seed(), |s| s.items.len()), 2);
    // Ten times the cap in all.
    let store = Store::in_memory(1);
    for i in 0..10 {
        store
            .write(&key(&[("repo", &i.to_string())]), &Scope::default(), |s| {
                s.items.push(json!({}));
                Ok(())
            })
            .unwrap();
    }
    let refused = store
        .write(&key(&[("repo", "x")]), &Scope::default(), |s| {
            s.items.push(json!({}));
            Ok(())
        })
        .unwrap_err();
    assert!(refused.detail.contains("in all"), "{}", refused.detail);
}

#[test]
fn a_failed_change_leaves_the_scope_as_it_was() {
    let store = Store::in_memory(10);
    let k = key(&[]);
    let failed: Result<(), Problem> = store.write(&k, &seed(), |s| {
        s.items.clear();
        Err(Problem::bad("no"))
    });
    assert!(failed.is_err());
    assert_eq!(store.read(&k, &seed(), |s| s.items.len()), 1);
}

#[test]
fn the_file_round_trips_and_is_rewritten_after_each_change() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    let store = Store::open(&path, 10).unwrap();
    let text: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(text["collections"], json!([]), "created empty at start");
    let k = key(&[("owner", "o"), ("repo", "r")]);
    push(&store, &k, 2).unwrap();
    let again = Store::open(&path, 10).unwrap();
    let read = again.read(&k, &Scope::default(), |s| s.clone());
    assert_eq!(read.items, vec![json!({"number": 1}), json!({"number": 2})]);
    assert_eq!(read.next_id, 3);
    let text: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(
        text["collections"][0]["scope"],
        json!({"owner": "o", "repo": "r"})
    );
    again.reset().unwrap();
    let text: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(text["collections"], json!([]));
}

#[test]
fn broken_files_are_errors_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    for (text, expected) in [
        ("{", "line 1"),
        ("[]", "expected struct"),
        (
            r#"{"format": "other", "version": 1, "collections": []}"#,
            "`other`",
        ),
        (
            r#"{"format": "openapi2mcp-mock-state", "version": 1, "collections": [], "x": 1}"#,
            "unknown field",
        ),
        (
            r#"{"format": "openapi2mcp-mock-state", "version": 1, "collections": [{"collection": "/a", "scope": {"x": 1}, "next_id": 1, "items": []}]}"#,
            "scope.x",
        ),
        (
            r#"{"format": "openapi2mcp-mock-state", "version": 1, "collections": [{"collection": "/a", "next_id": 1, "items": [1, 2, 3]}]}"#,
            "more than the cap of 2",
        ),
    ] {
        std::fs::write(&path, text).unwrap();
        let e = Store::open(&path, 2).unwrap_err().to_string();
        assert!(
            e.contains("state.json") && e.contains(expected),
            "{text}: {e}"
        );
    }
    // A directory cannot be read as a file.
    let e = Store::open(dir.path(), 2).unwrap_err().to_string();
    assert!(e.contains("cannot read"), "{e}");
}

#[test]
fn a_file_that_cannot_be_written_is_an_error_at_start_and_refuses_changes() {
    let dir = tempfile::tempdir().unwrap();
    let e = Store::open(&dir.path().join("missing-dir").join("state.json"), 10)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("cannot write") && e.contains("state.json"),
        "{e}"
    );

    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let store = Store::open(&sub.join("state.json"), 10).unwrap();
    std::fs::remove_dir_all(&sub).unwrap();
    let k = key(&[]);
    let refused = push(&store, &k, 2).unwrap_err();
    assert_eq!(refused.status, 500);
    assert!(refused.detail.contains("state.json"), "{}", refused.detail);
    assert_eq!(store.read(&k, &seed(), |s| s.items.len()), 1, "undone");
}
