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
fn every_model_runtime_and_server_file_is_vendored_and_no_test_file_is() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut paths = vec![
        "model/Cargo.toml".to_string(),
        "runtime/Cargo.toml".to_string(),
        "server/Cargo.toml".to_string(),
    ];
    for dir in ["model/src", "runtime/src", "server/src"] {
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
fn vendored_manifests_lose_only_their_dev_dependencies() {
    let manifest = "[package]\nname = \"a\"\n\n[dependencies]\nb = \"1\"\n\n[dev-dependencies]\nc = \"2\"\n\n[features]\nx = []\n";
    assert_eq!(
        without_dev_dependencies(manifest),
        "[package]\nname = \"a\"\n\n[dependencies]\nb = \"1\"\n\n[features]\nx = []\n"
    );
    let vendored = files(&RuntimeSource::Vendor);
    let server = &vendored
        .iter()
        .find(|(p, _)| p == "vendor/server/Cargo.toml")
        .unwrap()
        .1;
    assert!(server.contains("path = \"../runtime\""), "{server}");
    let runtime = &vendored
        .iter()
        .find(|(p, _)| p == "vendor/runtime/Cargo.toml")
        .unwrap()
        .1;
    assert!(runtime.contains("path = \"../model\""), "{runtime}");
    assert!(
        vendored
            .iter()
            .any(|(p, _)| p == "vendor/model/src/catalog.rs")
    );
    assert!(!server.contains("dev-dependencies"), "{server}");
    assert!(files(&RuntimeSource::Registry).is_empty());
}

/// Each dependency of `package` as Cargo reads it from `manifest`
/// (`cargo metadata --no-deps`): name, requirement, features, optional,
/// default features, kind, and the directory name of a path dependency;
/// then its features table.
fn declared_dependencies(manifest: &std::path::Path, package: &str) -> Vec<String> {
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--no-deps",
            "--offline",
            "--format-version",
            "1",
        ])
        .arg("--manifest-path")
        .arg(manifest)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cargo metadata on {}: {}",
        manifest.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let found = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == package)
        .unwrap_or_else(|| panic!("{package} not in {}", manifest.display()));
    let mut deps: Vec<String> = found["dependencies"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["kind"] != "dev")
        .map(|d| {
            let mut features: Vec<&str> = d["features"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f.as_str().unwrap())
                .collect();
            features.sort();
            let dir = d["path"].as_str().map(|p| p.rsplit('/').next().unwrap());
            format!(
                "{} {} {features:?} optional={} default={} kind={} dir={dir:?}",
                d["name"], d["req"], d["optional"], d["uses_default_features"], d["kind"]
            )
        })
        .collect();
    deps.sort();
    deps.push(found["features"].to_string());
    deps
}

/// The vendored manifests build outside this workspace: what they
/// inherit from it is written in, and Cargo reads the same dependencies
/// (features, optional, default features) from the copy as from the
/// crate here, and the same version and edition.
#[test]
fn vendored_manifests_declare_what_the_workspace_crates_do() {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files(&RuntimeSource::Vendor) {
        let dest = dir.path().join(&path);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::write(dest, text).unwrap();
    }
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for name in ["model", "runtime", "server"] {
        let copy = dir.path().join(format!("vendor/{name}/Cargo.toml"));
        let text = std::fs::read_to_string(&copy).unwrap();
        assert!(!text.contains("workspace"), "{name}: {text}");
        let package = format!("openapi2mcp-{name}");
        let vendored = declared_dependencies(&copy, &package);
        let original = declared_dependencies(&here.join(name).join("Cargo.toml"), &package);
        assert!(vendored.len() > 1);
        assert_eq!(vendored, original, "{name}");
        let doc: toml_edit::DocumentMut = text.parse().unwrap();
        assert_eq!(
            doc["package"]["version"].as_str(),
            Some(env!("CARGO_PKG_VERSION"))
        );
        assert_eq!(doc["package"]["edition"].as_str(), Some("2024"));
    }
}

#[test]
fn dependencies_name_the_version_and_where_the_crates_are() {
    let v = env!("CARGO_PKG_VERSION");
    assert_eq!(
        RuntimeSource::Registry.dependency("runtime"),
        format!("{{ version = \"={v}\", default-features = false }}")
    );
    assert_eq!(
        RuntimeSource::Vendor.dependency("server"),
        format!("{{ version = \"={v}\", path = \"vendor/server\", default-features = false }}")
    );
    assert_eq!(
        RuntimeSource::Path("../../crates".into()).dependency("runtime"),
        format!(
            "{{ version = \"={v}\", path = \"../../crates/runtime\", default-features = false }}"
        )
    );
    assert_eq!(toml_string("a\"b\\c"), "\"a\\\"b\\\\c\"");
}

#[test]
fn vendored_files_carry_no_unit_tests() {
    for (path, text) in files(&RuntimeSource::Vendor) {
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
    // Tests that need a cargo feature too.
    let gated =
        "fn a() {}\n\n#[cfg(all(test, feature = \"jq\"))]\n#[path = \"a_tests.rs\"]\nmod tests;\n";
    assert_eq!(vendored(gated), "fn a() {}\n");
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
    assert!(versions["serde"].starts_with("1."), "{versions:?}");
    assert!(versions.contains_key("serde_json"));
}

#[test]
fn lock_entries_are_parsed() {
    let lock = "[[package]]\nname = \"a\"\nversion = \"1.0.0\"\ndependencies = [\n \"b 2.0.0\",\n \"c\",\n]\n\n[[package]]\nname = \"c\"\nversion = \"0.3.1\"\n";
    let p = parse_lock(lock);
    assert_eq!(p.len(), 2);
    assert_eq!(p[0].dependencies, ["b 2.0.0", "c"]);
    assert_eq!(p[1].version, "0.3.1");
}
