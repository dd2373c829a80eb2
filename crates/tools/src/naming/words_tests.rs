use super::*;

#[test]
fn the_word_sets_hold_their_lists_and_nothing_else() {
    assert!(VERBS.iter().all(|w| is_verb(w)));
    assert!(INVARIANT.iter().all(|w| is_invariant(w)));
    for w in ["get", "list", "data", "pet", "users", "", "GET", "lists"] {
        assert_eq!(is_verb(w), VERBS.contains(&w), "{w}");
        assert_eq!(is_invariant(w), INVARIANT.contains(&w), "{w}");
    }
}

#[test]
fn snake_case_splits_camel_and_acronyms() {
    assert_eq!(snake_case("getPetById"), "get_pet_by_id");
    assert_eq!(snake_case("getHTTPResponse"), "get_http_response");
    assert_eq!(snake_case("list-for-org"), "list_for_org");
    assert_eq!(snake_case("  Weird//Name!!2fa "), "weird_name_2fa");
    assert_eq!(snake_case("OAuth2Token"), "o_auth2_token");
}

#[test]
fn clean_words_joins_compound_verbs_and_drops_articles() {
    assert_eq!(clean_words("re-run-workflow"), ["rerun", "workflow"]);
    assert_eq!(clean_words("get-a-classroom"), ["get", "classroom"]);
    assert_eq!(clean_words("the"), ["the"]);
    assert_eq!(clean_words("re-2fa"), ["re", "2fa"]);
}

#[test]
fn singularisation_handles_the_usual_traps() {
    for (p, s) in [
        ("pets", "pet"),
        ("caches", "cache"),
        ("branches", "branch"),
        ("policies", "policy"),
        ("addresses", "address"),
        ("statuses", "status"),
        ("status", "status"),
        ("data", "data"),
        ("boxes", "box"),
        ("cookies", "cookie"),
        ("analysis", "analysis"),
        ("repos", "repo"),
        ("gists", "gist"),
        ("releases", "release"),
        ("children", "child"),
        ("warehouses", "warehouse"),
        ("causes", "cause"),
        ("campuses", "campus"),
    ] {
        assert_eq!(singular(p), s, "{p}");
    }
}

#[test]
fn pluralisation_inverts_singular() {
    for (s, p) in [
        ("pet", "pets"),
        ("policy", "policies"),
        ("branch", "branches"),
        ("box", "boxes"),
        ("key", "keys"),
        ("status", "status"),
        ("pets", "pets"),
        ("data", "data"),
        ("child", "children"),
        ("children", "children"),
    ] {
        assert_eq!(plural(s), p, "{s}");
    }
}
