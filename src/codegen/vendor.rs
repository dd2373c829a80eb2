//! What a generated crate takes from this one as it is: the runtime and
//! server sources (one source of truth for call behaviour, copied byte for
//! byte but for the line that declares each file's unit-test module, whose
//! tests stay here), and the dependency versions this crate is built and
//! tested with, read from its own `Cargo.lock`.

use std::collections::BTreeMap;

/// `(path in the generated crate, contents)` of every vendored file, as it
/// is in this crate: [`files`] gives them as a generated crate gets them.
/// Unit tests live in sibling files (`tests.rs`, `*_tests.rs`) that are not
/// listed here, so generated crates carry only runtime code.
pub const SOURCES: &[(&str, &str)] = &[
    ("src/runtime/mod.rs", include_str!("../runtime/mod.rs")),
    (
        "src/runtime/auth/mod.rs",
        include_str!("../runtime/auth/mod.rs"),
    ),
    (
        "src/runtime/auth/credentials.rs",
        include_str!("../runtime/auth/credentials.rs"),
    ),
    (
        "src/runtime/auth/fixed.rs",
        include_str!("../runtime/auth/fixed.rs"),
    ),
    (
        "src/runtime/auth/login.rs",
        include_str!("../runtime/auth/login.rs"),
    ),
    (
        "src/runtime/auth/store.rs",
        include_str!("../runtime/auth/store.rs"),
    ),
    (
        "src/runtime/auth/oauth2.rs",
        include_str!("../runtime/auth/oauth2.rs"),
    ),
    (
        "src/runtime/auth/placement.rs",
        include_str!("../runtime/auth/placement.rs"),
    ),
    (
        "src/runtime/auth/schemes.rs",
        include_str!("../runtime/auth/schemes.rs"),
    ),
    (
        "src/runtime/binding.rs",
        include_str!("../runtime/binding.rs"),
    ),
    ("src/runtime/call.rs", include_str!("../runtime/call.rs")),
    (
        "src/runtime/call_members.rs",
        include_str!("../runtime/call_members.rs"),
    ),
    (
        "src/runtime/call_advice.rs",
        include_str!("../runtime/call_advice.rs"),
    ),
    (
        "src/runtime/conform.rs",
        include_str!("../runtime/conform.rs"),
    ),
    (
        "src/runtime/catalog.rs",
        include_str!("../runtime/catalog.rs"),
    ),
    (
        "src/runtime/code/mod.rs",
        include_str!("../runtime/code/mod.rs"),
    ),
    (
        "src/runtime/code/sandbox.rs",
        include_str!("../runtime/code/sandbox.rs"),
    ),
    (
        "src/runtime/code/typescript.rs",
        include_str!("../runtime/code/typescript.rs"),
    ),
    ("src/runtime/http.rs", include_str!("../runtime/http.rs")),
    (
        "src/runtime/progress.rs",
        include_str!("../runtime/progress.rs"),
    ),
    (
        "src/runtime/jsoncut.rs",
        include_str!("../runtime/jsoncut.rs"),
    ),
    ("src/runtime/lro.rs", include_str!("../runtime/lro.rs")),
    (
        "src/runtime/lro/channel.rs",
        include_str!("../runtime/lro/channel.rs"),
    ),
    (
        "src/runtime/lro/expr.rs",
        include_str!("../runtime/lro/expr.rs"),
    ),
    (
        "src/runtime/lro/monitor.rs",
        include_str!("../runtime/lro/monitor.rs"),
    ),
    (
        "src/runtime/lro/status.rs",
        include_str!("../runtime/lro/status.rs"),
    ),
    (
        "src/runtime/preview.rs",
        include_str!("../runtime/preview.rs"),
    ),
    ("src/runtime/trace.rs", include_str!("../runtime/trace.rs")),
    (
        "src/runtime/ratelimit.rs",
        include_str!("../runtime/ratelimit.rs"),
    ),
    (
        "src/runtime/redirect.rs",
        include_str!("../runtime/redirect.rs"),
    ),
    (
        "src/runtime/schemas.rs",
        include_str!("../runtime/schemas.rs"),
    ),
    (
        "src/runtime/search.rs",
        include_str!("../runtime/search.rs"),
    ),
    (
        "src/runtime/search/lexicon.rs",
        include_str!("../runtime/search/lexicon.rs"),
    ),
    (
        "src/runtime/search/words.txt",
        include_str!("../runtime/search/words.txt"),
    ),
    (
        "src/runtime/select.rs",
        include_str!("../runtime/select.rs"),
    ),
    (
        "src/runtime/select/eval.rs",
        include_str!("../runtime/select/eval.rs"),
    ),
    (
        "src/runtime/select/screen.rs",
        include_str!("../runtime/select/screen.rs"),
    ),
    (
        "src/runtime/select/worker.rs",
        include_str!("../runtime/select/worker.rs"),
    ),
    (
        "src/runtime/request/mod.rs",
        include_str!("../runtime/request/mod.rs"),
    ),
    (
        "src/runtime/request/accept.rs",
        include_str!("../runtime/request/accept.rs"),
    ),
    (
        "src/runtime/request/args.rs",
        include_str!("../runtime/request/args.rs"),
    ),
    (
        "src/runtime/request/base.rs",
        include_str!("../runtime/request/base.rs"),
    ),
    (
        "src/runtime/request/binary.rs",
        include_str!("../runtime/request/binary.rs"),
    ),
    (
        "src/runtime/request/body.rs",
        include_str!("../runtime/request/body.rs"),
    ),
    (
        "src/runtime/request/headers.rs",
        include_str!("../runtime/request/headers.rs"),
    ),
    (
        "src/runtime/request/multipart.rs",
        include_str!("../runtime/request/multipart.rs"),
    ),
    (
        "src/runtime/request/path.rs",
        include_str!("../runtime/request/path.rs"),
    ),
    (
        "src/runtime/request/query.rs",
        include_str!("../runtime/request/query.rs"),
    ),
    (
        "src/runtime/request/shape.rs",
        include_str!("../runtime/request/shape.rs"),
    ),
    (
        "src/runtime/response/mod.rs",
        include_str!("../runtime/response/mod.rs"),
    ),
    (
        "src/runtime/response/body.rs",
        include_str!("../runtime/response/body.rs"),
    ),
    (
        "src/runtime/workflow/mod.rs",
        include_str!("../runtime/workflow/mod.rs"),
    ),
    (
        "src/runtime/workflow/expr.rs",
        include_str!("../runtime/workflow/expr.rs"),
    ),
    (
        "src/runtime/response/items.rs",
        include_str!("../runtime/response/items.rs"),
    ),
    (
        "src/runtime/response/kind.rs",
        include_str!("../runtime/response/kind.rs"),
    ),
    (
        "src/runtime/response/lines.rs",
        include_str!("../runtime/response/lines.rs"),
    ),
    (
        "src/runtime/response/status.rs",
        include_str!("../runtime/response/status.rs"),
    ),
    (
        "src/runtime/wire/mod.rs",
        include_str!("../runtime/wire/mod.rs"),
    ),
    (
        "src/runtime/wire/header.rs",
        include_str!("../runtime/wire/header.rs"),
    ),
    (
        "src/runtime/wire/media.rs",
        include_str!("../runtime/wire/media.rs"),
    ),
    ("src/server/mod.rs", include_str!("../server/mod.rs")),
    ("src/server/cli.rs", include_str!("../server/cli.rs")),
    ("src/server/code.rs", include_str!("../server/code.rs")),
    (
        "src/server/discovery.rs",
        include_str!("../server/discovery.rs"),
    ),
    (
        "src/server/listing.rs",
        include_str!("../server/listing.rs"),
    ),
    ("src/server/meta.rs", include_str!("../server/meta.rs")),
    (
        "src/server/protocol.rs",
        include_str!("../server/protocol.rs"),
    ),
    (
        "src/server/resources.rs",
        include_str!("../server/resources.rs"),
    ),
    ("src/server/run.rs", include_str!("../server/run.rs")),
    ("src/server/ask.rs", include_str!("../server/ask.rs")),
    (
        "src/server/assemble.rs",
        include_str!("../server/assemble.rs"),
    ),
    ("src/server/otel.rs", include_str!("../server/otel.rs")),
    (
        "src/server/options.rs",
        include_str!("../server/options.rs"),
    ),
    ("src/server/login.rs", include_str!("../server/login.rs")),
    (
        "src/server/connect.rs",
        include_str!("../server/connect.rs"),
    ),
    (
        "src/server/login_gate.rs",
        include_str!("../server/login_gate.rs"),
    ),
    (
        "src/server/confirm.rs",
        include_str!("../server/confirm.rs"),
    ),
    ("src/server/seal.rs", include_str!("../server/seal.rs")),
    (
        "src/server/selection.rs",
        include_str!("../server/selection.rs"),
    ),
    ("src/server/tasks.rs", include_str!("../server/tasks.rs")),
    (
        "src/server/prepared.rs",
        include_str!("../server/prepared.rs"),
    ),
    ("src/server/shape.rs", include_str!("../server/shape.rs")),
    (
        "src/server/transport.rs",
        include_str!("../server/transport.rs"),
    ),
    ("src/server/live.rs", include_str!("../server/live.rs")),
    ("src/server/ops.rs", include_str!("../server/ops.rs")),
    (
        "src/server/authz/mod.rs",
        include_str!("../server/authz/mod.rs"),
    ),
    (
        "src/server/authz/jwks.rs",
        include_str!("../server/authz/jwks.rs"),
    ),
    (
        "src/server/authz/metadata.rs",
        include_str!("../server/authz/metadata.rs"),
    ),
    (
        "src/server/authz/scopes.rs",
        include_str!("../server/authz/scopes.rs"),
    ),
    (
        "src/server/authz/token.rs",
        include_str!("../server/authz/token.rs"),
    ),
];

