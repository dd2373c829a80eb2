//! Tool names on the largest real documents (GitHub, Stripe, Microsoft
//! Graph): no hash suffixes, no repeated words, `_2`-style suffixes only
//! where the paths themselves do not tell operations apart, the names a
//! hand-written server would use, and a snapshot of GitHub's full list so
//! every change to a name is reviewed.

use std::collections::HashSet;

use openapi2mcp::tools::naming::singular;
use openapi2mcp::tools::{BuildOptions, Catalog};

use crate::support::{build_with, external, large};

/// Builds with no schema budget: names do not depend on it, and it is the
/// cheapest build.
fn names_of(path: &std::path::Path) -> Catalog {
    let options = BuildOptions {
        schema_budget: 0,
        output_schema_budget: 0,
        ..BuildOptions::default()
    };
    build_with(path, &options)
        .unwrap_or_else(|d| panic!("{} failed to load: {d}", path.display()))
        .0
}

/// Names on Microsoft Graph that still needed a `_2`-style suffix (1,745
/// before paths told operations apart; what is left are mostly aliases the
/// no-repeated-word rule cannot name apart, such as
/// `/groups/{g}/sites/{s}/termStore/groups/…` beside
/// `/sites/{s}/termStore/groups/…`). A ratchet: lower it as naming improves.
const GRAPH_SUFFIXED: usize = 865;

/// Names ending in the 8-hex-digit hash long names used to get.
fn hashed(catalog: &Catalog) -> Vec<&str> {
    catalog
        .tools
        .iter()
        .map(|t| t.name.as_str())
        .filter(|n| {
            n.rsplit_once('_').is_some_and(|(_, tail)| {
                tail.len() == 8 && tail.chars().all(|c| c.is_ascii_hexdigit())
            })
        })
        .collect()
}

/// Names ending in a `_2`-style de-duplication suffix.
fn suffixed(catalog: &Catalog) -> Vec<&str> {
    catalog
        .tools
        .iter()
        .map(|t| t.name.as_str())
        .filter(|n| {
            n.rsplit_once('_').is_some_and(|(_, tail)| {
                tail.len() <= 3
                    && tail.chars().all(|c| c.is_ascii_digit())
                    && tail.parse::<u32>().is_ok_and(|n| n >= 2)
            })
        })
        .collect()
}

/// Names in which a content word (not a preposition or article) appears
/// twice, singular and plural counting as the same word.
fn with_repeated_word(catalog: &Catalog) -> Vec<&str> {
    const FUNCTION_WORDS: &[&str] = &[
        "for", "in", "by", "of", "from", "with", "on", "to", "at", "as", "and", "or", "if", "is",
        "a", "an", "the",
    ];
    catalog
        .tools
        .iter()
        .map(|t| t.name.as_str())
        .filter(|n| {
            let mut seen = HashSet::new();
            n.split('_')
                .filter(|w| !FUNCTION_WORDS.contains(w))
                .any(|w| !seen.insert(singular(w)))
        })
        .collect()
}

fn assert_valid_names(catalog: &Catalog, what: &str) {
    let mut seen = HashSet::new();
    for t in &catalog.tools {
        assert!(
            t.name.len() <= 64
                && !t.name.is_empty()
                && t.name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
            "{what}: invalid name {}",
            t.name
        );
        assert!(seen.insert(&t.name), "{what}: duplicate name {}", t.name);
    }
}

