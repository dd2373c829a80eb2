//! `generate`: the crates in generated/ are fresh, output is deterministic,
//! `--check` and `--templates` behave, awkward identifiers make valid Rust,
//! and a small crate's files are snapshotted.

use std::path::Path;

use assert_cmd::Command;
use openapi2mcp::codegen::{self, Difference, GenerateOptions, GeneratedCrate};

use crate::support;

/// `(directory under generated/, document)`, as scripts/regenerate.sh makes them.
pub const GENERATED: &[(&str, &str)] = &[
    ("petstore", "specs/petstore.yaml"),
    ("features", "specs/features.yaml"),
    ("oas32", "specs/oas32.yaml"),
];

fn bin() -> Command {
    Command::cargo_bin("openapi2mcp").unwrap()
}

fn generate(spec: &Path, package: &str) -> GeneratedCrate {
    let loaded = openapi2mcp::pipeline::load_catalog(
        spec.to_str().unwrap(),
        &openapi2mcp::pipeline::PipelineOptions {
            load: openapi2mcp::document::LoadOptions {
                keep_examples: false,
                ..Default::default()
            },
            ..Default::default()
        },
    )
    .unwrap();
    let options = GenerateOptions {
        package: Some(package.to_string()),
        templates: None,
        schemas: openapi2mcp::runtime::schemas::Schemas(loaded.schemas),
        runtime: codegen::RuntimeSource::Vendor,
    };
    codegen::generate(&loaded.catalog, &options, &mut |_, _| {}).unwrap()
}

/// `generate` of a crate of [`GENERATED`] as scripts/regenerate.sh runs
/// it, into `out`, writing or (`check`) comparing.
fn generate_as_checked_in(name: &str, spec: &str, out: &Path, check: bool) -> std::process::Output {
    let mut cmd = bin();
    cmd.args([
        "generate",
        spec,
        "--name",
        &format!("{name}-mcp"),
        "--runtime-path",
        "../../crates",
        "-q",
    ])
    .arg("--out")
    .arg(out)
    .current_dir(support::root());
    if check {
        cmd.arg("--check");
    }
    cmd.output().unwrap()
}