/// Every vendored file as a generated crate gets it: [`vendored`] applied
/// to each of [`SOURCES`].
pub fn files() -> impl Iterator<Item = (&'static str, String)> {
    SOURCES.iter().map(|(path, text)| (*path, vendored(text)))
}

/// A source file without the declaration of its unit-test module
/// (`#[cfg(test)]`, an optional `#[path = "…"]`, then `mod tests;`): the
/// tests sit in a file that is not vendored, so a generated crate's
/// `cargo test` would look for a file it does not have. Everything else is
/// copied byte for byte.
pub fn vendored(text: &str) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < lines.len() {
        if let Some(len) = test_module_declaration(&lines[i..]) {
            // Drop the blank line that separated it, when it ended the file.
            if i + len == lines.len() && out.ends_with("\n\n") {
                out.pop();
            }
            i += len;
            continue;
        }
        out.push_str(lines[i]);
        i += 1;
    }
    out
}

/// The number of lines of a test-module declaration starting `lines`.
fn test_module_declaration(lines: &[&str]) -> Option<usize> {
    let mut n = 0;
    if lines.first()?.trim_end() != "#[cfg(test)]" {
        return None;
    }
    n += 1;
    if lines.get(n)?.trim_start().starts_with("#[path = ") {
        n += 1;
    }
    (lines.get(n)?.trim_end() == "mod tests;").then_some(n + 1)
}