#[test]
fn github_names_read_like_hand_written_ones() {
    let Some(path) = external("@octokit/openapi/generated/api.github.com.json") else {
        return;
    };
    let catalog = names_of(&path);
    assert_valid_names(&catalog, "github");
    assert_eq!(hashed(&catalog), Vec::<&str>::new());
    assert_eq!(with_repeated_word(&catalog), Vec::<&str>::new());
    assert_eq!(suffixed(&catalog), Vec::<&str>::new());
    let by_id = |id: &str| {
        catalog
            .tools
            .iter()
            .find(|t| t.origin.operation_id.as_deref() == Some(id))
            .unwrap_or_else(|| panic!("no operation {id}"))
            .name
            .as_str()
    };
    for (id, name) in [
        ("classroom/list-classrooms", "list_classrooms"),
        ("classroom/get-a-classroom", "get_classroom"),
        ("actions/re-run-workflow", "rerun_workflow"),
        ("pulls/create", "create_pull_request"),
        ("pulls/merge", "merge_pull_request"),
        ("pulls/list", "list_pull_requests"),
        ("repos/get", "get_repo"),
        ("repos/list-for-org", "list_repos_for_org"),
        (
            "agent-tasks/list-tasks-for-repo",
            "list_agent_tasks_for_repo",
        ),
        ("codes-of-conduct/get-conduct-code", "get_conduct_code"),
        (
            "activity/star-repo-for-authenticated-user",
            "star_repo_for_authenticated_user",
        ),
        ("issues/create-comment", "create_issue_comment"),
        ("gists/create-comment", "create_gist_comment"),
        ("users/get-authenticated", "get_authenticated_user"),
        ("search/code", "search_code"),
    ] {
        assert_eq!(by_id(id), name, "{id}");
    }
    // Every name, with the operation it names, reviewed on each change.
    let listing: Vec<String> = catalog
        .tools
        .iter()
        .map(|t| format!("{} {} {}", t.name, t.http.method, t.http.path))
        .collect();
    insta::assert_snapshot!("github_names", listing.join("\n"));
}

#[test]
fn stripe_names_need_no_hash() {
    let Some(path) = large("stripe.json") else {
        return;
    };
    let catalog = names_of(&path);
    assert_valid_names(&catalog, "stripe");
    assert!(catalog.tools.len() > 400, "{}", catalog.tools.len());
    assert_eq!(hashed(&catalog), Vec::<&str>::new());
    assert_eq!(with_repeated_word(&catalog), Vec::<&str>::new());
    assert_eq!(suffixed(&catalog), Vec::<&str>::new());
    let by_route = |method: &str, path: &str| {
        catalog
            .tools
            .iter()
            .find(|t| t.http.method == method && t.http.path == path)
            .unwrap_or_else(|| panic!("no {method} {path}"))
            .name
            .as_str()
    };
    // Stripe's ids only spell method and path; the path reads better.
    assert_eq!(by_route("GET", "/v1/charges"), "list_charges");
    assert_eq!(
        by_route("POST", "/v1/invoices/{invoice}/pay"),
        "pay_invoice"
    );
    assert_eq!(
        by_route("POST", "/v1/customers/{customer}"),
        "update_customer"
    );
    for (method, path, name) in [
        // A segment a later one repeats goes: no `account_bank_account`.
        (
            "POST",
            "/v1/accounts/{account}/bank_accounts",
            "create_bank_account",
        ),
        (
            "GET",
            "/v1/sources/{source}/source_transactions",
            "list_source_transactions",
        ),
        ("GET", "/v1/test_helpers/test_clocks", "list_test_clocks"),
        // A verb-led action is the verb.
        (
            "POST",
            "/v1/invoices/{invoice}/mark_uncollectible",
            "mark_invoice_uncollectible",
        ),
        (
            "POST",
            "/v1/tax/transactions/create_from_calculation",
            "create_tax_transaction_from_calculation",
        ),
        // `list` does not list a list.
        ("GET", "/v1/radar/value_lists", "get_radar_value_lists"),
        // A last segment English uses as a verb is the action.
        (
            "POST",
            "/v1/linked_accounts/{account}/disconnect",
            "disconnect_linked_account",
        ),
        // A collection beside its items, told apart without `_2`.
        ("GET", "/v1/balance/history", "list_balance_history"),
        ("GET", "/v1/balance/history/{id}", "get_balance_history"),
    ] {
        assert_eq!(by_route(method, path), name, "{method} {path}");
    }
}

