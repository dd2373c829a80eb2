use super::*;
use crate::naming::{Said, action_words};

/// The reading of an operation, as the tool planner makes it.
fn reads(
    method: &str,
    path: &str,
    operation_id: Option<&str>,
    summary: Option<&str>,
) -> Option<Reading> {
    read(
        method,
        &action_words(&Said {
            operation_id,
            method: &method.to_ascii_lowercase(),
            path,
            summary,
            description: None,
        }),
    )
}

fn destroys(verb: &str, source: Source) -> Option<Reading> {
    Some(Reading::Destroys(verb.into(), source))
}

fn only_reads(verb: &str, source: Source) -> Option<Reading> {
    Some(Reading::Reads(verb.into(), source))
}

#[test]
fn a_post_that_deletes_or_resets_destroys() {
    // The shapes of a vector database's and a workflow server's APIs.
    assert_eq!(
        reads(
            "POST",
            "/collections/{id}/delete",
            Some("collection_delete"),
            Some("Delete records")
        ),
        destroys("delete", Source::Summary)
    );
    assert_eq!(
        reads("POST", "/reset", Some("reset"), Some("Reset the database")),
        destroys("reset", Source::Summary)
    );
    // No summary: the operationId, a leading `bulk` skipped.
    assert_eq!(
        reads(
            "POST",
            "/flows/bulk_delete",
            Some("bulk_delete_flows"),
            None
        ),
        destroys("delete", Source::OperationId)
    );
    assert_eq!(
        reads("POST", "/things/{id}/purge", Some("purgeThing"), None),
        // The id's verb is not one naming is sure of: the path says it.
        destroys("purge", Source::Path)
    );
    // Nothing but the path.
    assert_eq!(
        reads("POST", "/tokens/{id}/revoke", None, None),
        destroys("revoke", Source::Path)
    );
    // A phrase of verbs destroys if one does.
    assert_eq!(
        reads("PUT", "/cache", None, Some("Refresh or clear the cache")),
        destroys("clear", Source::Summary)
    );
}

#[test]
fn a_post_that_only_reads_reads() {
    // "Read …" alone is not enough for a POST; with the path's `filter`, it is.
    assert_eq!(
        reads(
            "POST",
            "/work_queues/filter",
            Some("read_work_queues"),
            Some("Read work queues")
        ),
        only_reads("filter", Source::Path)
    );
    assert_eq!(
        reads("POST", "/messages/read", None, Some("Read messages")),
        None
    );
    // A path whose action is a fetch supports a summary's fetching verb.
    assert_eq!(
        reads(
            "POST",
            "/boards/{id}/get",
            None,
            Some("Retrieves cards from a board by id")
        ),
        only_reads("retrieve", Source::Summary)
    );
    assert_eq!(
        reads("POST", "/tokens/get", None, Some("Create a token")),
        None
    );
    assert_eq!(
        reads("POST", "/work_queues/filter", None, None),
        only_reads("filter", Source::Path)
    );
    assert_eq!(
        reads(
            "POST",
            "/collections/{id}/query",
            Some("collection_query"),
            None
        ),
        only_reads("query", Source::Path)
    );
    assert_eq!(
        reads(
            "POST",
            "/records/search",
            None,
            Some("Search records by text")
        ),
        only_reads("search", Source::Summary)
    );
    assert_eq!(
        reads("POST", "/variables/filter", Some("Variables_Filter"), None),
        only_reads("filter", Source::Path)
    );
}

#[test]
fn the_method_stands_where_the_words_do_not_say_plainly() {
    // A write that mentions a read word: not a read.
    assert_eq!(
        reads(
            "POST",
            "/search-indexes",
            Some("create_search_index"),
            Some("Create a search index")
        ),
        None
    );
    assert_eq!(
        reads(
            "POST",
            "/docs/replace",
            None,
            Some("Search and replace text")
        ),
        None
    );
    // Only a POST reads by its words; a PUT that filters still writes.
    assert_eq!(
        reads("PUT", "/filters/filter", None, Some("Filter things")),
        None
    );
    // "Get a token": get is not among the reading verbs of a POST.
    assert_eq!(
        reads("POST", "/oauth/token", None, Some("Get a token")),
        None
    );
    // A DELETE is destructive already.
    assert_eq!(
        reads(
            "DELETE",
            "/pets/{id}",
            Some("deletePet"),
            Some("Delete a pet")
        ),
        None
    );
    // A summary that says another verb settles it, whatever the id says.
    assert_eq!(
        reads(
            "POST",
            "/collections/{id}/delete",
            Some("collection_delete"),
            Some("Add records")
        ),
        None
    );
    // An ordinary create.
    assert_eq!(
        reads("POST", "/pets", Some("addPet"), Some("Add a new pet")),
        None
    );
    // An operationId whose verb naming is sure of, the path silent.
    assert_eq!(
        reads("POST", "/items", Some("searchItems"), None),
        only_reads("search", Source::OperationId)
    );
    // An id asking about its verb does not do it (a GET "Check if the
    // client can be deleted").
    assert_eq!(
        reads(
            "GET",
            "/api/client/candelete",
            Some("Client_CanDelete"),
            None
        ),
        None
    );
    // A GET that deletes (AWS's query APIs, described rather than
    // summarized) is destructive all the same.
    assert_eq!(
        reads(
            "GET",
            "/#Action=DeleteGroup",
            Some("GET_DeleteGroup"),
            Some("Deletes the specified IAM group. The group must not contain any users.")
        ),
        destroys("delete", Source::Summary)
    );
}

#[test]
fn a_description_that_reads_supports_a_summary_that_reads() {
    let read_described = |summary: &str, description: &str| {
        read_operation(
            "POST",
            &Said {
                operation_id: None,
                method: "post",
                path: "/ui/parcels/history",
                summary: Some(summary),
                description: Some(description),
            },
        )
    };
    assert_eq!(
        read_described(
            "Read Parcel History",
            "Query for parcel history data across a range of days."
        ),
        only_reads("query", Source::Description)
    );
    // A description that writes, or says nothing of reading, does not.
    assert_eq!(
        read_described("Read Parcel History", "Store the parcel history."),
        None
    );
    assert_eq!(
        read_described("Create a parcel", "Search for parcels first."),
        None
    );
}
