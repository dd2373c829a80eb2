use super::*;
use crate::table;
use openapi2mcp_document::{Document, LoadOptions};

fn petstore() -> (Vec<Route>, Defs) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../specs/petstore.yaml");
    let options = LoadOptions {
        keep_examples: true,
        ..LoadOptions::default()
    };
    let (doc, _): (Document, _) = openapi2mcp_document::load(path, &options).unwrap();
    let (t, _) = table::build(&doc, 0, true);
    (t.routes, t.defs)
}

#[test]
fn petstore_pets_are_a_collection_with_integer_ids_and_a_seed() {
    let (routes, defs) = petstore();
    let found = recognize(&routes, &defs);
    assert_eq!(found.list.len(), 1, "{:?}", found.list);
    let pets = &found.list[0];
    assert_eq!(
        (
            pets.collection.as_str(),
            pets.item.as_str(),
            pets.slot.as_str(),
            pets.id.as_str()
        ),
        ("/pets", "/pets/{petId}", "petId", "id")
    );
    assert_eq!(pets.id_kind, IdKind::Integer);
    assert!(pets.parents.is_empty());
    let names: Vec<&Value> = pets.seed.iter().map(|p| &p["name"]).collect();
    assert_eq!(names, ["Rex", "Tom"]);
    assert_eq!(pets.first_number(), 3);
    assert_eq!(pets.list.wrap, Some(Wrap::Bare));
    assert_eq!(pets.list.limit, Some(("limit".into(), Some(20))));
    assert_eq!(pets.list.filters, ["tags", "status"]);
    // Roles: list, create, get, update, delete; the photo routes have none.
    let roles: Vec<(String, Option<Role>)> = routes
        .iter()
        .zip(&found.roles)
        .map(|(r, role)| (format!("{} {}", r.method, r.path), role.map(|(_, r)| r)))
        .collect();
    let role = |name: &str| roles.iter().find(|(n, _)| n == name).unwrap().1;
    assert_eq!(role("GET /pets"), Some(Role::List));
    assert_eq!(role("POST /pets"), Some(Role::Create));
    assert_eq!(role("GET /pets/{petId}"), Some(Role::Get));
    assert_eq!(role("PATCH /pets/{petId}"), Some(Role::Merge));
    assert_eq!(role("DELETE /pets/{petId}"), Some(Role::Delete));
    assert_eq!(role("GET /pets/{petId}/photo"), None);
    assert_eq!(role("PUT /pets/{petId}/photo"), None);
}

fn shape_of(props: &[(&str, bool)]) -> ObjectShape {
    ObjectShape {
        props: props
            .iter()
            .map(|(n, ro)| shape::Prop {
                name: n.to_string(),
                read_only: *ro,
                write_only: false,
                ty: Some("string".into()),
                format: None,
                enumeration: None,
                item_ty: None,
            })
            .collect(),
        required: Vec::new(),
        schemas: props.iter().map(|_| Value::Null).collect(),
    }
}

#[test]
fn id_properties_follow_the_slot_the_collection_and_read_only_ids() {
    let item = shape_of(&[("id", true), ("number", false), ("title", false)]);
    assert_eq!(
        id_property("issue_number", "issues", &item).as_deref(),
        Some("number")
    );
    assert_eq!(id_property("petId", "pets", &item).as_deref(), Some("id"));
    assert_eq!(
        id_property("comment_id", "comments", &item).as_deref(),
        Some("id")
    );
    assert_eq!(
        id_property("customer", "customers", &item).as_deref(),
        Some("id")
    );
    assert_eq!(
        id_property("title", "things", &item).as_deref(),
        Some("title")
    );
    // A slot that names nothing of the item is not guessed.
    assert_eq!(id_property("username", "users", &item), None);
    let keyed = shape_of(&[("invoiceKey", false), ("total", false)]);
    assert_eq!(id_property("key", "invoices", &keyed), None);
    let own = shape_of(&[("orderId", false), ("total", false)]);
    assert_eq!(
        id_property("oid", "orders", &own).as_deref(),
        Some("orderId")
    );
    let read_only = shape_of(&[("uid", true), ("name", false)]);
    assert_eq!(id_property("thing_id", "widgets", &read_only), None);
    let read_only = shape_of(&[("widget_uid", true), ("name", false)]);
    assert_eq!(id_property("wid", "widgets", &read_only), None);
}

#[test]
fn words_and_singulars() {
    assert_eq!(words("issue_number"), ["issue", "number"]);
    assert_eq!(words("petId"), ["pet", "id"]);
    assert_eq!(words("HTTPStatus"), ["httpstatus"]);
    assert_eq!(singular("pets"), "pet");
    assert_eq!(singular("categories"), "category");
    assert_eq!(singular("addresses"), "address");
    assert_eq!(singular("boxes"), "box");
    assert_eq!(singular("glass"), "glass");
}

#[test]
fn form_bodies_become_typed_objects() {
    let mut shape = shape_of(&[("name", false), ("balance", false), ("tags", false)]);
    shape.props[1].ty = Some("integer".into());
    shape.props[2].ty = Some("array".into());
    shape.props[2].item_ty = Some("string".into());
    let obj = body_object(
        Some("application/x-www-form-urlencoded; charset=utf-8"),
        b"name=Ada+L&balance=5&tags[]=a&tags[]=b&metadata[tier]=gold",
        &shape,
    )
    .unwrap();
    assert_eq!(
        Value::Object(obj),
        serde_json::json!({"name": "Ada L", "balance": 5, "tags": ["a", "b"], "metadata": {"tier": "gold"}})
    );
    // As the runtime sends deepObject arrays (Stripe's reading): indexed.
    let obj = body_object(
        Some("application/x-www-form-urlencoded"),
        b"tags[0]=a&tags[1]=b&tax_id_data[0][type]=eu_vat&tax_id_data[1][type]=gb&metadata[a][b]=1",
        &shape,
    )
    .unwrap();
    assert_eq!(
        Value::Object(obj),
        serde_json::json!({"tags": ["a", "b"], "tax_id_data": [{"type": "eu_vat"}, {"type": "gb"}], "metadata": {"a": {"b": "1"}}})
    );
    assert!(body_object(Some("application/json"), b"[1]", &shape).is_none());
    assert!(body_object(Some("multipart/form-data"), b"x", &shape).is_none());
    assert_eq!(body_object(None, b"", &shape), Some(Map::new()));
}

#[test]
fn prefixed_ids_continue_the_documented_numbers() {
    let prop = shape_of(&[("id", false)]).props.remove(0);
    let seed = [
        serde_json::json!({"id": "inv_1001"}),
        serde_json::json!({"id": "inv_7"}),
    ];
    assert_eq!(id_kind(&prop, &seed, "id"), IdKind::Prefixed("inv_".into()));
    let mixed = [
        serde_json::json!({"id": "inv_1"}),
        serde_json::json!({"id": "cus_2"}),
    ];
    assert_eq!(id_kind(&prop, &mixed, "id"), IdKind::Uuid);
    assert_eq!(id_kind(&prop, &[], "id"), IdKind::Uuid);
    assert_eq!(
        number_of(&Value::from("inv_1001"), &IdKind::Prefixed("inv_".into())),
        Some(1001)
    );
}
