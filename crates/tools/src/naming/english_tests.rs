use super::*;

#[test]
fn verb_forms_reach_their_base() {
    assert_eq!(verb_form("Returns").unwrap().0, "return");
    assert_eq!(verb_form("searches").unwrap().0, "search");
    assert_eq!(verb_form("retrieves").unwrap().0, "retrieve");
    assert_eq!(verb_form("lists").unwrap().0, "list");
    assert_eq!(verb_form("unstar").unwrap().0, "unstar");
    assert!(verb_form("kernel").is_none());
    assert!(verb_form("users").is_none());
    assert_eq!(verb_form("unmap").unwrap().0, "unmap");
    assert_eq!(verb_form("Reroutes").unwrap().0, "reroute");
    assert!(verb_form("repos").is_none());
    assert!(phrasal_compound("login") && phrasal_compound("signup"));
    assert!(
        !phrasal_compound("coupon") && !phrasal_compound("domain") && !phrasal_compound("admin")
    );
}

#[test]
fn usage_tells_verbs_from_nouns() {
    let u = |w: &str| verb_form(w).unwrap().1;
    assert!(mostly_verb(u("restart")) && mostly_verb(u("interrupt")));
    assert!(!mostly_verb(u("order")) && !mostly_verb(u("file")));
    assert!(rather_verb(u("return")) && !rather_verb(u("team")));
}
