use super::*;
use crate::BuildStats;

fn warnings(n: usize) -> Vec<Diagnostic> {
    (0..n)
        .map(|i| Diagnostic::warning("api.yaml", "", format!("w{i}")))
        .collect()
}

#[test]
fn long_lists_are_cut_with_a_count_of_the_rest() {
    let mut diags = warnings(SHOWN + 2);
    diags.push(Diagnostic::error("api.yaml", "", "broken"));
    let lines = diagnostic_lines(&diags);
    assert_eq!(lines.len(), SHOWN + 1);
    assert_eq!(
        lines[SHOWN],
        "... and 3 more (1 errors); use --quiet to hide warnings"
    );
    assert_eq!(diagnostic_lines(&warnings(SHOWN)).len(), SHOWN);
}

#[test]
fn no_tools_prints_errors_even_when_quiet_then_the_reason() {
    let mut diagnostics = warnings(1);
    diagnostics.push(Diagnostic::error("api.yaml", "", "broken"));
    let failed = || {
        Err::<Loaded, _>(PipelineError::NoTools {
            summary: Box::new(Diagnostic::error("api.yaml", "", "no tools")),
            diagnostics: diagnostics.clone(),
            stats: BuildStats::default(),
        })
    };
    let quiet = report(failed(), true);
    assert!(quiet.loaded.is_none());
    assert_eq!(quiet.lines.len(), 2, "{:?}", quiet.lines);
    assert!(quiet.lines[0].contains("broken") && quiet.lines[1].contains("no tools"));
    assert_eq!(report(failed(), false).lines.len(), 3);
    let fatal = report(
        Err::<Loaded, _>(PipelineError::Load(Box::new(Diagnostic::error(
            "api.yaml",
            "",
            "unreadable",
        )))),
        true,
    );
    assert!(fatal.loaded.is_none());
    assert_eq!(fatal.lines.len(), 1);
    assert!(fatal.lines[0].contains("unreadable"));
}
