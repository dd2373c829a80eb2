//! The lazy core (issue 11): `serve` plans every tool at start-up and
//! builds each one when a client first needs it. A tool built late, in
//! any order, must be exactly the tool the eager build makes: same
//! name, description, schemas (`$defs` keys included) and HTTP binding.

use openapi2mcp::pipeline::{self, PipelineOptions};
use openapi2mcp::runtime::catalog::LazyCatalog;

use crate::support::{external, local};

/// Every tool of `path`, built lazily (last first), equals the eager build.
fn lazy_equals_eager(path: &str) {
    let options = PipelineOptions::default();
    let eager = pipeline::load_catalog(path, &options).expect("eager build");
    let served = pipeline::load_served(path, &options).expect("planned");
    let LazyCatalog { heads, source, .. } = served.catalog;
    assert_eq!(
        heads.len(),
        eager.catalog.tools.len(),
        "{path}: one head per tool (no operation of these documents fails to build)"
    );
    for i in (0..heads.len()).rev() {
        let built = source
            .build(i)
            .unwrap_or_else(|e| panic!("{path}: tool {i}: {e}"));
        let want = &eager.catalog.tools[i];
        assert_eq!(heads[i].name, want.name, "{path}: head {i}");
        assert_eq!(heads[i].description, want.description, "{path}: head {i}");
        assert_eq!(
            &built, want,
            "{path}: tool `{}` built late differs",
            want.name
        );
    }
    assert_eq!(served.catalog.title, eager.catalog.title);
    assert_eq!(
        served.catalog.security_schemes,
        eager.catalog.security_schemes
    );
}

#[test]
fn tools_built_late_equal_the_eager_build_on_bundled_documents() {
    for doc in ["specs/petstore.yaml", "specs/features.yaml"] {
        let path = local(doc);
        lazy_equals_eager(path.to_str().unwrap());
    }
}

#[test]
fn tools_built_late_equal_the_eager_build_on_github() {
    let Some(path) = external("@octokit/openapi/generated/api.github.com.json") else {
        return;
    };
    lazy_equals_eager(path.to_str().unwrap());
}

#[test]
fn a_broken_operation_is_planned_and_says_why_when_built() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.yaml");
    std::fs::write(
        &path,
        r##"openapi: 3.0.3
info: {title: Broken, version: "1"}
paths:
  /ok:
    get:
      operationId: getOk
      responses: {"200": {description: ok}}
  /broken:
    post:
      operationId: postBroken
      requestBody: {$ref: "#/components/requestBodies/Missing"}
      responses: {"204": {description: ok}}
"##,
    )
    .unwrap();
    let path = path.to_str().unwrap();
    let options = PipelineOptions::default();
    let served = pipeline::load_served(path, &options).expect("planned");
    let names: Vec<&str> = served
        .catalog
        .heads
        .iter()
        .map(|h| h.name.as_str())
        .collect();
    assert_eq!(names, ["get_ok", "create_broken"]);
    let why = served.catalog.source.build(1).unwrap_err();
    assert!(why.contains("Missing"), "{why}");
    assert!(served.catalog.source.build(0).is_ok());
    // The eager build drops it, with the same reason.
    let eager = pipeline::load_catalog(path, &options).expect("eager");
    assert_eq!(eager.catalog.tools.len(), 1);
    assert_eq!(eager.stats.failed, 1);
}