#[test]
fn checked_in_crates_are_up_to_date() {
    for (name, spec) in GENERATED {
        let out = generate_as_checked_in(
            name,
            spec,
            &support::local(&format!("generated/{name}")),
            true,
        );
        assert!(
            out.status.success(),
            "generated/{name} is stale; refresh it with scripts/regenerate.sh\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// `--check` leaves the user's files alone; the checked-in crates' copies
/// of them are what `generate` writes for a new crate all the same, so
/// generated/ is byte for byte what `generate` writes (issue #47).
#[test]
fn checked_in_user_files_are_what_generate_writes() {
    for (name, spec) in GENERATED {
        let dir = tempfile::tempdir().unwrap();
        let out = generate_as_checked_in(name, spec, dir.path(), false);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        for file in codegen::USER_FILES {
            let fresh = std::fs::read_to_string(dir.path().join(file)).unwrap();
            let checked_in =
                std::fs::read_to_string(support::local(&format!("generated/{name}/{file}")))
                    .unwrap();
            assert!(
                fresh == checked_in,
                "generated/{name}/{file} is not what generate writes; delete it and run scripts/regenerate.sh"
            );
        }
    }
}

#[test]
fn output_is_deterministic_and_vendors_the_runtime_verbatim() {
    let spec = support::local("specs/features.yaml");
    let a = generate(&spec, "features-mcp");
    let b = generate(&spec, "features-mcp");
    assert_eq!(a.files, b.files);
    for (path, _) in codegen::vendor::SOURCES {
        let vendored = format!("vendor/{path}");
        assert!(
            a.files.iter().any(|f| f.path == vendored),
            "{vendored} is not vendored"
        );
    }
    // A file without tests is copied byte for byte; one with tests loses
    // only the line that declares them.
    let own =
        std::fs::read_to_string(support::local("crates/runtime/src/request/path.rs")).unwrap();
    assert!(
        a.files
            .iter()
            .any(|f| f.path == "vendor/runtime/src/request/path.rs" && f.contents == own)
    );
    let own = std::fs::read_to_string(support::local("crates/runtime/src/request/mod.rs")).unwrap();
    let copy = a
        .files
        .iter()
        .find(|f| f.path == "vendor/runtime/src/request/mod.rs")
        .unwrap();
    assert!(own.contains("mod tests;") && !copy.contents.contains("mod tests"));
    assert!(own.starts_with(&copy.contents));
    // The crate depends on its vendored copies; nothing is copied into src/.
    let manifest = a.files.iter().find(|f| f.path == "Cargo.toml").unwrap();
    assert!(
        manifest
            .contents
            .contains("openapi2mcp-runtime = { version = \"=0.1.0\", path = \"vendor/runtime\", default-features = false }"),
        "{}",
        manifest.contents
    );
    assert!(
        !a.files
            .iter()
            .any(|f| f.path.starts_with("src/runtime") || f.path.starts_with("src/server"))
    );
}

#[test]
fn check_reports_stale_files_and_generate_repairs_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("crate");
    let run = |check: bool| {
        let mut cmd = bin();
        cmd.args(["generate", "specs/petstore.yaml", "-q", "--out"])
            .arg(&out)
            .current_dir(support::root());
        if check {
            cmd.arg("--check");
        }
        cmd.output().unwrap()
    };
    // Nothing there yet: stale, and --check writes nothing.
    let first = run(true);
    assert_eq!(first.status.code(), Some(1));
    assert!(!out.exists(), "--check must not write");
    assert!(run(false).status.success());
    assert!(run(true).status.success());
    let files = count_files(&out);

    std::fs::write(out.join("src/operations/pets.rs"), "// edited\n").unwrap();
    std::fs::remove_file(out.join("vendor/runtime/src/call.rs")).unwrap();
    std::fs::write(out.join("src/operations/old_tag.rs"), "").unwrap();
    // A crate generated before the runtime became a crate: its copies go.
    std::fs::create_dir_all(out.join("src/runtime/request")).unwrap();
    std::fs::write(out.join("src/runtime/request/body.rs"), "").unwrap();
    std::fs::write(out.join("vendor/runtime/src/stale.txt"), "").unwrap();
    let stale = run(true);
    assert_eq!(stale.status.code(), Some(1));
    let report = String::from_utf8_lossy(&stale.stderr);
    for expected in [
        "changed  src/operations/pets.rs (from line 1)",
        "missing  vendor/runtime/src/call.rs",
        "extra    src/operations/old_tag.rs",
        "extra    src/runtime/request/body.rs",
        "extra    vendor/runtime/src/stale.txt",
        &format!("5 of {files} files differ"),
    ] {
        assert!(report.contains(expected), "{expected:?} not in:\n{report}");
    }
    assert!(run(false).status.success());
    assert!(run(true).status.success());
    assert!(!out.join("src/operations/old_tag.rs").exists());
    assert!(
        !out.join("src/runtime").exists(),
        "emptied directories are removed"
    );
    assert!(out.join("vendor/runtime/src/call.rs").is_file());
}

#[test]
fn template_overrides_are_used_and_bad_ones_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let templates = dir.path().join("templates");
    std::fs::create_dir(&templates).unwrap();
    let out = dir.path().join("crate");
    let run = || {
        bin()
            .args(["generate", "specs/petstore.yaml", "-q", "--out"])
            .arg(&out)
            .arg("--templates")
            .arg(&templates)
            .current_dir(support::root())
            .output()
            .unwrap()
    };

    std::fs::write(
        templates.join("README.md.hbs"),
        "# {{package}} for {{api.title}}\n",
    )
    .unwrap();
    assert!(run().status.success());
    assert_eq!(
        std::fs::read_to_string(out.join("README.md")).unwrap(),
        "# petstore-mcp for Petstore\n"
    );

    // Strict mode: a field the data does not have is an error.
    std::fs::write(templates.join("README.md.hbs"), "{{no_such_field}}\n").unwrap();
    let failed = run();
    assert_eq!(failed.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&failed.stderr).contains("no_such_field"));
    std::fs::remove_file(templates.join("README.md.hbs")).unwrap();

    // Invalid Rust is reported with where it is, and nothing is written.
    std::fs::remove_dir_all(&out).unwrap();
    std::fs::write(templates.join("lib.rs.hbs"), "pub fn broken( {}\n").unwrap();
    let failed = run();
    assert_eq!(failed.status.code(), Some(1));
    let err = String::from_utf8_lossy(&failed.stderr);
    assert!(
        err.contains("generated src/lib.rs is not valid Rust") && err.contains("line 1"),
        "{err}"
    );
    assert!(
        !out.exists(),
        "nothing may be written when a file is invalid"
    );
    std::fs::remove_file(templates.join("lib.rs.hbs")).unwrap();

    std::fs::write(templates.join("readme.hbs"), "").unwrap();
    let failed = run();
    let err = String::from_utf8_lossy(&failed.stderr);
    assert!(
        err.contains("readme.hbs")
            && err.contains("known: Cargo.toml.hbs, ")
            && err.contains(", README.md.hbs, "),
        "{err}"
    );
}

