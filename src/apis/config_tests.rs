use super::*;

const YAML: &str = "\
# two APIs
apis:
  - name: pets
    spec: petstore.yaml
    mock: true
  - name: github
    spec: https://example.invalid/github.json
    prefix: gh
    credentials:
      OPENAPI2MCP_BEARER_TOKEN: ${GH_TOKEN}
";

#[test]
fn a_configuration_reads_from_yaml_and_toml_alike() {
    let dir = Path::new("/srv/conf");
    let yaml = Config::parse("apis.yaml", YAML, Some(dir)).unwrap();
    assert_eq!(yaml.apis.len(), 2);
    assert_eq!(yaml.apis[0].spec, "/srv/conf/petstore.yaml");
    assert_eq!(yaml.apis[1].spec, "https://example.invalid/github.json");
    assert_eq!((yaml.prefix(0), yaml.prefix(1)), ("pets", "gh"));
    let creds = yaml
        .credentials(1, |v| (v == "GH_TOKEN").then(|| "t0ken".to_string()))
        .unwrap();
    assert_eq!(
        creds,
        vec![("OPENAPI2MCP_BEARER_TOKEN".to_string(), "t0ken".to_string())]
    );
    let toml = "\
[[apis]]
name = \"pets\"
spec = \"petstore.yaml\"
mock = true

[[apis]]
name = \"github\"
spec = \"https://example.invalid/github.json\"
prefix = \"gh\"
";
    let toml = Config::parse("apis.toml", toml, Some(dir)).unwrap();
    assert_eq!(toml.apis[0].spec, yaml.apis[0].spec);
    assert_eq!(toml.prefix(1), "gh");
}

#[test]
fn mistakes_name_the_file_line_and_key() {
    let err = |file: &str, text: &str| Config::parse(file, text, None).unwrap_err();
    // serde's own: an unknown key, with its line.
    let e = err(
        "a.yaml",
        &YAML.replace("    mock: true", "    mocked: true"),
    );
    assert_eq!((e.file.as_str(), e.line), ("a.yaml", Some(5)), "{e}");
    assert!(e.message.contains("mocked"), "{e}");
    let e = err("a.toml", "[[apis]]\nname = \"x\"\nspec = 3\n");
    assert_eq!(e.line, Some(3), "{e}");
    // Checks of our own, located by entry and key.
    let e = err("a.yaml", &YAML.replace("prefix: gh", "prefix: pets"));
    assert_eq!(e.line, Some(8), "{e}");
    assert!(e.to_string().contains("apis[1] (`github`) prefix"), "{e}");
    assert!(e.message.contains("collide"), "{e}");
    let e = err("a.yaml", &YAML.replace("name: github", "name: pets"));
    assert_eq!(e.line, Some(6), "{e}");
    assert!(e.message.contains("also the name of apis[0]"), "{e}");
    let e = err("a.yaml", &YAML.replace("name: github", "name: Git Hub"));
    assert!(e.message.contains("a-z"), "{e}");
    let e = err(
        "a.yaml",
        &YAML.replace("OPENAPI2MCP_BEARER_TOKEN", "GITHUB_TOKEN"),
    );
    assert_eq!(e.line, Some(9), "{e}");
    assert!(e.message.contains("not a credential variable"), "{e}");
    // A setting's name (a scheme called `token`): refused, naming both.
    let e = err(
        "a.yaml",
        &YAML.replace("OPENAPI2MCP_BEARER_TOKEN", "OPENAPI2MCP_TOKEN_KEY"),
    );
    assert_eq!(e.line, Some(9), "{e}");
    assert!(
        e.message.contains("token store's encryption key")
            && e.message.contains("OPENAPI2MCP_CRED_TOKEN_KEY"),
        "{e}"
    );
    let e = err("a.yaml", "apis: []\n");
    assert!(e.message.contains("no API"), "{e}");
    // An unset variable: named, with the entry's line; no value shown.
    let config = Config::parse("a.yaml", YAML, None).unwrap();
    let e = config.credentials(1, |_| None).unwrap_err();
    assert_eq!(e.line, Some(9), "{e}");
    assert!(
        e.to_string()
            .contains("environment variable `GH_TOKEN` is not set"),
        "{e}"
    );
    let toml_err = err(
        "a.toml",
        "[[apis]]\nname = \"a\"\nspec = \"x\"\n\n[[apis]]\nname = \"b\"\nspec = \"y\"\nprefix = \"a\"\n",
    );
    assert_eq!(toml_err.line, Some(8), "{toml_err}");
}
