use serde_json::json;

use super::*;

/// The arguments struct `Args` of `schema` and its inline types, with the
/// table (for the shared types).
fn build(schema: Value) -> (Vec<TypeDecl>, TypeTable) {
    let mut table = TypeTable::new(&["Value"]);
    let name = table.claim("Args");
    let decls = table.args(&name, vec!["Args.".into()], &schema, &|a| format!("`{a}`."));
    (decls, table)
}

fn field<'a>(decl: &'a TypeDecl, arg: &str) -> &'a FieldView {
    decl.fields.iter().find(|f| f.arg == arg).unwrap()
}

#[test]
fn scalars_integers_arrays_and_optional_members() {
    let (decls, _) = build(json!({
        "type": "object",
        "properties": {
            "petId": {"type": "integer", "format": "int64"},
            "small": {"type": "integer", "format": "int32"},
            "big": {"type": "integer", "format": "uint64", "minimum": 0},
            "signed": {"type": "integer", "format": "uint64"},
            "price": {"type": "number"},
            "name": {"type": "string"},
            "ok": {"type": "boolean"},
            "ids": {"type": "array", "items": {"type": "integer"}},
            "any": {"type": "array"},
            "meta": {"type": "object"}
        },
        "required": ["petId", "name"],
        "additionalProperties": false
    }));
    let args = &decls[0];
    assert_eq!(args.extra, None, "closed: no extra map");
    assert_eq!(args.order_field, None, "top level: no member order");
    let pet = field(args, "petId");
    assert_eq!(
        (pet.ident.as_str(), pet.ty.as_str(), pet.optional),
        ("pet_id", "i64", false)
    );
    assert_eq!(
        pet.serde,
        r#"rename = "petId", deserialize_with = "openapi2mcp_runtime::typed::integers""#
    );
    assert_eq!(field(args, "small").ty, "i32");
    assert_eq!(field(args, "big").ty, "u64");
    assert_eq!(
        field(args, "signed").ty,
        "i64",
        "uint64 without minimum >= 0"
    );
    assert_eq!(field(args, "price").ty, "Number");
    let ids = field(args, "ids");
    assert_eq!((ids.ty.as_str(), ids.optional), ("Vec<i64>", true));
    assert_eq!(
        ids.serde,
        r#"default, deserialize_with = "openapi2mcp_runtime::typed::present_integers", skip_serializing_if = "Option::is_none""#
    );
    assert_eq!(field(args, "name").serde, "");
    assert_eq!(field(args, "ok").ty, "bool");
    assert_eq!(field(args, "any").ty, "Vec<Value>");
    assert_eq!(field(args, "meta").ty, "Map<String, Value>");
}

#[test]
fn nulls_stay_apart_from_absence() {
    let (decls, _) = build(json!({
        "type": "object",
        "properties": {
            "note": {"type": ["string", "null"]},
            "need": {"type": ["integer", "null"]},
            "count": {"type": ["integer", "null"]},
            "anything": {"oneOf": [{"type": "string"}, {"type": "integer"}]}
        },
        "required": ["need"]
    }));
    let args = &decls[0];
    let note = field(args, "note");
    assert_eq!(
        (note.ty.as_str(), note.optional, note.keep_null),
        ("Option<String>", true, true)
    );
    assert!(note.serde.contains("typed::present\""), "{}", note.serde);
    let need = field(args, "need");
    assert_eq!((need.ty.as_str(), need.optional), ("Option<i64>", false));
    assert!(need.serde.contains("typed::integers\""), "{}", need.serde);
    let count = field(args, "count");
    assert!(
        count.serde.contains("typed::present_integers\""),
        "{}",
        count.serde
    );
    let anything = field(args, "anything");
    assert_eq!((anything.ty.as_str(), anything.keep_null), ("Value", true));
    assert!(
        anything.serde.contains("typed::present\""),
        "{}",
        anything.serde
    );
    assert_eq!(
        args.extra.as_deref(),
        Some("extra"),
        "open: unknown members kept"
    );
}

#[test]
fn nested_objects_are_ordered_structs_that_keep_unknown_members() {
    let (decls, _) = build(json!({
        "type": "object",
        "properties": {
            "filter": {
                "type": "object",
                "description": "What to match.",
                "properties": {"color": {"type": "string"}, "extra": {"type": "string"}}
            },
            "closed": {
                "type": "object",
                "additionalProperties": false,
                "properties": {"q": {"type": "string"}}
            },
            "rows": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer"}}}}
        },
        "additionalProperties": false
    }));
    let names: Vec<&str> = decls.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["Args", "ArgsFilter", "ArgsClosed", "ArgsRowsItem"]);
    let filter = &decls[1];
    assert_eq!(filter.doc, ["What to match."]);
    // A member called `extra` keeps its name; the map moves aside.
    assert_eq!(filter.extra.as_deref(), Some("extra_2"));
    assert_eq!(filter.order_field.as_deref(), Some("member_order"));
    assert_eq!(decls[2].extra, None);
    assert_eq!(decls[2].doc, ["The `closed` member of [`Args`]."]);
    assert_eq!(field(&decls[0], "rows").ty, "Vec<ArgsRowsItem>");
    assert_eq!(field(&decls[3], "n").ty, "i64");
}

