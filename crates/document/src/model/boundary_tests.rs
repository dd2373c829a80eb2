//! The layering rule, enforced: above the document layer nothing reads raw
//! document JSON or knows OpenAPI dialects. The raw accessors
//! (`Document::root`, `Document::file`, `Located`, `deref`, …) are
//! `pub(in crate)`, so the compiler refuses them elsewhere; this
//! test catches the rest: OpenAPI structure and dialect keywords spelled
//! as string literals outside `crates/document/`, and the accessors' names
//! should their visibility ever be widened.

use std::path::{Path, PathBuf};

/// What may not appear outside `crates/document/`, and why.
const FORBIDDEN: &[(&str, &str)] = &[
    (".root()", "raw document access: read the operation model"),
    ("root_node", "raw document access: read the operation model"),
    ("Located", "raw document nodes: read the operation model"),
    (".deref(", "$ref chains are followed by the operation model"),
    ("resolve_ref", "$refs are followed by the operation model"),
    ("ref_target", "$refs are followed by the operation model"),
    (
        "get_pointer",
        "raw document access: read the operation model",
    ),
    (
        "dialect::convert",
        "schemas convert through model::Schema::convert",
    ),
    (
        "repair_pattern",
        "dialect repairs happen in document::dialect",
    ),
    (
        "\"nullable\"",
        "OpenAPI 3.0 dialect: convert through document::dialect",
    ),
    (
        "\"x-nullable\"",
        "Swagger 2.0 dialect: convert through document::dialect",
    ),
    (
        "\"example\"",
        "OpenAPI `example`: the model hands out examples",
    ),
    (
        "\"discriminator\"",
        "OpenAPI-only keyword: document::dialect drops it",
    ),
    (
        "\"swagger\"",
        "Swagger 2.0 is upgraded by document::swagger2",
    ),
    ("\"paths\"", "OpenAPI structure: walk Document::operations"),
    ("\"/paths\"", "OpenAPI structure: use model::pointers"),
    (
        "\"components\"",
        "OpenAPI structure: the model resolves components",
    ),
    ("\"parameters\"", "OpenAPI structure: Operation::params"),
    (
        "\"requestBody\"",
        "OpenAPI structure: Operation::request_body",
    ),
    (
        "\"requestBodies\"",
        "OpenAPI structure: Operation::request_body",
    ),
    ("\"responses\"", "OpenAPI structure: Operation::response"),
    (
        "\"operationId\"",
        "OpenAPI structure: Operation::operation_id",
    ),
    (
        "\"securitySchemes\"",
        "OpenAPI structure: Document::security_schemes",
    ),
    (
        "\"securityDefinitions\"",
        "Swagger 2.0 structure: document::swagger2",
    ),
    (
        "\"definitions\"",
        "Swagger 2.0 structure: document::swagger2",
    ),
    ("\"servers\"", "OpenAPI structure: Operation::servers"),
    ("\"x-mcp\"", "the extension is read by Operation::x_mcp"),
    (
        "\"allowReserved\"",
        "OpenAPI structure: Parameter::allow_reserved",
    ),
    ("\"explode\"", "OpenAPI structure: Parameter::explode"),
    ("\"encoding\"", "OpenAPI structure: MediaType::encoding"),
];

/// Known exceptions (file, pattern, reason): a ratchet that may only
/// shrink. An entry that no longer matches anything fails the test, so it
/// is removed once its file is fixed.
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "src/apis/mod.rs",
        "\"paths\"",
        "the `paths` key of a `serve --config` entry (path globs), not the document's",
    ),
    (
        "crates/mock/src/respond.rs",
        "\"example\"",
        "the `Prefer: example=<name>` request preference, not the document keyword",
    ),
    (
        "crates/tools/src/arazzo/mod.rs",
        "\"parameters\"",
        "an Arazzo step's `parameters`, in an Arazzo document",
    ),
    (
        "crates/tools/src/arazzo/mod.rs",
        "\"requestBody\"",
        "an Arazzo step's `requestBody`, in an Arazzo document",
    ),
    (
        "crates/tools/src/arazzo/mod.rs",
        "\"operationId\"",
        "an Arazzo step's `operationId`, in an Arazzo document",
    ),
];

/// The offending lines of one file's text: `file:line: pattern (why)`.
/// Comment lines and everything from a `#[cfg(test)]` module on are not
/// code that reads the document.
fn offences(file: &str, text: &str) -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let code = line.trim_start();
        if code == "#[cfg(test)]"
            && lines
                .get(i + 1)
                .is_some_and(|next| next.trim_start().starts_with("mod "))
        {
            break;
        }
        if code.starts_with("//") {
            continue;
        }
        for (pattern, why) in FORBIDDEN {
            if code.contains(pattern) {
                out.push((format!("{file}:{}: `{pattern}` ({why})", i + 1), *pattern));
            }
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn nothing_above_the_document_layer_reads_raw_document_json() {
    // The workspace root: this crate is `crates/document` in it.
    let root = &Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root = &root.canonicalize().unwrap();
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    // The model, runtime and server crates sit above the document layer too.
    rust_files(&root.join("crates"), &mut files);
    assert!(files.len() > 50, "src/ not found: {}", root.display());
    let mut failures = Vec::new();
    let mut used = vec![false; ALLOWED.len()];
    for path in files {
        let rel = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel.starts_with("crates/document/") || rel.ends_with("_tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (offence, pattern) in offences(&rel, &text) {
            match ALLOWED
                .iter()
                .position(|(f, p, _)| *f == rel && *p == pattern)
            {
                Some(i) => used[i] = true,
                None => failures.push(offence),
            }
        }
    }
    for (i, (file, pattern, why)) in ALLOWED.iter().enumerate() {
        if !used[i] {
            failures.push(format!(
                "{file}: allowed `{pattern}` ({why}) no longer occurs: remove it from ALLOWED"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_scan_catches_raw_access_and_skips_comments_and_tests() {
    let text = "fn f(doc: &Document) {\n    // doc.root() in a comment is fine\n    let x = doc.root();\n    let n = v.get(\"nullable\");\n}\n#[cfg(test)]\nmod tests {\n    fn g() { doc.root(); }\n}\n";
    let found: Vec<String> = offences("src/x.rs", text)
        .into_iter()
        .map(|(o, _)| o)
        .collect();
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("src/x.rs:3: `.root()`"), "{found:?}");
    assert!(
        found[1].starts_with("src/x.rs:4: `\"nullable\"`"),
        "{found:?}"
    );
}
