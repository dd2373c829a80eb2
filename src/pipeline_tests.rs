use super::*;

/// The mock answers from `components.examples` even when the caller's
/// load options would prune them, and its diagnostics carry lines.
#[test]
fn the_mock_loads_its_examples_and_locates_its_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("api.yaml");
    std::fs::write(
        &path,
        r#"openapi: 3.0.3
info: {title: T, version: '1'}
paths:
  /pets:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object}
              examples:
                rex: {$ref: '#/components/examples/Rex'}
  /broken:
    get:
      parameters: [{$ref: '#/components/parameters/Missing'}]
      responses: {'200': {description: ok}}
components:
  examples:
    Rex: {value: {name: Rex}}
"#,
    )
    .unwrap();
    let load = LoadOptions {
        keep_examples: false,
        ..LoadOptions::default()
    };
    let mocked = match load_mock(path.to_str().unwrap(), &load, MockOptions::default()) {
        Ok(m) => m,
        Err(e) => panic!("{e}"),
    };
    let answer = mocked
        .server
        .respond(&crate::mock::MockRequest::new("GET", "/pets"));
    assert_eq!(answer.json(), Some(serde_json::json!({"name": "Rex"})));
    assert!(
        mocked
            .diagnostics
            .iter()
            .any(|d| d.message.contains("Missing") && d.line == Some(16)),
        "{:?}",
        mocked.diagnostics
    );
    let missing = dir.path().join("missing.yaml");
    assert!(matches!(
        load_mock(missing.to_str().unwrap(), &load, MockOptions::default()),
        Err(PipelineError::Load(_))
    ));
}
