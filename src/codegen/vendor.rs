//! What a generated crate takes from this one as it is: the runtime and
//! server sources (one source of truth for call behaviour, copied byte for
//! byte), and the dependency versions this crate is built and tested with,
//! read from its own `Cargo.lock`.

use std::collections::BTreeMap;

/// `(path in the generated crate, contents)` of every vendored file.
pub const SOURCES: &[(&str, &str)] = &[
    ("src/runtime/mod.rs", include_str!("../runtime/mod.rs")),
    ("src/runtime/auth.rs", include_str!("../runtime/auth.rs")),
    (
        "src/runtime/binding.rs",
        include_str!("../runtime/binding.rs"),
    ),
    ("src/runtime/call.rs", include_str!("../runtime/call.rs")),
    (
        "src/runtime/catalog.rs",
        include_str!("../runtime/catalog.rs"),
    ),
    ("src/runtime/http.rs", include_str!("../runtime/http.rs")),
    (
        "src/runtime/jsoncut.rs",
        include_str!("../runtime/jsoncut.rs"),
    ),
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
        "src/runtime/select.rs",
        include_str!("../runtime/select.rs"),
    ),
    (
        "src/runtime/request.rs",
        include_str!("../runtime/request.rs"),
    ),
    (
        "src/runtime/response.rs",
        include_str!("../runtime/response.rs"),
    ),
    ("src/server/mod.rs", include_str!("../server/mod.rs")),
    ("src/server/cli.rs", include_str!("../server/cli.rs")),
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

/// The lock file this crate was built with.
const CARGO_LOCK: &str = include_str!("../../Cargo.lock");

/// The crates a generated crate depends on directly.
pub const DEPENDENCIES: &[&str] = &[
    "arc-swap",
    "axum",
    "base64",
    "bm25",
    "clap",
    "jaq-core",
    "jaq-json",
    "jaq-std",
    "jsonschema",
    "jsonwebtoken",
    "metrics",
    "metrics-exporter-prometheus",
    "oauth2",
    "percent-encoding",
    "reqwest",
    "rmcp",
    "serde",
    "serde_json",
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

    #[test]
    fn every_runtime_and_server_file_is_vendored() {
        let root = env!("CARGO_MANIFEST_DIR");
        let mut dirs = vec!["src/runtime".to_string(), "src/server".to_string()];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(format!("{root}/{dir}")).unwrap() {
                let entry = entry.unwrap();
                let name = entry.file_name().into_string().unwrap();
                let path = format!("{dir}/{name}");
                if entry.file_type().unwrap().is_dir() {
                    dirs.push(path);
                    continue;
                }
                assert!(
                    SOURCES.iter().any(|(p, _)| *p == path),
                    "{path} is not in codegen::vendor::SOURCES"
                );
            }
        }
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
