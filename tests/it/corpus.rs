//! Every document of @readme/oas-examples (2.0, 3.0, 3.1; JSON and YAML)
//! loads and yields a valid tool list, or fails with a clean diagnostic.

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::support::{assert_valid_tools, build_with, external};
use openapi2mcp::pipeline::PipelineError;
use openapi2mcp::tools::BuildOptions;

#[test]
fn every_readme_example_loads_or_fails_cleanly() {
    let Some(base) = external("@readme/oas-examples") else {
        return;
    };
    let mut seen = 0;
    let mut failures = Vec::new();
    for version in ["2.0", "3.0", "3.1"] {
        for format in ["json", "yaml"] {
            let dir = base.join(version).join(format);
            let mut entries: Vec<_> = std::fs::read_dir(&dir)
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .collect();
            entries.sort();
            for path in entries.into_iter().filter(|p| p.is_file()) {
                seen += 1;
                let name = format!(
                    "{version}/{format}/{}",
                    path.file_name().unwrap().to_string_lossy()
                );
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    build_with(&path, &BuildOptions::default())
                }));
                let file_name = path.file_name().unwrap().to_string_lossy();
                match outcome {
                    Err(_) => failures.push(format!("{name}: PANIC")),
                    // A document without operations (webhooks only) loads
                    // but gives no tools: `list` says so, naming the file;
                    // no operation may have been dropped for an error.
                    Ok(Err(PipelineError::NoTools { summary, stats, .. })) if stats.failed == 0 => {
                        assert!(
                            summary.file.contains(&*file_name),
                            "{name}: unclear diagnostic {summary:?}"
                        );
                    }
                    Ok(Err(PipelineError::NoTools { summary, .. })) => {
                        failures.push(format!("{name}: {summary}"));
                    }
                    Ok(Err(PipelineError::Load(diag))) => {
                        // A clean failure names the file and says what is wrong.
                        assert!(
                            !diag.message.is_empty() && diag.file.contains(&*file_name),
                            "{name}: unclear diagnostic {diag:?}"
                        );
                        failures.push(format!("{name}: {diag}"));
                    }
                    Ok(Ok((catalog, _))) => {
                        assert_valid_tools(&catalog, &name);
                    }
                }
            }
        }
    }
    assert!(
        seen >= 115,
        "expected the whole collection, saw {seen} documents"
    );
    // Every document in the collection is a valid OpenAPI document, so none may fail.
    assert!(
        failures.is_empty(),
        "{} of {seen} documents failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
