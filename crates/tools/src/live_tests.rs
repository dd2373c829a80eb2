use super::*;
use crate::{BuildOptions, OutputSchemaMode, build_all};
use openapi2mcp_model::schemas::component_schema;
use serde_json::json;

#[test]
fn components_are_served_in_full_with_their_references() {
    let doc = Document::from_value(
        "t",
        json!({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {
            "Pet": {"type": "object", "required": ["id"], "properties": {
                "id": {"type": "integer", "readOnly": true},
                "secret": {"type": "string", "writeOnly": true},
                "owner": {"$ref": "#/components/schemas/User"}}},
            "User": {"type": "object", "nullable": true, "properties": {"name": {"type": "string"}}}
        }}}),
    )
    .unwrap();
    let built = build_all(&doc, &BuildOptions::default());
    let live = LiveSchemas::new(doc, built.schemas);
    assert_eq!(live.components(), ["Pet", "User"]);
    let pet = component_schema("Pet", &live).unwrap();
    assert!(
        pet["properties"]["id"].is_object(),
        "readOnly kept as documented"
    );
    assert!(
        pet["properties"]["secret"].is_object(),
        "writeOnly kept as documented"
    );
    assert_eq!(pet["$defs"]["User"]["type"], json!(["object", "null"]));
    let input = live.def("Pet", SchemaSide::Input).unwrap();
    assert!(
        input["properties"].get("id").is_none(),
        "readOnly is not an input"
    );
    assert!(live.def("Nope", SchemaSide::Input).is_none());
    assert!(live.document_json().unwrap().contains("\"Pet\""));
}

#[test]
fn output_defs_follow_the_output_schema_mode_of_the_build() {
    let doc = || {
        Document::from_value(
            "t",
            json!({"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {},
                "definitions": {"User": {"type": "object", "properties": {"name": {"type": "string"}}}}}),
        )
        .unwrap()
    };
    let served = |mode: OutputSchemaMode| {
        let options = BuildOptions {
            output_schemas: mode,
            ..BuildOptions::default()
        };
        let built = build_all(&doc(), &options);
        let live = LiveSchemas::new(doc(), built.schemas);
        live.def("User", SchemaSide::Output).unwrap()
    };
    let tolerant = served(OutputSchemaMode::Full);
    assert_eq!(
        tolerant["properties"]["name"]["type"],
        json!(["string", "null"])
    );
    let strict = served(OutputSchemaMode::Strict);
    assert_eq!(strict["properties"]["name"]["type"], "string");
}
