//! `openapi2mcp lint` as a user runs it: the findings on Petstore, on a
//! deliberately bad document (quality rules and error-level defects) and on
//! GitHub's (insta snapshots of text and JSON), SARIF valid under the SARIF
//! 2.1.0 schema, and the exit codes of the CI gate.

use std::collections::BTreeMap;

use assert_cmd::Command;
use serde_json::Value;

use crate::support::{external, local, root};

/// Runs `lint` from the repository root (so reported paths are relative
/// and snapshots stable); returns stdout and the exit code.
fn lint(args: &[&str]) -> (String, i32) {
    let out = Command::cargo_bin("openapi2mcp")
        .unwrap()
        .current_dir(root())
        .arg("lint")
        .arg("--quiet")
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

fn json_of(args: &[&str]) -> Value {
    serde_json::from_str(&lint(args).0).unwrap()
}

fn rules_fired(report: &Value) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for f in report["findings"].as_array().unwrap() {
        *counts
            .entry(f["rule"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    counts
}

fn assert_valid_sarif(sarif: &Value) {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(local("tests/fixtures/sarif-schema-2.1.0.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the SARIF schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(sarif)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "invalid SARIF:\n{}", errors.join("\n"));
}

#[test]
fn petstore_lint_snapshots() {
    let (text, code) = lint(&["specs/petstore.yaml"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("lint_petstore_text", text);
    insta::assert_json_snapshot!(
        "lint_petstore_json",
        json_of(&["specs/petstore.yaml", "--format", "json"])
    );
}

#[test]
fn a_bad_document_breaks_every_operation_rule() {
    let doc = "specs/lint-bad.yaml";
    let (text, code) = lint(&[doc]);
    assert_eq!(code, 1, "error-level findings fail the default gate");
    insta::assert_snapshot!("lint_bad_text", text);
    let report = json_of(&[doc, "--format", "json"]);
    insta::assert_json_snapshot!("lint_bad_json", report);
    let fired = rules_fired(&report);
    for rule in openapi2mcp::lint::RULES {
        if rule.id != "list-over-auto-budget" {
            assert!(
                fired.contains_key(rule.id),
                "{} did not fire: {fired:?}",
                rule.id
            );
        }
    }
    // Every finding is located: file, pointer and line.
    for f in report["findings"].as_array().unwrap() {
        assert_eq!(f["file"], doc);
        assert!(f["pointer"].as_str().unwrap().starts_with("/paths/"), "{f}");
        assert!(f["line"].as_u64().is_some_and(|l| l > 1), "{f}");
    }
    // The defects, each where the fix goes.
    let errors: Vec<(String, String)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["level"] == "error")
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["pointer"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let expected = [
        (
            "duplicate-operation-id",
            "/paths/~1things~1{id}/get/operationId",
        ),
        (
            "path-parameter-undeclared",
            "/paths/~1widgets~1{id}~1parts~1{partId}/get",
        ),
        (
            "path-parameter-not-in-template",
            "/paths/~1widgets~1{id}~1parts~1{partId}/get/parameters/1",
        ),
        (
            "operation-not-a-tool",
            "/paths/~1gadgets/post/requestBody/$ref",
        ),
        (
            "operation-not-a-tool",
            "/paths/~1gadgets~1{gadgetId}/parameters/0/$ref",
        ),
    ];
    assert_eq!(
        errors,
        expected
            .iter()
            .map(|(r, p)| (r.to_string(), p.to_string()))
            .collect::<Vec<_>>()
    );
    // The operations that are not tools are not listed either.
    let tools: Vec<&str> = report["footprint"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(!tools.iter().any(|t| t.contains("gadget")), "{tools:?}");
    let sarif = json_of(&[doc, "--format", "sarif"]);
    assert_valid_sarif(&sarif);
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), report["findings"].as_array().unwrap().len());
    let sarif_errors: Vec<&str> = results
        .iter()
        .filter(|r| r["level"] == "error")
        .map(|r| r["ruleId"].as_str().unwrap())
        .collect();
    assert_eq!(sarif_errors.len(), expected.len(), "{sarif_errors:?}");
    for r in results.iter().filter(|r| r["level"] == "error") {
        let rule =
            &sarif["runs"][0]["tool"]["driver"]["rules"][r["ruleIndex"].as_u64().unwrap() as usize];
        assert_eq!(rule["id"], r["ruleId"]);
        assert_eq!(rule["defaultConfiguration"]["level"], "error");
        assert!(
            r["locations"][0]["physicalLocation"]["region"]["startLine"]
                .as_u64()
                .is_some()
        );
    }
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        doc
    );
}

#[test]
fn the_gate_exits_1_on_denied_levels_and_token_budgets() {
    let bad = "specs/lint-bad.yaml";
    assert_eq!(lint(&[bad]).1, 1, "errors fail the default gate");
    assert_eq!(lint(&[bad, "--deny", "error"]).1, 1);
    assert_eq!(lint(&[bad, "--deny", "warning"]).1, 1);
    assert_eq!(lint(&[bad, "--deny", "note"]).1, 1);
    // The report is printed in full even when the gate fails.
    let (text, _) = lint(&[bad, "--deny", "error"]);
    assert!(text.contains("error: specs/lint-bad.yaml:"), "{text}");
    assert!(text.contains("5 errors,"), "{text}");
    let pet = "specs/petstore.yaml";
    assert_eq!(
        lint(&[pet, "--deny", "warning"]).1,
        0,
        "Petstore has notes only"
    );
    assert_eq!(lint(&[pet, "--deny", "note"]).1, 1);
    assert_eq!(
        lint(&[pet, "--deny", "error"]).1,
        0,
        "Petstore has no defects"
    );
    let full = json_of(&[pet, "--format", "json"])["footprint"]["full"]
        .as_u64()
        .unwrap();
    assert!(full > 500, "{full}");
    assert_eq!(lint(&[pet, "--max-tokens", &full.to_string()]).1, 0);
    assert_eq!(lint(&[pet, "--max-tokens", &(full - 1).to_string()]).1, 1);
    // A document that cannot be read is an error too.
    assert_eq!(lint(&["specs/missing.yaml"]).1, 1);
}

#[test]
fn github_lint_counts_and_footprint() {
    let Some(path) = external("@octokit/openapi/generated/api.github.com.json") else {
        return;
    };
    let path = path.to_string_lossy().into_owned();
    let report = json_of(&[&path, "--format", "json"]);
    let fp = &report["footprint"];
    let summary = serde_json::json!({
        "rules": rules_fired(&report),
        "tools": fp["tools"].as_array().unwrap().len(),
        "full_tokens": fp["full"],
        "discovery_tokens": fp["discovery"],
        "toolsets_tokens": fp["toolsets"],
        "largest": fp["tools"].as_array().unwrap()[..5].to_vec(),
    });
    insta::assert_json_snapshot!("lint_github_summary", summary);
    assert!(rules_fired(&report).contains_key("list-over-auto-budget"));
    let sarif = json_of(&[&path, "--format", "sarif"]);
    assert_valid_sarif(&sarif);
    // The text report names each finding's file and line.
    let (text, code) = lint(&[&path]);
    assert_eq!(code, 0);
    let first = text.lines().next().unwrap();
    assert!(first.contains("api.github.com.json:"), "{first}");
}
