use super::*;

fn act(summary: &str) -> Option<(String, String)> {
    action(summary, &[]).map(|a| (a.verb.join("_"), a.object.join("_")))
}

fn pair(v: &str, o: &str) -> Option<(String, String)> {
    Some((v.to_string(), o.to_string()))
}

#[test]
fn imperative_and_third_person_verbs_lead() {
    assert_eq!(
        act("Rename a file or directory without re-uploading content"),
        pair("rename", "file_or_directory")
    );
    assert_eq!(act("Interrupt a kernel"), pair("interrupt", "kernel"));
    assert_eq!(act("Returns a list of users."), pair("return", "users"));
    assert_eq!(act("Gets the kernel"), pair("get", "kernel"));
    assert_eq!(act("Search subjects"), pair("search", "subjects"));
    assert_eq!(act("Pause organization"), pair("pause", "organization"));
    assert_eq!(
        act("Enables or disables quick connect."),
        pair("enable_or_disable", "quick_connect")
    );
    assert_eq!(
        act("Start a kernel and return the uuid"),
        pair("start", "kernel")
    );
    assert_eq!(
        act("Attempts to retrieve authentication information."),
        pair("retrieve", "authentication_information")
    );
    assert_eq!(
        act("Get the current spec for the notebook server's APIs."),
        pair("get", "current_spec")
    );
    assert_eq!(
        act("Update/create a rule"),
        pair("update_or_create", "rule")
    );
    assert_eq!(act("Disconnect"), pair("disconnect", ""));
    assert_eq!(
        act("Use this method to forward messages of any kind."),
        pair("forward", "messages")
    );
    assert_eq!(
        act("Allows seller to update prices of a single SKU"),
        pair("update", "prices")
    );
    assert_eq!(act("Allows a filter to be specified"), None);
    assert_eq!(
        act("Bulk enable/disable products"),
        pair("bulk_enable_or_disable", "products")
    );
    assert_eq!(
        act("Returns a list of all reports one is subscribed to"),
        pair("return", "reports")
    );
    assert_eq!(act("Compare two commits"), pair("compare", "commits"));
    assert_eq!(
        act("Geolocate a given IP address"),
        pair("geolocate", "ip_address")
    );
    assert_eq!(act("Unmap a public route"), pair("unmap", "public_route"));
    assert_eq!(act("All New Horizons artwork"), None);
    assert_eq!(act("If a resource is found, update it"), None);
}

#[test]
fn noun_phrases_have_no_verb() {
    for s in [
        "Kernel specs",
        "Teams by Season",
        "Details of cost per hour",
        "Slides: Get Details",
        "Class XII Provisional Certificate",
        "Invoke function delta",
        "[USES 20 UNITS] Infer ethnicity",
        "",
    ] {
        assert_eq!(act(s), None, "{s}");
    }
    // A word the path uses as a noun is that noun.
    assert_eq!(action("Order details", &["orders".to_string()]), None);
}

#[test]
fn lists_say_many() {
    let a = action("Get a list of checkpoints for a file", &[]).unwrap();
    assert!(a.many);
    assert_eq!(a.object, ["checkpoints"]);
    assert!(a.words.contains(&"file".to_string()));
}
