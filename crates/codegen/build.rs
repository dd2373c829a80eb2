//! Lists the files of the crates generated servers depend on for `generate
//! --vendor` (`codegen::vendor::SOURCES`): every file under
//! `crates/model`, `crates/runtime` and `crates/server` (their manifests
//! and `src/`) but unit tests (`tests.rs`, `*_tests.rs`), embedded with
//! `include_str!`, so a file added to any of them is vendored without
//! anyone listing it.

use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    // This crate is `crates/codegen`: its siblings are the crates vendored.
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let crates = root.join("..");
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
        let path = crates.join(file);
        out.push_str(&format!(
            "    ({file:?}, include_str!({:?})),\n",
            path.to_str().expect("a UTF-8 path")
        ));
    }
    out.push_str("]\n");
    let dest =
        PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo")).join("vendor_sources.rs");
    fs::write(dest, out).expect("write OUT_DIR/vendor_sources.rs");
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