/// The lock file this crate was built with.
const CARGO_LOCK: &str = include_str!("../../Cargo.lock");

/// The crates a generated crate depends on directly.
pub const DEPENDENCIES: &[&str] = &[
    "arc-swap",
    "aws-lc-rs",
    "axum",
    "base64",
    "bm25",
    "clap",
    "http-body",
    "httpdate",
    "jaq-core",
    "jaq-json",
    "jaq-std",
    "jsonschema",
    "jsonwebtoken",
    "libc",
    "metrics",
    "metrics-exporter-prometheus",
    "oauth2",
    "opentelemetry",
    "opentelemetry-otlp",
    "opentelemetry_sdk",
    "percent-encoding",
    "redis",
    "regex",
    "reqwest",
    "rmcp",
    "rquickjs",
    "serde",
    "serde_json",
    "serde_json_path",
    "thiserror",
    "tokio",
    "tokio-util",
    "tracing",
    "tracing-subscriber",
    "url",
];

/// The version of each of [`DEPENDENCIES`] that this crate resolved, keyed
/// with `_` for `-` (handlebars paths cannot hold `-`). A dependency missing
/// from the lock file is an error naming it.
pub fn dependency_versions() -> Result<BTreeMap<String, String>, String> {
    let packages = parse_lock(CARGO_LOCK);
    let root = packages
        .iter()
        .find(|p| p.name == env!("CARGO_PKG_NAME"))
        .ok_or("Cargo.lock has no entry for openapi2mcp itself")?;
    let mut out = BTreeMap::new();
    for dep in DEPENDENCIES {
        // The root lists `name` alone when one version is locked, and
        // `name version` when several are.
        let pinned = root.dependencies.iter().find_map(|d| {
            let mut parts = d.split(' ');
            (parts.next() == Some(dep)).then(|| parts.next().map(str::to_string))
        });
        let version = match pinned {
            Some(Some(v)) => v,
            Some(None) => packages
                .iter()
                .find(|p| p.name == *dep)
                .map(|p| p.version.clone())
                .ok_or_else(|| format!("Cargo.lock has no package `{dep}`"))?,
            None => return Err(format!("openapi2mcp does not depend on `{dep}`")),
        };
        out.insert(dep.replace('-', "_"), version);
    }
    Ok(out)
}

