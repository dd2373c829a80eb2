use super::*;
use serde_json::json;

#[test]
fn recursive_schemas_stay_finite() {
    let doc = Document::from_value(
        "t",
        json!({"openapi": "3.0.3", "paths": {}, "components": {"schemas": {
            "Node": {"type": "object", "properties": {
                "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}},
                "owner": {"$ref": "#/components/schemas/User"}}},
            "User": {"type": "object", "nullable": true, "properties": {"best": {"$ref": "#/components/schemas/Node"}}}
        }}}),
    )
    .unwrap();
    let mut b = SchemaBundler::new(&doc);
    let v = json!({"$ref": "#/components/schemas/Node"});
    let node = Schema::inline(&doc, &v);
    let mut deps = BTreeSet::new();
    let s = b.convert(&node, Direction::Input, &mut deps);
    assert_eq!(s, json!({"$ref": "#/$defs/Node"}));
    let defs = b.defs(&deps, Direction::Input);
    assert_eq!(defs.keys().collect::<Vec<_>>(), ["Node", "User"]);
    assert_eq!(defs["User"]["type"], json!(["object", "null"]));
    assert_eq!(
        defs["Node"]["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Node"})
    );
}

#[test]
fn dangling_refs_become_placeholders_with_a_warning() {
    let doc = Document::from_value("t", json!({"openapi": "3.0.3", "paths": {}})).unwrap();
    let mut b = SchemaBundler::new(&doc);
    let v = json!({"$ref": "#/components/schemas/Missing"});
    let node = Schema::inline(&doc, &v);
    let mut deps = BTreeSet::new();
    b.convert(&node, Direction::Output, &mut deps);
    let defs = b.defs(&deps, Direction::Output);
    assert!(
        defs["Missing"]["$comment"]
            .as_str()
            .unwrap()
            .contains("unresolved")
    );
    let diags = b.take_diagnostics();
    assert_eq!(diags.len(), 1);
    assert!(diags[0].message.contains("points at nothing"));
}

#[test]
fn same_last_token_gets_distinct_keys() {
    let doc = Document::from_value(
        "t",
        json!({"openapi": "3.0.3", "paths": {}, "components": {"schemas": {"A": {"type": "string"}},
            "x": {"A": {"type": "integer"}}}}),
    )
    .unwrap();
    let mut b = SchemaBundler::new(&doc);
    let v = json!({"anyOf": [{"$ref": "#/components/schemas/A"}, {"$ref": "#/components/x/A"}]});
    let node = Schema::inline(&doc, &v);
    let mut deps = BTreeSet::new();
    let s = b.convert(&node, Direction::Input, &mut deps);
    assert_eq!(
        s,
        json!({"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/A_2"}]})
    );
    let defs = b.defs(&deps, Direction::Input);
    assert_eq!(defs["A_2"], json!({"type": "integer"}));
}