#[test]
fn awkward_identifiers_make_valid_rust() {
    let krate = generate(
        &support::local("tests/fixtures/codegen-names.yaml"),
        "names-mcp",
    );
    let file = |path: &str| {
        &krate
            .files
            .iter()
            .find(|f| f.path == path)
            .unwrap_or_else(|| panic!("no {path}"))
            .contents
    };
    let paths: Vec<&str> = krate.files.iter().map(|f| f.path.as_str()).collect();
    assert!(paths.contains(&"src/operations/match.rs"), "{paths:?}");
    assert!(paths.contains(&"src/operations/match_2.rs"), "{paths:?}");
    assert!(paths.contains(&"src/operations/self_.rs"), "{paths:?}");
    assert!(file("src/operations/mod.rs").contains("pub mod r#match;\n"));
    let matches = file("src/operations/match.rs");
    for expected in [
        "pub async fn r#type(call: Call<'_>, args: TypeArgs) -> CallReport",
        "pub r#type: String,",
        // `type: [integer, "null"]`, optional: a sent `null` is `Some(None)`.
        "rename = \"self\",\n        default,\n        deserialize_with = \"openapi2mcp_runtime::typed::present_integers\",\n        skip_serializing_if = \"Option::is_none\"\n    )]\n    pub self_: Option<Option<i64>>,",
        "pub pet_id: Option<String>,",
        "pub pet_id_2: Option<String>,",
        "pub arg_2fa: Option<bool>,",
        "pub filter_name: Option<Vec<String>>,",
    ] {
        assert!(
            matches.contains(expected),
            "{expected:?} not in:\n{matches}"
        );
    }
    let selfs = file("src/operations/self_.rs");
    for expected in [
        "pub async fn self_(call: Call<'_>, args: SelfArgs)",
        "pub r#fn: String,",
        "pub r#async: Option<Option<String>>,",
        "pub nested: Option<SelfArgsNested>,",
        "pub struct SelfArgsNested {",
        "pub a: Option<i64>,",
        "#[serde(default, skip_serializing_if = \"Option::is_none\")]\n    pub arg: Option<String>,",
    ] {
        assert!(selfs.contains(expected), "{expected:?} not in:\n{selfs}");
    }
    // The code fence in the description is not a Rust doctest.
    assert!(file("src/lib.rs").contains("//! MCP server for the Names: keywords & collisions API"));
    for f in &krate.files {
        if f.path.ends_with(".rs") && f.path.starts_with("src/operations") {
            assert!(
                !f.contents.contains("/// ```\n/// this block"),
                "{}",
                f.path
            );
        }
    }
}

