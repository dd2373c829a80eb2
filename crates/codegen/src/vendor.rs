//! What a generated crate takes from this one: the runtime and server crates
//! (`crates/runtime`, `crates/server`, and the tool model crate
//! `crates/model` they depend on) as a dependency, either by version
//! requirement, by path, or copied whole under the generated crate's
//! `vendor/` (one source of truth for call behaviour; the copies lose only
//! the lines that declare unit-test modules, whose tests stay here), and the
//! versions of the few crates generated code names itself, read from this
//! crate's own `Cargo.lock`.

use std::collections::BTreeMap;
use std::path::PathBuf;

/// Where a generated crate gets the runtime and server crates from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum RuntimeSource {
    /// Copied whole under `vendor/model`, `vendor/runtime` and
    /// `vendor/server`, so the
    /// crate builds with no access to a registry that has them (the
    /// default: openapi2mcp's crates are not published).
    #[default]
    Vendor,
    /// A version requirement only (`=` this generator's version), for a
    /// registry that has the crates.
    Registry,
    /// Path dependencies on `DIR/runtime` and `DIR/server` (which find
    /// `DIR/model` through their own manifests; a checkout of
    /// openapi2mcp: the checked-in examples, tests, monorepos). A relative
    /// `DIR` is relative to the generated crate, as Cargo reads it.
    Path(PathBuf),
}

impl RuntimeSource {
    /// The `Cargo.toml` value of the dependency on `crate_dir` (`runtime`
    /// or `server`): an inline table with the version requirement and, but
    /// for the registry, the path.
    pub fn dependency(&self, crate_dir: &str) -> String {
        let version = format!("={}", env!("CARGO_PKG_VERSION"));
        let path = match self {
            RuntimeSource::Vendor => Some(format!("vendor/{crate_dir}")),
            RuntimeSource::Registry => None,
            RuntimeSource::Path(dir) => {
                Some(dir.join(crate_dir).to_string_lossy().replace('\\', "/"))
            }
        };
        // Default features off: the generated crate's own features
        // (all on by default) choose them.
        match path {
            Some(path) => format!(
                "{{ version = {}, path = {}, default-features = false }}",
                toml_string(&version),
                toml_string(&path)
            ),
            None => format!(
                "{{ version = {}, default-features = false }}",
                toml_string(&version)
            ),
        }
    }
}

/// `text` as a TOML basic string.
fn toml_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `(path below crates/, contents)` of every file of the model, runtime
/// and server crates but their unit tests, as they are here (listed by the build
/// script, `build.rs`): [`files`] gives them as `--vendor` writes them.
/// Unit tests live in sibling files (`tests.rs`, `*_tests.rs`) that are
/// not listed, so vendored crates carry only runtime code.
pub const SOURCES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/vendor_sources.rs"));

/// The files `source` adds to a generated crate: with
/// [`RuntimeSource::Vendor`], every one of [`SOURCES`] under `vendor/`
/// ([`vendored`] sources, manifests without their dev-dependencies);
/// otherwise none.
pub fn files(source: &RuntimeSource) -> Vec<(String, String)> {
    if *source != RuntimeSource::Vendor {
        return Vec::new();
    }
    SOURCES
        .iter()
        .map(|(path, text)| {
            let contents = if path.ends_with("Cargo.toml") {
                without_dev_dependencies(text)
            } else {
                vendored(text)
            };
            (format!("vendor/{path}"), contents)
        })
        .collect()
}

/// A manifest without its `[dev-dependencies]` table: the vendored crates
/// carry no tests, and Cargo would otherwise resolve their test-only
/// dependencies for the generated crate's lock file.
fn without_dev_dependencies(manifest: &str) -> String {
    let mut out = String::with_capacity(manifest.len());
    let mut skipping = false;
    for line in manifest.split_inclusive('\n') {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            skipping = trimmed == "[dev-dependencies]";
        }
        if !skipping {
            out.push_str(line);
        }
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// A source file without the declaration of its unit-test module
/// (`#[cfg(test)]` or `#[cfg(all(test, …))]`, an optional
/// `#[path = "…"]`, then `mod tests;`): the
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
    let first = lines.first()?.trim_end();
    if first != "#[cfg(test)]" && !first.starts_with("#[cfg(all(test, ") {
        return None;
    }
    n += 1;
    if lines.get(n)?.trim_start().starts_with("#[path = ") {
        n += 1;
    }
    (lines.get(n)?.trim_end() == "mod tests;").then_some(n + 1)
}

/// The lock file this crate was built with.
const CARGO_LOCK: &str = include_str!("../../../Cargo.lock");

/// The crates generated code names itself (besides the runtime and server
/// crates): the tools' argument structs (`serde`) and JSON values
/// (`serde_json`). The command line is the server crate's.
pub const DEPENDENCIES: &[&str] = &["serde", "serde_json"];

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
#[path = "vendor_tests.rs"]
mod tests;
