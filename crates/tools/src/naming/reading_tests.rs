use super::super::{Effect, Said, candidates_for};

/// The names among the candidates of an operation whose effect is `effect`.
fn names(
    effect: Effect,
    id: Option<&str>,
    method: &str,
    path: &str,
    summary: Option<&str>,
) -> Vec<String> {
    let mut all = candidates_for(
        &Said {
            operation_id: id,
            method,
            path,
            summary,
            description: None,
        },
        effect,
    );
    all.pop(); // the operation's `method /path`
    all
}

fn first(effect: Effect, id: Option<&str>, method: &str, path: &str, summary: &str) -> String {
    names(effect, id, method, path, Some(summary)).remove(0)
}

#[test]
fn a_reading_post_to_a_filter_lists_the_collection() {
    let reads = Effect::Reads;
    // No operationId: the summary's generic verb no longer names the
    // segment as a noun (`get_invoices_filter`).
    assert_eq!(
        first(reads, None, "post", "/invoices/filter", "Read Invoices"),
        "list_invoices"
    );
    // An id without a verb of its own (`Controller_Action` whose action is
    // no verb naming knows) lent the method's `create`.
    assert_eq!(
        first(
            reads,
            Some("Shipments_Filter"),
            "post",
            "/v2/shipments/filter",
            "Read Shipments"
        ),
        "list_shipments"
    );
    // An id's get-like verb gives way to the listing; a verb of reading
    // that says more stays first.
    assert_eq!(
        names(
            reads,
            Some("read_parcels_parcels_filter_post"),
            "post",
            "/parcels/filter",
            Some("Read Parcels")
        )[..2],
        ["list_parcels", "read_parcels"]
    );
    assert_eq!(
        first(
            reads,
            Some("searchParcels"),
            "post",
            "/parcels/filter",
            "Search parcels"
        ),
        "search_parcels"
    );
    // Counting, searching and querying say their own verb.
    assert_eq!(
        first(reads, None, "post", "/parcels/count", "Count Parcels"),
        "count_parcels"
    );
    assert_eq!(
        first(
            reads,
            None,
            "post",
            "/warehouses/{warehouse_id}/parcels/search",
            "Search parcels"
        ),
        "search_warehouse_parcels"
    );
}

#[test]
fn a_post_as_its_method_says_keeps_its_names() {
    // The same paths, read as writes (a PUT or an `x-mcp` saying so):
    // nothing from the reading.
    let c = names(
        Effect::AsMethod,
        None,
        "post",
        "/invoices/filter",
        Some("Read Invoices"),
    );
    assert!(!c.iter().any(|n| n == "list_invoices"), "{c:?}");
    assert_eq!(
        first(
            Effect::AsMethod,
            None,
            "post",
            "/invoices",
            "Create an invoice"
        ),
        "create_invoice"
    );
}

#[test]
fn an_action_inside_an_item_names_what_it_acts_on() {
    let m = Effect::AsMethod;
    let boards = "/workspaces/{workspace}/boards/{board_id}";
    // Django-style noun_verb ids and paths alike.
    for (id, segment, summary, name) in [
        (
            Some("board_add"),
            "add",
            "Adds cards to a board.",
            "add_board_cards",
        ),
        (None, "add", "Adds cards to a board.", "add_board_cards"),
        (
            Some("board_delete"),
            "delete",
            "Deletes cards from a board by id.",
            "delete_board_cards",
        ),
        (
            None,
            "update",
            "Updates cards on a board.",
            "update_board_cards",
        ),
        // A synonym of the segment's verb.
        (
            Some("board_get"),
            "get",
            "Retrieves cards from a board.",
            "get_board_cards",
        ),
        (
            Some("board_upsert"),
            "upsert",
            "Upserts cards in a board.",
            "upsert_board_cards",
        ),
    ] {
        let path = format!("{boards}/{segment}");
        assert_eq!(first(m, id, "post", &path, summary), name, "{id:?} {path}");
    }
}

#[test]
fn an_action_on_the_item_itself_is_not_moved_inside_it() {
    let m = Effect::AsMethod;
    // The object is the item the path names.
    assert_eq!(
        first(
            m,
            Some("board_query"),
            "post",
            "/boards/{board_id}/query",
            "Query a board for cards."
        ),
        "query_board"
    );
    // A verb other than the segment's is a different action.
    assert_eq!(
        first(
            m,
            None,
            "post",
            "/kernels/{kernel_id}/interrupt",
            "Interrupt a kernel"
        ),
        "interrupt_kernel"
    );
    // A GET shows the item, whatever the path calls it.
    assert_eq!(
        first(
            m,
            Some("getCategory"),
            "get",
            "/c/{id}/show.json",
            "Show category"
        ),
        "get_category"
    );
    // Not after an item: a collection's action (`POST /vectors/upsert`).
    assert_eq!(
        first(m, None, "post", "/vectors/upsert", "Upserts vectors"),
        "upsert_vectors"
    );
}

#[test]
fn a_phrasal_verb_is_read_whole() {
    let m = Effect::AsMethod;
    // "Look up" is a get: the id's own name stays.
    assert_eq!(
        first(
            m,
            Some("repos/get"),
            "get",
            "/repos/{owner}/{repo}",
            "Look up a repository"
        ),
        "get_repo"
    );
    // "Set up" says more than the method's `replace`.
    assert_eq!(
        first(
            m,
            None,
            "put",
            "/companies/{id}/webhook",
            "Set up a webhook"
        ),
        "set_up_webhook"
    );
    // "up to" is no particle.
    assert_eq!(
        first(m, None, "get", "/items", "Get up to 100 items"),
        "list_items"
    );
}