#[test]
fn small_crate_snapshot() {
    let krate = generate(
        &support::local("tests/fixtures/codegen-names.yaml"),
        "names-mcp",
    );
    for file in &krate.files {
        let vendored = file.path.starts_with("vendor/");
        // Dependency versions follow Cargo.lock; the rest is the generator's.
        if vendored || file.path == "tools.json" {
            continue;
        }
        let name = file.path.replace(['/', '.'], "_");
        insta::assert_snapshot!(format!("generate_names_{name}"), file.contents);
    }
}

/// The typed layer (crates/codegen/src/types.rs) over nested objects, enums,
/// integers, `$defs` (recursive too), nullable members and `oneOf`: the
/// operations modules and the shared types.
#[test]
fn typed_arguments_snapshot() {
    let krate = generate(
        &support::local("tests/fixtures/codegen-types.yaml"),
        "typed-mcp",
    );
    let mut seen = 0;
    for file in &krate.files {
        let Some(module) = file.path.strip_prefix("src/operations/") else {
            continue;
        };
        if module == "mod.rs" {
            continue;
        }
        seen += 1;
        let name = module.replace('.', "_");
        insta::assert_snapshot!(format!("generate_types_{name}"), file.contents);
    }
    assert_eq!(seen, 3, "orders, inventory and the shared types");
}

#[test]
fn differences_display_as_the_check_report_lists_them() {
    assert_eq!(
        Difference::Changed {
            path: "a.rs".into(),
            line: 3
        }
        .to_string(),
        "changed  a.rs (from line 3)"
    );
}

/// Files under `dir`, recursively (what `generate` writes and `--check`
/// compares; a stray extra file is not yet there when this counts).
fn count_files(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| if p.is_dir() { count_files(&p) } else { 1 })
        .sum()
}

#[test]
fn the_registry_entry_follows_the_mcp_registry_schema() {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(support::local(
            "tests/fixtures/mcp-registry/server.schema.json",
        ))
        .unwrap(),
    )
    .unwrap();
    let validator = jsonschema::draft7::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    for (spec, package) in [
        ("specs/features.yaml", "features-mcp"),
        ("specs/petstore.yaml", "petstore-mcp"),
    ] {
        let krate = generate(&support::local(spec), package);
        let file = |name: &str| {
            krate
                .files
                .iter()
                .find(|f| f.path == name)
                .unwrap_or_else(|| panic!("{name} is generated"))
                .contents
                .clone()
        };
        let entry: serde_json::Value = serde_json::from_str(&file("server.json")).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&entry)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{package}: {errors:?}\n{entry:#}");
        assert_eq!(entry["packages"][0]["transport"]["type"], "stdio");
        // Every credential the crate reads is declared, as a secret.
        let declared: Vec<&str> = entry["packages"][0]["environmentVariables"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|v| v["isSecret"] == true)
            .map(|v| v["name"].as_str().unwrap())
            .collect();
        let readme = file("README.md");
        for var in &declared {
            assert!(
                readme.contains(var),
                "{package}: {var} is not one the crate reads"
            );
        }
        // The image the entry names is the one the Dockerfile builds.
        let dockerfile = file("Dockerfile");
        assert!(
            dockerfile.contains(&format!("--bin {package}")),
            "{dockerfile}"
        );
    }
    // The schema is no rubber stamp: a name without a namespace fails.
    let mut bad: serde_json::Value = serde_json::from_str(
        &generate(&support::local("specs/petstore.yaml"), "petstore-mcp")
            .files
            .iter()
            .find(|f| f.path == "server.json")
            .unwrap()
            .contents,
    )
    .unwrap();
    bad["name"] = serde_json::json!("no-namespace");
    assert!(!validator.is_valid(&bad));
}

