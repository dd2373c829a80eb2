use super::*;

#[test]
fn toolsets_follow_first_tags() {
    let sets = Toolsets::group([Some("pets"), None, Some("store"), Some("pets"), Some(" ")]);
    assert_eq!(sets.names, ["pets", UNTAGGED, "store"]);
    assert_eq!(sets.members, [vec![0, 3], vec![1, 4], vec![2]]);
    assert_eq!(sets.of_tool, [0, 1, 2, 0, 1]);
    assert_eq!(sets.find("PETS"), Some(0));
    let err = sets
        .resolve_names(&["pets".into(), "nope".into()])
        .unwrap_err();
    assert!(
        err.contains("no toolset `nope`") && err.contains("pets, untagged, store"),
        "{err}"
    );
}
