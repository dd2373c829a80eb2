use super::*;
use crate::pipeline::{PipelineOptions, load_catalog};

fn linted(path: &str, deny: Level, max_tokens: Option<usize>) -> Linted {
    let loaded = load_catalog(path, &PipelineOptions::default()).expect("loads");
    let command = LintCommand {
        format: LintFormat::Json,
        max_tokens,
        deny,
        schema_budget: crate::tools::DEFAULT_SCHEMA_BUDGET,
    };
    run(&loaded, path, &command).expect("lints")
}

#[test]
fn each_gate_fails_the_command_with_its_own_line() {
    let fine = linted("specs/petstore.yaml", Level::Error, Some(usize::MAX));
    assert!(fine.failures.is_empty(), "{:?}", fine.failures);
    let report: serde_json::Value = serde_json::from_str(&fine.output).unwrap();
    assert_eq!(report["document"], "specs/petstore.yaml");

    let over = linted("specs/petstore.yaml", Level::Error, Some(1));
    assert_eq!(over.failures.len(), 1, "{:?}", over.failures);
    assert!(
        over.failures[0].starts_with("lint: failed: the tool list takes ")
            && over.failures[0].ends_with(" tokens, over --max-tokens 1"),
        "{:?}",
        over.failures
    );

    let bad = linted("specs/lint-bad.yaml", Level::Note, None);
    assert!(
        bad.failures
            .iter()
            .any(|f| f.starts_with("lint: failed: findings at level ")
                && f.ends_with("(--deny note)")),
        "{:?}",
        bad.failures
    );
}
