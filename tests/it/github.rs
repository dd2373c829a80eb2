//! GitHub's full REST description (@octokit/openapi, 13 MB, 1,223
//! operations): the largest real document we know, end to end.

use std::collections::BTreeSet;

use crate::support::{assert_valid_tools, build, external};
use serde_json::Value;

#[test]
fn github_rest_description_yields_1223_valid_tools() {
    let Some(path) = external("@octokit/openapi/generated/api.github.com.json") else {
        return;
    };
    let catalog = build(&path);
    assert_eq!(catalog.tools.len(), 1223);
    assert_valid_tools(&catalog, "github");

    for tool in &catalog.tools {
        // Every {slot} of the path template is a required argument.
        let slots: BTreeSet<&str> = tool
            .http
            .path
            .split('{')
            .skip(1)
            .filter_map(|s| s.split('}').next())
            .collect();
        let required: BTreeSet<&str> = tool.input_schema["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for slot in slots {
            let binding = tool
                .http
                .params
                .iter()
                .find(|p| p.name == slot && p.location.as_str() == "path");
            let binding =
                binding.unwrap_or_else(|| panic!("{}: no binding for path slot {slot}", tool.name));
            assert!(
                required.contains(binding.arg.as_str()),
                "{}: path parameter {slot} not required",
                tool.name
            );
            assert!(
                tool.input_schema["properties"].get(&binding.arg).is_some(),
                "{}: {slot} not in properties",
                tool.name
            );
        }
    }

    let get_repo = catalog
        .tools
        .iter()
        .find(|t| t.origin.operation_id.as_deref() == Some("repos/get"))
        .unwrap();
    assert_eq!(get_repo.name, "get_repo");
    assert_eq!(get_repo.http.path, "/repos/{owner}/{repo}");
    assert!(get_repo.annotations.read_only_hint);
    assert_eq!(
        get_repo.input_schema["required"],
        serde_json::json!(["owner", "repo"])
    );
}
