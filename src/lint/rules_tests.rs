use super::*;

#[test]
fn suffixes_and_hashes_are_recognised() {
    assert!(suffixed("get_pet_2"));
    assert!(suffixed("get_thing_72429bb9"));
    assert!(!suffixed("get_pet"));
    assert!(!suffixed("get_v1"));
    assert!(!suffixed("get_oauth2"));
    assert!(!suffixed("list_sha256"));
}

#[test]
fn prose_value_lists_are_recognised() {
    assert!(lists_values("The state. Can be one of: `open`, `closed`."));
    assert!(lists_values("Either `asc` or `desc`."));
    assert!(!lists_values("The name of the repository."));
}
