//! Lists the files of the crates generated servers depend on for `generate
//! --vendor` (`codegen::vendor::SOURCES`): every file under
//! `crates/model`, `crates/runtime` and `crates/server` (their manifests
//! and `src/`) but unit tests (`tests.rs`, `*_tests.rs`), embedded with
//! `include_str!`, so a file added to any of them is vendored without
//! anyone listing it.
//!
//! Their manifests inherit from the workspace (`version.workspace = true`,
//! `serde = { workspace = true, features = […] }`), which a generated crate
//! is not part of: each manifest is embedded as written out here, with
//! every inherited field and dependency replaced by the workspace's entry
//! (the crate's own features and `optional` added; paths to sibling crates
//! made relative to `vendor/`, where the copies sit side by side).

use std::fs;
use std::path::{Path, PathBuf};

use toml_edit::{DocumentMut, InlineTable, Item, Value};

fn main() {
    // This crate is `crates/codegen`: its siblings are the crates vendored.
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let crates = root.join("..");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    let workspace_manifest = root.join("../../Cargo.toml");
    let workspace = fs::read_to_string(&workspace_manifest)
        .expect("read the workspace's Cargo.toml")
        .parse::<DocumentMut>()
        .expect("the workspace's Cargo.toml parses");
    println!("cargo:rerun-if-changed=../../Cargo.toml");
    let mut files = Vec::new();
    for name in ["model", "runtime", "server"] {
        files.push(format!("{name}/Cargo.toml"));
        walk(&crates, &format!("{name}/src"), &mut files);
        println!("cargo:rerun-if-changed=../{name}/src");
        println!("cargo:rerun-if-changed=../{name}/Cargo.toml");
    }
    println!("cargo:rerun-if-changed=build.rs");
    files.sort();
    let mut out = String::from("&[\n");
    for file in &files {
        let mut path = crates.join(file);
        if file.ends_with("Cargo.toml") {
            let manifest = fs::read_to_string(&path).expect("read a vendored crate's Cargo.toml");
            let inlined = without_inheritance(&manifest, &workspace)
                .unwrap_or_else(|e| panic!("crates/{file}: {e}"));
            path = out_dir.join("vendor").join(file);
            fs::create_dir_all(path.parent().expect("a parent")).expect("create OUT_DIR/vendor");
            fs::write(&path, inlined).expect("write a vendored Cargo.toml");
        }
        out.push_str(&format!(
            "    ({file:?}, include_str!({:?})),\n",
            path.to_str().expect("a UTF-8 path")
        ));
    }
    out.push_str("]\n");
    fs::write(out_dir.join("vendor_sources.rs"), out).expect("write OUT_DIR/vendor_sources.rs");
}

/// `manifest` with what it inherits from `workspace` written in: each
/// `field.workspace = true` of `[package]` becomes the workspace's value,
/// and each `dep = { workspace = true, … }` the workspace's entry with the
/// crate's features added (and `optional` kept).
fn without_inheritance(manifest: &str, workspace: &DocumentMut) -> Result<String, String> {
    let mut doc = manifest
        .parse::<DocumentMut>()
        .map_err(|e| format!("does not parse: {e}"))?;
    let shared = |table: &str| {
        workspace
            .get("workspace")
            .and_then(|w| w.get(table))
            .and_then(Item::as_table_like)
    };
    if let Some(package) = doc.get_mut("package").and_then(Item::as_table_like_mut) {
        for (key, item) in package.iter_mut() {
            if !inherits(item) {
                continue;
            }
            let value = shared("package")
                .and_then(|p| p.get(&key))
                .and_then(Item::as_value)
                .ok_or_else(|| format!("package.{key} inherits what [workspace.package] lacks"))?;
            *item = Item::Value(value.clone());
        }
    }
    for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
        let Some(deps) = doc.get_mut(section).and_then(Item::as_table_like_mut) else {
            continue;
        };
        for (name, item) in deps.iter_mut() {
            if !inherits(item) {
                continue;
            }
            let entry = shared("dependencies")
                .and_then(|d| d.get(&name))
                .ok_or_else(|| {
                    format!("{section}.{name} inherits what [workspace.dependencies] lacks")
                })?;
            *item = Item::Value(Value::InlineTable(inlined_dependency(entry, item)?));
        }
    }
    Ok(doc.to_string())
}

/// Whether a `[package]` field or a dependency says `workspace = true`.
fn inherits(item: &Item) -> bool {
    item.as_table_like()
        .and_then(|t| t.get("workspace"))
        .and_then(Item::as_bool)
        == Some(true)
}

/// The workspace's `entry` for a dependency, with what the crate's own
/// declaration (`member`) adds: features (after the workspace's) and
/// `optional`. A path below the workspace's `crates/` becomes `../name`.
fn inlined_dependency(entry: &Item, member: &Item) -> Result<InlineTable, String> {
    let mut table = match entry {
        Item::Value(Value::String(version)) => {
            let mut t = InlineTable::new();
            t.insert("version", Value::from(version.value().as_str()));
            t
        }
        Item::Value(Value::InlineTable(t)) => t.clone(),
        Item::Table(t) => t.clone().into_inline_table(),
        _ => return Err("a workspace dependency is neither a version nor a table".into()),
    };
    if let Some(path) = table.get("path").and_then(Value::as_str) {
        let relative = path
            .strip_prefix("crates/")
            .map(|dir| format!("../{dir}"))
            .ok_or_else(|| format!("path {path:?} is not below crates/"))?;
        table.insert("path", Value::from(relative));
    }
    let own = member.as_table_like().expect("checked by inherits");
    if let Some(extra) = own.get("features").and_then(Item::as_array) {
        let mut features = table
            .get("features")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for feature in extra.iter() {
            if !features.iter().any(|f| f.as_str() == feature.as_str()) {
                features.push(feature.clone());
            }
        }
        features.fmt();
        table.insert("features", Value::Array(features));
    }
    if let Some(optional) = own.get("optional").and_then(Item::as_value) {
        table.insert("optional", optional.clone());
    }
    for (key, _) in own.iter() {
        if !matches!(key, "workspace" | "features" | "optional") {
            return Err(format!(
                "the key `{key}` beside `workspace = true` is not written in"
            ));
        }
    }
    table.fmt();
    Ok(table)
}

/// Every file below `crates/dir` but unit tests, as paths below `crates/`.
fn walk(crates: &Path, dir: &str, out: &mut Vec<String>) {
    let Ok(entries) = fs::read_dir(crates.join(dir)) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = format!("{dir}/{name}");
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            walk(crates, &path, out);
        } else if !(name == "tests.rs" || name.ends_with("_tests.rs")) {
            out.push(path);
        }
    }
}
