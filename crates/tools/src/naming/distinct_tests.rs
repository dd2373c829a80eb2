use super::*;

fn d(base: &str, phrases: &[&str]) -> Vec<Option<String>> {
    let p: Vec<Option<&str>> = phrases.iter().map(|p| Some(*p)).collect();
    distinguish(base, &p)
}

#[test]
fn the_segment_only_one_path_has_goes_after_the_verb() {
    assert_eq!(
        d(
            "get_site_onenote_page",
            &[
                "get /groups/{g}/sites/{s}/onenote/pages/{p}",
                "get /sites/{s}/onenote/pages/{p}"
            ]
        ),
        [Some("get_group_site_onenote_page".into()), None]
    );
}

#[test]
fn a_segment_takes_the_place_of_its_counterpart() {
    assert_eq!(
        d("list_items", &["get /list/items", "get /list/items2"]),
        [None, Some("list_items2".into())]
    );
}

#[test]
fn singletons_are_the_default_and_repeats_are_nested() {
    assert_eq!(
        d(
            "update_user_calendar_event",
            &[
                "patch /users/{u}/calendar/events/{e}",
                "patch /users/{u}/calendars/{c}/events/{e}"
            ]
        ),
        [Some("update_user_default_calendar_event".into()), None]
    );
    assert_eq!(
        d(
            "get_notebook_section_group",
            &[
                "get /me/onenote/notebooks/{n}/sectionGroups/{a}",
                "get /me/onenote/notebooks/{n}/sectionGroups/{a}/sectionGroups/{b}"
            ]
        ),
        [None, Some("get_notebook_nested_section_group".into())]
    );
}

#[test]
fn modifiers_go_before_their_word_and_call_parameters_last() {
    assert_eq!(
        d(
            "list_user_member_of_groups",
            &[
                "get /users/{u}/memberOf/microsoft.graph.group",
                "get /users/{u}/transitiveMemberOf/microsoft.graph.group"
            ]
        ),
        [None, Some("list_user_transitive_member_of_groups".into())]
    );
    assert_eq!(
        d(
            "get_email_activity_user_detail",
            &[
                "get /reports/microsoft.graph.getEmailActivityUserDetail(date={date})",
                "get /reports/microsoft.graph.getEmailActivityUserDetail(period='{period}')"
            ]
        ),
        [
            Some("get_email_activity_user_detail_by_date".into()),
            Some("get_email_activity_user_detail_by_period".into())
        ]
    );
}

#[test]
fn a_collection_beside_its_items_is_listed() {
    assert_eq!(
        d(
            "get_balance_history",
            &["get /v1/balance/history", "get /v1/balance/history/{id}"]
        ),
        [Some("list_balance_history".into()), None]
    );
    assert_eq!(
        d("get_thing", &["get /things", "get /things/{id}"]),
        [Some("list_things".into()), None]
    );
}

#[test]
fn kept_words_survive_shortening_and_repeats_are_refused() {
    let base = "list_calendar_view_instance_single_value_extended_properties";
    let named = d(
        base,
        &[
            "get /groups/{g}/calendarView/{e}/instances/{i}/singleValueExtendedProperties",
            "get /users/{u}/calendarView/{e}/instances/{i}/singleValueExtendedProperties",
        ],
    );
    for (n, w) in named.iter().zip(["group", "user"]) {
        let n = n.as_deref().unwrap();
        assert!(n.len() <= MAX_LEN, "{n}");
        assert!(n.split('_').any(|x| x == w), "{n}");
        assert!(n.ends_with("single_value_extended_properties"), "{n}");
    }
    // `group` is said already: a second one would repeat it.
    assert_eq!(
        d(
            "count_site_term_store_group_sets",
            &[
                "get /groups/{g}/sites/{s}/termStore/groups/{t}/sets/$count",
                "get /sites/{s}/termStore/groups/{t}/sets/$count"
            ]
        ),
        [None, None]
    );
}