#[test]
fn string_enums_become_enums_and_others_stay_values() {
    let (decls, _) = build(json!({
        "type": "object",
        "properties": {
            "status": {"type": "string", "enum": ["available", "on-hold", "+1", "-1", "", "available"]},
            "maybe": {"type": ["string", "null"], "enum": ["a", null]},
            "mixed": {"enum": ["a", 1]},
            "level": {"type": "integer", "enum": [1, 2]}
        }
    }));
    let status = &decls[1];
    assert!(!status.is_struct);
    let variants: Vec<(&str, &str)> = status
        .variants
        .iter()
        .map(|v| (v.ident.as_str(), v.value.as_str()))
        .collect();
    assert_eq!(
        variants,
        [
            ("Available", "available"),
            ("OnHold", "on-hold"),
            ("V1", "+1"),
            ("V12", "-1"),
            ("V", "")
        ]
    );
    assert_eq!(field(&decls[0], "status").ty, "ArgsStatus");
    assert_eq!(field(&decls[0], "maybe").ty, "Option<ArgsMaybe>");
    assert_eq!(field(&decls[0], "mixed").ty, "Value");
    assert_eq!(field(&decls[0], "level").ty, "i64");
}

#[test]
fn defs_are_shared_once_and_recursion_is_boxed() {
    let defs = json!({
        "Status": {"type": "string", "enum": ["a", "b"], "description": "State."},
        "Node": {"type": "object", "properties": {
            "parent": {"$ref": "#/$defs/Node"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            "tag": {"type": "object", "properties": {"k": {"type": "string"}}}
        }},
        "Name": {"type": "string"}
    });
    let schema = |extra: Value| {
        let mut s = json!({"type": "object", "properties": {
            "status": {"$ref": "#/$defs/Status", "description": "Here."},
            "node": {"$ref": "#/$defs/Node"},
            "name": {"$ref": "#/$defs/Name"},
            "shaped": {"$ref": "#/$defs/Status", "type": "string"}
        }, "$defs": defs.clone()});
        s["properties"]["more"] = extra;
        s
    };
    let mut table = TypeTable::new(&[]);
    let first = table.args("A", vec![], &schema(json!({"type": "string"})), &|_| {
        String::new()
    });
    let second = table.args(
        "B",
        vec![],
        &schema(json!({"$ref": "#/$defs/Status"})),
        &|_| String::new(),
    );
    assert_eq!(first.len(), 1, "def types are not the tool's");
    assert_eq!(field(&first[0], "status").ty, "Status");
    assert_eq!(field(&first[0], "status").doc, ["", "", "Here."]);
    assert_eq!(field(&second[0], "more").doc, ["", "", "State."]);
    assert_eq!(field(&first[0], "node").ty, "Node");
    assert_eq!(field(&first[0], "name").ty, "String");
    assert_eq!(
        field(&first[0], "shaped").ty,
        "Value",
        "a $ref reshaped by siblings"
    );
    assert_eq!(field(&second[0], "more").ty, "Status");
    let shared: Vec<&str> = table.shared.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(
        shared,
        ["Status", "NodeTag", "Node"],
        "each def declared once"
    );
    let node = table.shared.iter().find(|d| d.name == "Node").unwrap();
    assert_eq!(field(node, "parent").ty, "Box<Node>");
    assert_eq!(field(node, "children").ty, "Vec<Node>");
    assert_eq!(field(node, "tag").ty, "NodeTag");
}

#[test]
fn a_def_of_another_shape_under_a_known_key_gets_its_own_name() {
    let mut table = TypeTable::new(&[]);
    let one = json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/Item"}},
        "$defs": {"Item": {"type": "object", "properties": {"a": {"type": "string"}}}}});
    let two = json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/Item"}},
        "$defs": {"Item": {"type": "object", "properties": {"b": {"type": "string"}}}}});
    let a = table.args("A", vec![], &one, &|_| String::new());
    let b = table.args("B", vec![], &two, &|_| String::new());
    assert_eq!(field(&a[0], "x").ty, "Item");
    assert_eq!(field(&b[0], "x").ty, "Item2");
}

#[test]
fn what_cannot_be_typed_exactly_stays_a_value() {
    let (decls, _) = build(json!({
        "type": "object",
        "properties": {
            "both": {"type": ["string", "integer"]},
            "none": {},
            "all": {"allOf": [{"type": "string"}]},
            "c": {"const": "x"},
            "tuple": {"type": "array", "prefixItems": [{"type": "string"}]},
            "remote": {"$ref": "https://example.com/s.json"},
            "missing": {"$ref": "#/$defs/Nope"}
        }
    }));
    for f in &decls[0].fields {
        assert_eq!(f.ty, "Value", "{}", f.arg);
    }
}

#[test]
fn deep_nesting_stops_at_values() {
    let mut schema = json!({"type": "string"});
    for _ in 0..40 {
        schema = json!({"type": "object", "properties": {"n": schema}});
    }
    let (decls, _) = build(schema);
    assert!(decls.len() < 30, "{}", decls.len());
    assert!(
        decls
            .iter()
            .any(|d| d.fields.iter().any(|f| f.ty == "Value"))
    );
}
