use super::*;

fn req(c: &[&str]) -> NameRequest {
    NameRequest {
        candidates: c.iter().map(|s| s.to_string()).collect(),
        explicit: false,
    }
}

#[test]
fn operations_out_of_candidates_are_told_apart_by_their_paths() {
    let names = assign(&[
        req(&["get_site_page", "get /sites/{s}/pages/{p}"]),
        req(&["get_site_page", "get /groups/{g}/sites/{s}/pages/{p}"]),
        req(&["get_site_page", "get /groups/{g}/sites/{s}/pages/{p}/x"]),
        req(&["get_thing"]),
        req(&["get_thing"]),
    ]);
    assert_eq!(
        names,
        [
            "get_site_page",
            "get_group_site_page",
            "get_group_x_site_page",
            "get_thing",
            "get_thing_2"
        ]
    );
}

#[test]
fn sanitize_bounds_length_and_charset_stably() {
    let long = "a_very_long_operation_identifier_that_keeps_going_and_going_past_the_limit";
    let s = sanitize(long);
    assert!(s.len() <= MAX_LEN, "{s}");
    assert_eq!(s, sanitize(long));
    assert!(s.ends_with("past_the_limit"), "{s}");
    assert_eq!(sanitize("Repos/Get Thing"), "repos_get_thing");
    assert_eq!(sanitize("2fa"), "op_2fa");
    assert_eq!(sanitize("日本"), "tool");
}

#[test]
fn registry_deduplicates_in_order() {
    let mut r = NameRegistry::default();
    assert_eq!(r.claim("get_pet"), "get_pet");
    assert_eq!(r.claim("get_pet"), "get_pet_2");
    assert_eq!(r.claim("get_pet"), "get_pet_3");
    let long = "x".repeat(64);
    assert_eq!(r.claim(&long), long);
    let second = r.claim(&long);
    assert_eq!(second.len(), 64);
    assert!(second.ends_with("_2"));
}

#[test]
fn contested_names_move_every_contender_to_its_next_candidate() {
    let names = assign(&[
        req(&["create_comment", "create_issue_comment"]),
        req(&["rerun_workflow", "rerun_action_workflow"]),
        req(&["create_comment", "create_gist_comment"]),
        req(&["get_pet"]),
        req(&["get_pet"]),
    ]);
    assert_eq!(
        names,
        [
            "create_issue_comment",
            "rerun_workflow",
            "create_gist_comment",
            "get_pet",
            "get_pet_2"
        ]
    );
}

#[test]
fn explicit_names_win_and_others_move_on() {
    let mut explicit = req(&["list_pets"]);
    explicit.explicit = true;
    let names = assign(&[req(&["list_pets", "list_store_pets"]), explicit]);
    assert_eq!(names, ["list_store_pets", "list_pets"]);
}
