use super::*;
use serde_json::json;

fn source() -> EmbeddedSchemas {
    let mut side = BTreeMap::new();
    side.insert(
        "Pet".to_string(),
        Arc::new(json!({"type": "object", "properties": {"owner": {"$ref": "#/$defs/User"}}})),
    );
    side.insert("User".to_string(), Arc::new(json!({"type": "object", "properties": {"pets": {"type": "array", "items": {"$ref": "#/$defs/Pet"}}}})));
    side.insert("Lonely".to_string(), Arc::new(json!({"type": "string"})));
    let mut defs = BTreeMap::new();
    defs.insert(SchemaSide::Document, side.clone());
    defs.insert(SchemaSide::Input, side);
    EmbeddedSchemas {
        components: vec!["Pet".into(), "User".into(), "Lonely".into()],
        defs,
        document: None,
    }
}

#[test]
fn closures_follow_every_reference_once() {
    let s = source();
    let top = json!({"type": "object", "properties": {"pet": {"$ref": "#/$defs/Pet"}}});
    let full = with_closure(top.as_object().unwrap(), SchemaSide::Input, &s);
    let keys: Vec<&String> = full["$defs"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["Pet", "User"]);
    let none = with_closure(
        json!({"type": "object"}).as_object().unwrap(),
        SchemaSide::Input,
        &s,
    );
    assert!(none.get("$defs").is_none());
}

#[test]
fn component_resources_are_self_contained() {
    let s = source();
    let pet = component_schema("Pet", &s).unwrap();
    assert_eq!(pet["title"], "Pet");
    assert!(pet["$defs"]["User"].is_object());
    assert!(
        pet["$defs"]["Pet"].is_object(),
        "recursion back to the component resolves"
    );
    let lonely = component_schema("Lonely", &s).unwrap();
    assert!(lonely.get("$defs").is_none());
    assert!(component_schema("Nope", &s).is_none());
    assert!(jsonschema::draft202012::new(&pet).is_ok());
}

#[test]
fn uris_round_trip() {
    assert_eq!(
        SchemaResource::parse(DOCUMENT_URI),
        Some(SchemaResource::Document)
    );
    assert_eq!(
        SchemaResource::parse(&schema_uri("Pet")),
        Some(SchemaResource::Component("Pet".into()))
    );
    assert_eq!(
        SchemaResource::parse(&tool_schema_uri("get_pet", true)),
        Some(SchemaResource::ToolOutput("get_pet".into()))
    );
    assert_eq!(SchemaResource::parse("openapi2mcp://schemas/"), None);
    assert_eq!(SchemaResource::parse("file:///etc/passwd"), None);
}

#[test]
fn capture_keeps_what_tools_reach() {
    let s = source();
    let top = json!({"properties": {"p": {"$ref": "#/$defs/Pet"}}});
    let e = EmbeddedSchemas::capture(&s, &[(SchemaSide::Input, &top)]);
    assert_eq!(e.defs[&SchemaSide::Document].len(), 3);
    assert_eq!(e.defs[&SchemaSide::Input].len(), 2);
    let back: EmbeddedSchemas = serde_json::from_str(&serde_json::to_string(&e).unwrap()).unwrap();
    assert_eq!(back.components, e.components);
}
