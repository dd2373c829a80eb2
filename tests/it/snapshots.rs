//! Snapshot tests (insta) of whole tool lists for representative documents.
//! Refresh with `cargo insta review` (or INSTA_UPDATE=always cargo test).

use crate::support::{build, external, local};
use serde_json::Value;

fn tools_json(catalog: &openapi2mcp::tools::Catalog) -> Value {
    serde_json::to_value(&catalog.tools).unwrap()
}

#[test]
fn petstore_is_the_same_in_2_0_3_0_and_3_1() {
    let Some(base) = external("@readme/oas-examples") else {
        return;
    };
    let v2 = build(&base.join("2.0/json/petstore.json"));
    let v30 = build(&base.join("3.0/json/petstore.json"));
    let v31 = build(&base.join("3.1/json/petstore.json"));
    let names = |c: &openapi2mcp::tools::Catalog| {
        c.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>()
    };
    assert_eq!(names(&v2), names(&v30));
    assert_eq!(names(&v30), names(&v31));
    insta::assert_json_snapshot!("petstore_3_0", tools_json(&v30));
}

#[test]
fn readme_examples_snapshots() {
    let Some(base) = external("@readme/oas-examples") else {
        return;
    };
    for name in [
        "circular",
        "parameters-style",
        "file-uploads",
        "security",
        "schema-types",
        "form-data",
    ] {
        let catalog = build(&base.join(format!("3.0/json/{name}.json")));
        insta::assert_json_snapshot!(format!("readme_{name}"), tools_json(&catalog));
    }
}

#[test]
fn bundled_petstore_snapshot() {
    let catalog = build(&local("specs/petstore.yaml"));
    insta::assert_json_snapshot!("bundled_petstore", tools_json(&catalog));
}

#[test]
fn bundled_features_snapshot() {
    let catalog = build(&local("specs/features.yaml"));
    insta::assert_json_snapshot!("bundled_features", tools_json(&catalog));
}