/// The build.rs API writes the module and its JSON into the directory
/// given, leaves unchanged files alone on the next build (nothing
/// recompiles), and names a broken document's problem with its line.
#[test]
fn the_build_script_api_writes_a_module_and_names_broken_documents() {
    let dir = tempfile::tempdir().unwrap();
    let module =
        openapi2mcp::build::Builder::new(support::local("specs/petstore.yaml").to_str().unwrap())
            .module_dir("petstore")
            .out_dir(dir.path())
            .generate()
            .unwrap();
    assert_eq!(module, dir.path().join("petstore/mod.rs"));
    let text = std::fs::read_to_string(&module).unwrap();
    for expected in [
        "pub mod operations {",
        "pub trait Hooks",
        "pub fn main_with<H: operations::Hooks>",
        "concat!(env!(\"OUT_DIR\"), \"/petstore/tools.json\")",
        "fn list_pets<'a>",
    ] {
        assert!(text.contains(expected), "{expected:?} not in the module");
    }
    assert!(
        !text.contains("#!["),
        "an include!d file has no inner attributes"
    );
    assert!(
        !text.contains("mod hooks"),
        "the crate's own code holds the hooks"
    );
    syn::parse_file(&text).unwrap();
    let tools: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("petstore/tools.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(tools["tools"].as_array().unwrap().len(), 7);
    let written = std::fs::metadata(&module).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    openapi2mcp::build::Builder::new(support::local("specs/petstore.yaml").to_str().unwrap())
        .module_dir("petstore")
        .out_dir(dir.path())
        .generate()
        .unwrap();
    assert_eq!(
        std::fs::metadata(&module).unwrap().modified().unwrap(),
        written
    );

    let bad = dir.path().join("bad.yaml");
    std::fs::write(
        &bad,
        "openapi: 3.0.3\ninfo:\n  title: t\n  version: '1'\npaths:\n  /a: [unclosed\n",
    )
    .unwrap();
    let err = openapi2mcp::build::Builder::new(bad.to_str().unwrap())
        .out_dir(dir.path())
        .generate()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("bad.yaml:7") && err.contains("invalid YAML"),
        "{err}"
    );
    let err = openapi2mcp::build::Builder::new("specs/petstore.yaml")
        .module_dir("../escape")
        .out_dir(dir.path())
        .generate()
        .unwrap_err()
        .to_string();
    assert!(err.contains("\"../escape\""), "{err}");
}

