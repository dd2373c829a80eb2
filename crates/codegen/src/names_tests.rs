use super::*;

#[test]
fn snake_case_from_any_spelling() {
    assert_eq!(snake("petId", "arg"), "pet_id");
    assert_eq!(snake("X-Request-ID", "arg"), "x_request_id");
    assert_eq!(snake("HTTPServer", "arg"), "http_server");
    assert_eq!(snake("query_id", "arg"), "query_id");
    assert_eq!(snake("$$", "arg"), "arg");
    assert_eq!(snake("2fa", "arg"), "arg_2fa");
    assert_eq!(snake("filter[name]", "arg"), "filter_name");
}

#[test]
fn pascal_case_type_names() {
    assert_eq!(pascal("list_pets", "T"), "ListPets");
    assert_eq!(pascal("get_2fa", "T"), "Get2fa");
    assert_eq!(pascal("3d_models", "Op"), "Op3dModels");
}

#[test]
fn keywords_are_escaped() {
    assert_eq!(escape_keyword("type".into()), "r#type");
    assert_eq!(escape_keyword("self".into()), "self_");
    assert_eq!(escape_keyword("Self".into()), "Self_");
    assert_eq!(escape_keyword("pets".into()), "pets");
}

#[test]
fn collisions_get_stable_suffixes() {
    let mut scope = Scope::default();
    assert_eq!(scope.claim("id", "_"), "id");
    assert_eq!(scope.claim("id", "_"), "id_2");
    assert_eq!(scope.claim("id", "_"), "id_3");
    assert_eq!(scope.claim("self", "_"), "self_");
    // `self_` is now taken, so a literal `self_` must move on.
    assert_eq!(scope.claim("self_", "_"), "self__2");
    let mut types = Scope::with_reserved(&["Call"]);
    assert_eq!(types.claim("Call", ""), "Call2");
}