struct LockedPackage {
    name: String,
    version: String,
    dependencies: Vec<String>,
}

/// The `[[package]]` entries of a lock file (name, version, dependencies).
fn parse_lock(text: &str) -> Vec<LockedPackage> {
    let mut out: Vec<LockedPackage> = Vec::new();
    let mut in_deps = false;
    for line in text.lines() {
        let line = line.trim();
        if line == "[[package]]" {
            out.push(LockedPackage {
                name: String::new(),
                version: String::new(),
                dependencies: Vec::new(),
            });
            in_deps = false;
            continue;
        }
        let Some(current) = out.last_mut() else {
            continue;
        };
        let quoted = |s: &str| s.trim().trim_end_matches(',').trim_matches('"').to_string();
        if in_deps {
            if line.starts_with(']') {
                in_deps = false;
            } else {
                current.dependencies.push(quoted(line));
            }
        } else if let Some(v) = line.strip_prefix("name = ") {
            current.name = quoted(v);
        } else if let Some(v) = line.strip_prefix("version = ") {
            current.version = quoted(v);
        } else if line.starts_with("dependencies = [") {
            in_deps = !line.ends_with(']');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file below `dir` (sources, and data they include such as the
    /// search's word list), as paths relative to the crate root.
    fn source_files(root: &str, dir: &str, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(format!("{root}/{dir}")).unwrap() {
            let entry = entry.unwrap();
            let path = format!("{dir}/{}", entry.file_name().into_string().unwrap());
            if entry.file_type().unwrap().is_dir() {
                source_files(root, &path, out);
            } else {
                out.push(path);
            }
        }
    }

    fn is_test_file(path: &str) -> bool {
        path.ends_with("/tests.rs") || path.ends_with("_tests.rs")
    }

    #[test]
    fn every_runtime_and_server_file_is_vendored_and_no_test_file_is() {
        let root = env!("CARGO_MANIFEST_DIR");
        let mut paths = Vec::new();
        for dir in ["src/runtime", "src/server"] {
            source_files(root, dir, &mut paths);
        }
        for path in &paths {
            let listed = SOURCES.iter().any(|(p, _)| p == path);
            if is_test_file(path) {
                assert!(!listed, "{path} holds unit tests and must not be vendored");
            } else {
                assert!(listed, "{path} is not in codegen::vendor::SOURCES");
            }
        }
        assert_eq!(
            SOURCES.len() + paths.iter().filter(|p| is_test_file(p)).count(),
            paths.len()
        );
    }

    #[test]
    fn vendored_files_carry_no_unit_tests() {
        for (path, text) in files() {
            assert!(!text.contains("#[cfg(test)]"), "{path} still carries tests");
            assert!(
                !text.contains("mod tests"),
                "{path} still names a test module"
            );
        }
    }

    #[test]
    fn only_the_test_module_declaration_is_removed() {
        let text = "//! Doc.\n\nfn a() {}\n\n#[cfg(test)]\n#[path = \"a_tests.rs\"]\nmod tests;\n";
        assert_eq!(vendored(text), "//! Doc.\n\nfn a() {}\n");
        let plain = "fn a() {}\n\n#[cfg(test)]\nmod tests;\n";
        assert_eq!(vendored(plain), "fn a() {}\n");
        // An inline test module is not a declaration: it stays, and the
        // check above would name the file.
        let inline = "#[cfg(test)]\nmod tests {\n}\n";
        assert_eq!(vendored(inline), inline);
        let untouched = "#[cfg(test)]\nfn helper() {}\n";
        assert_eq!(vendored(untouched), untouched);
    }

    #[test]
    fn versions_come_from_the_lock_file() {
        let versions = dependency_versions().unwrap();
        assert_eq!(versions.len(), DEPENDENCIES.len());
        assert!(versions["rmcp"].starts_with("3.9."), "{versions:?}");
        assert!(versions.contains_key("tokio_util"));
    }

    #[test]
    fn lock_entries_are_parsed() {
        let lock = "[[package]]\nname = \"a\"\nversion = \"1.0.0\"\ndependencies = [\n \"b 2.0.0\",\n \"c\",\n]\n\n[[package]]\nname = \"c\"\nversion = \"0.3.1\"\n";
        let p = parse_lock(lock);
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].dependencies, ["b 2.0.0", "c"]);
        assert_eq!(p[1].version, "0.3.1");
    }
}