/// Issue #47: a user's edits survive regeneration after the document
/// changed (an operation added, one removed, one renamed), and the hook
/// overrides that no longer compile are named before any build.
#[test]
fn the_user_s_files_and_manifest_entries_survive_a_changed_document() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("crate");
    let spec = dir.path().join("pets.yaml");
    let original = std::fs::read_to_string(support::local("specs/petstore.yaml")).unwrap();
    std::fs::write(&spec, &original).unwrap();
    let run = |check: bool| {
        let mut cmd = bin();
        cmd.arg("generate").arg(&spec).arg("--out").arg(&out);
        if check {
            cmd.arg("--check");
        }
        cmd.output().unwrap()
    };
    assert!(run(false).status.success());

    // The user logs from a hook: a dependency and a profile of their own,
    // a module under src/hooks/, and overrides of three tools.
    let manifest = std::fs::read_to_string(out.join("Cargo.toml")).unwrap();
    let manifest = manifest.replacen(
        "[dependencies]\n",
        "[dependencies]\n# Logging from src/hooks.rs.\nlog = \"0.4\"\n",
        1,
    ) + "\n# Mine.\n[profile.dev]\nopt-level = 1\n";
    std::fs::write(out.join("Cargo.toml"), &manifest).unwrap();
    let hooks = std::fs::read_to_string(out.join("src/hooks.rs"))
        .unwrap()
        .replace(
            "impl Hooks for Custom {}",
            "mod audit;\n\nimpl Hooks for Custom {\n    fn list_pets(&self) {}\n    fn delete_pet(&self) {}\n    fn get_pet_photo(&self) {}\n}",
        );
    std::fs::write(out.join("src/hooks.rs"), &hooks).unwrap();
    std::fs::create_dir_all(out.join("src/hooks")).unwrap();
    let module = "//! The user's own module.\npub fn note() {}\n";
    std::fs::write(out.join("src/hooks/audit.rs"), module).unwrap();
    // Edits of the user's own are not staleness.
    let check = run(true);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );

    // The document changes: deletePet renamed, getPetPhoto removed, an
    // operation added.
    let (head, rest) = original
        .split_once("    get:\n      operationId: getPetPhoto")
        .unwrap();
    let (_, tail) = rest
        .split_once("    put:\n      operationId: uploadPetPhoto")
        .unwrap();
    let changed = format!("{head}    put:\n      operationId: uploadPetPhoto{tail}")
        .replace("operationId: deletePet", "operationId: removePet")
        .replacen(
            "\ncomponents:",
            "\n  /pets/{petId}/vaccinations:\n    get:\n      operationId: listVaccinations\n      parameters:\n        - $ref: '#/components/parameters/PetId'\n      responses:\n        '200':\n          description: The vaccinations.\ncomponents:",
            1,
        );
    assert_ne!(changed, original);
    std::fs::write(&spec, &changed).unwrap();
    let regenerated = run(false);
    let said = String::from_utf8_lossy(&regenerated.stderr).to_string();
    assert!(regenerated.status.success(), "{said}");
    assert!(
        said.contains("`fn delete_pet` overrides a tool the document no longer has")
            && said.contains("(renamed to `remove_pet`?)"),
        "{said}"
    );
    assert!(
        said.contains("`fn get_pet_photo` overrides a tool the document no longer has"),
        "{said}"
    );
    assert!(!said.contains("`fn list_pets`"), "{said}");
    // Every file of the user's is as they left it; the manifest keeps
    // their entries and takes the generator's.
    assert_eq!(
        std::fs::read_to_string(out.join("src/hooks.rs")).unwrap(),
        hooks
    );
    assert_eq!(
        std::fs::read_to_string(out.join("src/hooks/audit.rs")).unwrap(),
        module
    );
    let merged = std::fs::read_to_string(out.join("Cargo.toml")).unwrap();
    for kept in [
        "# Logging from src/hooks.rs.\nlog = \"0.4\"",
        "# Mine.\n[profile.dev]\nopt-level = 1",
        "openapi2mcp-server",
    ] {
        assert!(merged.contains(kept), "{kept:?} lost:\n{merged}");
    }
    let tools = std::fs::read_to_string(out.join("src/operations/mod.rs")).unwrap();
    assert!(tools.contains("fn remove_pet") && tools.contains("fn list_vaccinations"));
    assert!(!tools.contains("fn get_pet_photo"));
    // An untouched regeneration is up to date.
    let check = run(true);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
}

/// Issue #47 item 6: the build script's module serves the tools `generate`
/// writes, byte for byte (`tools.json`, `schemas.json`), on GitHub's
/// REST description and the project's own documents; with the same
/// catalog the server's `auto` choice is the same too.
#[test]
fn the_build_script_module_serves_the_tools_generate_writes() {
    let mut docs: Vec<(String, std::path::PathBuf)> = GENERATED
        .iter()
        .map(|(name, spec)| (name.to_string(), support::local(spec)))
        .collect();
    if let Some(github) = support::external("@octokit/openapi/generated/api.github.com.json") {
        docs.push(("github".into(), github));
    }
    for (name, spec) in docs {
        let dir = tempfile::tempdir().unwrap();
        let out = bin()
            .args(["generate", "-q", "--name", &format!("{name}-mcp"), "--out"])
            .arg(dir.path().join("crate"))
            .arg(&spec)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        openapi2mcp::build::Builder::new(spec.to_str().unwrap())
            .module_dir("api")
            .out_dir(dir.path())
            .generate()
            .unwrap();
        for file in ["tools.json", "schemas.json"] {
            let crate_file = std::fs::read_to_string(dir.path().join("crate").join(file)).unwrap();
            let module_file = std::fs::read_to_string(dir.path().join("api").join(file)).unwrap();
            assert!(
                crate_file == module_file,
                "{name}: the build script's {file} differs from generate's"
            );
        }
    }
}
