use super::*;

#[test]
fn yaml_numbers_where_strings_are_expected_are_coerced() {
    let v = parse_text(
        "openapi: 3.0.3\ninfo: {title: t, version: 1.0}\npaths: {}\n",
        "x.yaml",
    )
    .unwrap();
    let doc = Document::from_value("x.yaml", v).unwrap();
    assert_eq!(doc.root()["info"]["version"], "1.0");
    assert_eq!(doc.version, SpecVersion::OpenApi30);
}

#[test]
fn yaml_integer_keys_become_strings() {
    let v = parse_text("responses:\n  200:\n    description: ok\n", "x.yaml").unwrap();
    assert_eq!(v["responses"]["200"]["description"], "ok");
}

#[test]
fn json_is_sniffed_not_guessed_from_extension() {
    let v = parse_text("  {\"openapi\": \"3.1.0\"}", "weird.yaml").unwrap();
    assert_eq!(v["openapi"], "3.1.0");
}

#[test]
fn invalid_json_names_the_line() {
    let err = parse_text("{\n\"a\": 1,\n\"b\": }", "bad.json").unwrap_err();
    assert_eq!(err.line, Some(3));
    assert!(err.message.contains("invalid JSON"), "{err}");
}

#[test]
fn not_openapi_is_a_clear_error() {
    let err = Document::from_value("x", serde_json::json!({"foo": 1})).unwrap_err();
    assert!(err.message.contains("not an OpenAPI document"), "{err}");
    let err =
        Document::from_value("x", serde_json::json!({"openapi": "4.0", "paths": {}})).unwrap_err();
    assert_eq!(err.pointer, "/openapi");
}

#[test]
fn relative_refs_load_and_remote_refs_need_a_flag() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("root.yaml"),
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    $ref: 'paths/a.yaml'\n  /b:\n    get:\n      responses:\n        '200': {$ref: 'https://example.invalid/r.yaml#/R'}\n",
    )
    .unwrap();
    std::fs::create_dir(dir.path().join("paths")).unwrap();
    std::fs::write(
        dir.path().join("paths/a.yaml"),
        "get:\n  responses:\n    '200': {description: ok}\n",
    )
    .unwrap();
    let root = dir.path().join("root.yaml");
    let (doc, warnings) = load(root.to_str().unwrap(), &LoadOptions::default()).unwrap();
    let a = Url::from_file_path(dir.path().join("paths/a.yaml")).unwrap();
    assert!(doc.file(a.as_str()).is_some());
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.contains("--allow-remote-refs"));
    assert_eq!(warnings[0].line, Some(9));
}

/// Found by tests/it/props.rs: a `$ref` to a named pipe blocked the
/// load for ever (and one to `/dev/zero` would have read without end).
#[test]
fn refs_to_pipes_devices_and_directories_are_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.yaml");
    let have_fifo = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let mut refs = vec!["/dev/null", "."];
    if have_fifo {
        refs.push("fifo.yaml");
    }
    let schemas: String = refs
        .iter()
        .enumerate()
        .map(|(i, r)| format!("    S{i}: {{$ref: '{r}#/X'}}\n"))
        .collect();
    let root = dir.path().join("root.yaml");
    std::fs::write(
        &root,
        format!(
            "openapi: 3.0.3\ninfo: {{title: t, version: '1'}}\npaths: {{}}\ncomponents:\n  schemas:\n{schemas}"
        ),
    )
    .unwrap();
    let (send, receive) = std::sync::mpsc::channel();
    let path = root.to_str().unwrap().to_string();
    std::thread::spawn(move || {
        let _ = send.send(load(&path, &LoadOptions::default()).map(|(_, w)| w));
    });
    let warnings = receive
        .recv_timeout(Duration::from_secs(10))
        .expect("the load finishes")
        .unwrap();
    let refused = warnings
        .iter()
        .filter(|w| w.message.contains("not a regular file"))
        .count();
    assert_eq!(refused, refs.len(), "{warnings:?}");
}
