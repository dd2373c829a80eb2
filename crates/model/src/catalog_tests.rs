use super::*;

#[test]
fn a_catalog_survives_a_json_round_trip() {
    let catalog = Catalog {
        title: "T".into(),
        version: "1".into(),
        description: None,
        security_schemes: BTreeMap::new(),
        tag_parents: BTreeMap::from([("search".into(), "items".into())]),
        tools: vec![ToolDef {
            name: "get_pet".into(),
            title: "Get pet".into(),
            description: "d".into(),
            input_schema: json!({"type": "object", "properties": {"b": {}, "a": {}}}),
            output_schema: None,
            input_full: None,
            output_full: None,
            annotations: ToolAnnotations {
                title: "Get pet".into(),
                read_only_hint: true,
                destructive_hint: false,
                idempotent_hint: true,
                open_world_hint: true,
            },
            origin: Origin {
                operation_id: None,
                method: "GET".into(),
                path: "/pets/{id}".into(),
                tags: vec![],
                deprecated: false,
            },
            http: HttpBinding {
                method: "GET".into(),
                path: "/pets/{id}".into(),
                params: vec![],
                body: None,
                servers: vec![],
                security: vec![],
                output: None,
                response_media_types: Vec::new(),
                response_headers: Vec::new(),
                lro: None,
                workflow: None,
            },
        }],
    };
    let text = serde_json::to_string(&catalog).unwrap();
    let back: Catalog = serde_json::from_str(&text).unwrap();
    assert_eq!(back, catalog);
    assert_eq!(serde_json::to_string(&back).unwrap(), text);
}
