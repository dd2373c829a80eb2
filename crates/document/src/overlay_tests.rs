use super::*;
use serde_json::json;

fn doc() -> Value {
    json!({
        "openapi": "3.1.0",
        "info": {"title": "T", "version": "1"},
        "paths": {
            "/pets": {
                "get": {"operationId": "listPets", "tags": ["pets"], "parameters": [{"name": "a", "in": "query"}, {"name": "b", "in": "query"}]},
                "post": {"operationId": "createPet"}
            },
            "/admin": {"delete": {"operationId": "nuke"}}
        }
    })
}

fn apply(overlay: &str) -> Result<(Value, Vec<Diagnostic>), Diagnostic> {
    let o = Overlay::parse(overlay, "o.yaml")?;
    let mut d = doc();
    let w = o.apply(&mut d)?;
    Ok((d, w))
}

#[test]
fn updates_merge_and_removes_drop_in_order() {
    let (d, w) = apply(
        "overlay: 1.0.0\ninfo: {title: t, version: '1'}\nactions:\n\
             - target: $.paths['/pets'].get\n  update:\n    x-mcp: {name: find_pets}\n    tags: [animals]\n\
             - target: $.paths['/admin']\n  remove: true\n\
             - target: $.paths.*.get.parameters[?@.name == 'a']\n  remove: true\n\
             - target: $.paths.*.get.parameters\n  update: {name: c, in: query}\n",
    )
    .unwrap();
    assert!(w.is_empty(), "{w:?}");
    let get = &d["paths"]["/pets"]["get"];
    assert_eq!(get["x-mcp"]["name"], "find_pets");
    assert_eq!(get["tags"], json!(["pets", "animals"]));
    assert_eq!(get["operationId"], "listPets");
    assert_eq!(
        get["parameters"],
        json!([{"name": "b", "in": "query"}, {"name": "c", "in": "query"}])
    );
    assert!(d["paths"].get("/admin").is_none());
}

#[test]
fn removing_several_array_items_keeps_the_others() {
    let (d, _) = apply(
        "overlay: 1.0.0\ninfo: {title: t, version: '1'}\nactions:\n\
             - target: $.paths['/pets'].get.parameters[*]\n  remove: true\n",
    )
    .unwrap();
    assert_eq!(d["paths"]["/pets"]["get"]["parameters"], json!([]));
}

#[test]
fn a_target_matching_nothing_is_a_located_warning() {
    let (_, w) = apply(
        "overlay: 1.0.0\ninfo: {title: t, version: '1'}\nactions:\n\
             - target: $.paths['/nope'].get\n  remove: true\n",
    )
    .unwrap();
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].file, "o.yaml");
    assert_eq!(w[0].pointer, "/actions/0/target");
    assert_eq!(w[0].line, Some(4));
    assert!(w[0].message.contains("matches nothing"), "{}", w[0].message);
}

#[test]
fn broken_overlays_are_located_errors() {
    let e =
        apply("overlay: 1.0.0\nactions:\n  - target: $.paths[\n    remove: true\n").unwrap_err();
    assert_eq!((e.pointer.as_str(), e.line), ("/actions/0/target", Some(3)));
    assert!(e.message.contains("invalid JSONPath"), "{}", e.message);

    let e = apply("openapi: 3.1.0\npaths: {}\n").unwrap_err();
    assert!(e.message.contains("not an Overlay document"), "{}", e);

    let e = apply("overlay: 1.0.0\nactions: [\n").unwrap_err();
    assert!(e.message.contains("invalid YAML"), "{e}");
    assert!(e.line.is_some());

    let e =
        apply("overlay: 1.0.0\nactions:\n  - target: $.paths['/pets'].get\n    update: renamed\n")
            .unwrap_err();
    assert_eq!(e.pointer, "/actions/0/update");
    assert_eq!(e.line, Some(4));

    let e = apply("overlay: 2.0.0\nactions: []\n").unwrap_err();
    assert_eq!((e.pointer.as_str(), e.line), ("/overlay", Some(1)));
}