#[test]
fn microsoft_graph_names_need_no_hash() {
    let Some(path) = large("graph.json") else {
        return;
    };
    let catalog = names_of(&path);
    assert_valid_names(&catalog, "graph");
    assert!(catalog.tools.len() > 11_000, "{}", catalog.tools.len());
    assert_eq!(hashed(&catalog), Vec::<&str>::new());
    assert_eq!(with_repeated_word(&catalog), Vec::<&str>::new());
    let suffixed = suffixed(&catalog);
    assert!(
        suffixed.len() <= GRAPH_SUFFIXED,
        "{} names need a `_2`-style suffix, e.g. {:?}",
        suffixed.len(),
        &suffixed[..suffixed.len().min(20)]
    );
    let names: HashSet<&str> = catalog.tools.iter().map(|t| t.name.as_str()).collect();
    for name in [
        "list_users",
        "get_user",
        "count_drives",
        "list_me_calendar_view_instances",
        // Actions English uses as verbs lead (`create_instantiate` before).
        "instantiate_application_template",
        "shut_down_user_managed_device",
    ] {
        assert!(names.contains(name), "no {name}");
    }
    let by_route = |method: &str, path: &str| {
        catalog
            .tools
            .iter()
            .find(|t| t.http.method == method && t.http.path == path)
            .unwrap_or_else(|| panic!("no {method} {path}"))
            .name
            .as_str()
    };
    // Paths that once ended in `_2`, told apart by what only they say.
    for (path, name) in [
        (
            "/me/calendar/events/{event-id}",
            "get_me_default_calendar_event",
        ),
        (
            "/me/calendars/{calendar-id}/events/{event-id}",
            "get_me_calendar_event",
        ),
        (
            "/users/{user-id}/transitiveMemberOf/microsoft.graph.group",
            "list_user_transitive_member_of_groups",
        ),
        (
            "/me/onenote/sectionGroups/{sectionGroup-id}/sectionGroups",
            "list_me_onenote_nested_section_groups",
        ),
        (
            "/reports/microsoft.graph.getEmailActivityUserDetail(period='{period}')",
            "get_reports_email_activity_user_detail_by_period",
        ),
    ] {
        assert_eq!(by_route("GET", path), name, "{path}");
    }
}

/// Jupyter Server's document (tests/fixtures/jupyter-server-api.yaml) has
/// no operationIds: names come from the summaries' verbs ("Rename a file or
/// directory", "Interrupt a kernel") and the paths' verb-led segments,
/// where the method and path alone said `update_contents_2` and
/// `create_kernel_interrupt`.
#[test]
fn jupyter_names_say_what_the_summaries_say() {
    let catalog = names_of(&crate::support::local(
        "tests/fixtures/jupyter-server-api.yaml",
    ));
    assert_valid_names(&catalog, "jupyter");
    assert_eq!(suffixed(&catalog), Vec::<&str>::new());
    let by_route = |method: &str, path: &str| {
        catalog
            .tools
            .iter()
            .find(|t| t.http.method == method && t.http.path == path)
            .unwrap_or_else(|| panic!("no {method} {path}"))
            .name
            .as_str()
    };
    assert!(
        by_route("PATCH", "/api/contents/{path}").starts_with("rename_"),
        "{}",
        by_route("PATCH", "/api/contents/{path}")
    );
    for (method, path, name) in [
        (
            "POST",
            "/api/kernels/{kernel_id}/interrupt",
            "interrupt_kernel",
        ),
        ("POST", "/api/kernels/{kernel_id}/restart", "restart_kernel"),
        ("PATCH", "/api/contents/{path}", "rename_file_or_directory"),
        (
            "POST",
            "/api/contents/{path}/checkpoints/{checkpoint_id}",
            "restore_file",
        ),
        ("POST", "/api/kernels", "start_kernel"),
        // A file's extension is not a resource (`list_yamls` before).
        ("GET", "/api/spec.yaml", "get_spec"),
        // A root path names nothing; the summary does.
        ("GET", "/api/", "get_jupyter_server_version"),
        ("GET", "/api/kernels", "list_kernels"),
    ] {
        assert_eq!(by_route(method, path), name, "{method} {path}");
    }
}
