use super::*;

fn entry<'a>(
    name: &'a str,
    title: &'a str,
    method: &'a str,
    path: &'a str,
    tags: &'a [String],
) -> SearchEntry<'a> {
    let (read_only, destructive) = SearchEntry::method_reads(method);
    SearchEntry {
        name,
        title,
        description: "",
        tags,
        method,
        path,
        params: &[],
        read_only,
        destructive,
    }
}

#[test]
fn words_split_at_case_and_punctuation() {
    assert_eq!(
        split_words("getRepoContent /repos/{owner}/pulls_list HTTPServer"),
        [
            "get",
            "repo",
            "content",
            "repos",
            "owner",
            "pulls",
            "list",
            "httpserver"
        ]
    );
    let one = |w: &str| {
        let mut s = w.to_string();
        lexicon::singular(&mut s);
        s
    };
    assert_eq!(
        [
            "repositories",
            "pulls",
            "addresses",
            "branches",
            "status",
            "access",
            "analysis",
            "managers"
        ]
        .map(one),
        [
            "repository",
            "pull",
            "address",
            "branch",
            "status",
            "access",
            "analysis",
            "manager"
        ]
    );
}

#[test]
fn a_model_s_words_find_the_api_s_operation() {
    let pulls = vec!["pulls".to_string()];
    let repos = vec!["repos".to_string()];
    let index = ToolIndex::new([
        entry(
            "pulls_create",
            "Create a pull request",
            "POST",
            "/repos/{owner}/{repo}/pulls",
            &pulls,
        ),
        entry(
            "repos_delete",
            "Delete a repository",
            "DELETE",
            "/repos/{owner}/{repo}",
            &repos,
        ),
        entry(
            "repos_get",
            "Get a repository",
            "GET",
            "/repos/{owner}/{repo}",
            &repos,
        ),
        entry(
            "pulls_list",
            "List pull requests",
            "GET",
            "/repos/{owner}/{repo}/pulls",
            &pulls,
        ),
    ]);
    let top = |q: &str| index.search(q, 1, None).first().map(|h| h.index);
    assert_eq!(top("open a PR"), Some(0));
    assert_eq!(top("remove a repo"), Some(1));
    assert_eq!(top("fetch repo details"), Some(2));
    assert_eq!(top("show all PRs"), Some(3));
    // The tag filter keeps only tools carrying it.
    let hits = index.search("repository", 10, Some("PULLS"));
    assert!(
        hits.iter().all(|h| h.index == 0 || h.index == 3),
        "{hits:?}"
    );
    // Nor does a request none of the tag's tools shares a word with.
    assert!(index.search("remove", 10, Some("pulls")).is_empty());
    // A request of one enormous word is answered at once.
    let started = std::time::Instant::now();
    let _ = index.search(&"ab".repeat(100_000), 5, None);
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
    // An exact name wins; nothing matches nonsense.
    assert_eq!(top("repos_delete"), Some(1));
    assert!(index.search("zzzz qqqq", 5, None).is_empty());
    assert_eq!(index.tags(), ["pulls", "repos"]);
}

#[test]
fn ties_keep_document_order() {
    let none: Vec<String> = Vec::new();
    let index = ToolIndex::new([
        entry("a", "Thing", "GET", "/a", &none),
        entry("b", "Thing", "GET", "/b", &none),
    ]);
    let hits = index.search("thing", 5, None);
    assert_eq!(hits.iter().map(|h| h.index).collect::<Vec<_>>(), [0, 1]);
}

fn words(groups: &[Group]) -> Vec<Vec<&str>> {
    groups
        .iter()
        .map(|g| g.words.iter().map(|(w, _)| w.as_str()).collect())
        .collect()
}

#[test]
fn a_request_s_words_come_with_what_may_stand_for_them() {
    // Derived words (WordNet) and inflections, each below the word itself.
    let groups = expand("who follows me");
    let follows = &groups[1];
    assert_eq!(follows.words[0], ("follows".to_string(), 1.0));
    assert!(follows.words.contains(&("follow".to_string(), 1.0)));
    assert!(follows.words.contains(&("follower".to_string(), DERIVED)));
    assert!(follows.words.contains(&("followed".to_string(), INFLECTED)));
    // The first person favours the authenticated user without requiring it.
    let me = groups.last().unwrap();
    assert!(me.bonus);
    assert_eq!(words(&groups[2..]), [["authenticated"]]);
    // The method's verb for a request's verb.
    assert!(
        expand("remove a label")[0]
            .words
            .contains(&("delete".to_string(), METHOD_VERB))
    );
    // Filler and stop words name nothing; abbreviations are spelled out.
    assert_eq!(words(&expand("repo details"))[0][0], "repository");
    assert_eq!(expand("repo details").len(), 1);
}

#[test]
fn reversals_questions_and_hyphens_expand_by_rule() {
    // "unassign": the action undone, and a bonus for removing.
    let groups = expand("unassign people");
    assert!(words(&groups)[0].contains(&"assignee"));
    assert!(groups[1].bonus);
    assert_eq!(words(&groups)[1], ["delete", "remove"]);
    // A yes-or-no question favours "check" operations.
    let groups = expand("did I star this repository");
    assert_eq!(words(&groups)[0], ["check"]);
    assert!(groups[0].bonus);
    assert!(words(&groups).iter().any(|g| g.contains(&"starred")));
    // "to-do": the joined word joins the first part's group.
    assert!(words(&expand("my to-do lists"))[0].contains(&"todo"));
}

#[test]
fn compounds_split_into_words_the_documents_use() {
    let vocabulary: HashSet<String> = ["work", "log", "my", "permission", "star"]
        .map(String::from)
        .into();
    let tokenizer = ToolTokenizer::new(Arc::new(vocabulary));
    assert_eq!(tokenizer.tokenize("worklog"), ["work", "log", "worklog"]);
    // The first person inside a compound reads as it does alone.
    assert_eq!(
        tokenizer.tokenize("mypermissions"),
        ["authenticate", "user", "permission", "mypermission"]
    );
    // Parts the documents never use alone are no split.
    assert_eq!(tokenizer.tokenize("stargazers"), ["stargazer"]);
}

#[test]
fn requests_worded_unlike_the_api_find_its_operations() {
    let none: Vec<String> = Vec::new();
    let index = ToolIndex::new([
        entry(
            "issues_add_assignees",
            "Add assignees to an issue",
            "POST",
            "/repos/{owner}/{repo}/issues/{issue_number}/assignees",
            &none,
        ),
        entry(
            "issues_remove_assignees",
            "Remove assignees from an issue",
            "DELETE",
            "/repos/{owner}/{repo}/issues/{issue_number}/assignees",
            &none,
        ),
        entry(
            "activity_star_repo",
            "Star a repository for the authenticated user",
            "PUT",
            "/user/starred/{owner}/{repo}",
            &none,
        ),
        entry(
            "activity_check_repo_is_starred",
            "Check if a repository is starred by the authenticated user",
            "GET",
            "/user/starred/{owner}/{repo}",
            &none,
        ),
        entry(
            "users_list_followers",
            "List followers of the authenticated user",
            "GET",
            "/user/followers",
            &none,
        ),
        entry(
            "users_list_following",
            "List the people the authenticated user follows",
            "GET",
            "/user/following",
            &none,
        ),
        entry(
            "issues_add_worklog",
            "Add worklog",
            "POST",
            "/issue/{id}/worklog",
            &none,
        ),
        entry(
            "issues_get_changelogs",
            "Get changelogs",
            "GET",
            "/issue/{id}/changelog",
            &none,
        ),
        entry("misc_work", "Work items", "GET", "/work", &none),
        entry("misc_log", "Audit log", "GET", "/log", &none),
    ]);
    let top = |q: &str| index.search(q, 1, None).first().map(|h| h.index);
    assert_eq!(top("unassign people from an issue"), Some(1));
    assert_eq!(top("assign someone to an issue"), Some(0));
    // A yes-or-no question favours the check: the embedding finds the
    // request's wording closer to the starring itself ("star a
    // repository"), so the check comes second (as on GitHub's whole
    // document; bench/README.md, Search), before everything else.
    let first_two: Vec<usize> = index
        .search("did I star this repository", 2, None)
        .iter()
        .map(|h| h.index)
        .collect();
    assert!(first_two.contains(&3), "{first_two:?}");
    assert_eq!(top("star this repository"), Some(2));
    assert_eq!(top("who are my followers"), Some(4));
    assert_eq!(top("log work on an issue"), Some(6));
}

fn described<'a>(
    name: &'a str,
    title: &'a str,
    description: &'a str,
    method: &'a str,
    path: &'a str,
) -> SearchEntry<'a> {
    SearchEntry {
        description,
        ..entry(name, title, method, path, &[])
    }
}

/// Requests that share no telling word with the operation they mean: the
/// words alone tie (every tool here creates something; ties keep document
/// order), the embedding picks the one meant.
#[test]
fn requests_find_operations_by_meaning_not_only_by_words() {
    let index = ToolIndex::new([
        described(
            "create_repo",
            "Create a repository",
            "Creates a new repository for the authenticated user.",
            "POST",
            "/user/repos",
        ),
        described(
            "create_label",
            "Create a label",
            "Creates a label for the specified repository.",
            "POST",
            "/labels",
        ),
        described(
            "create_event",
            "Create event",
            "Create an event in the user's default calendar.",
            "POST",
            "/me/events",
        ),
        described(
            "create_dispute",
            "Create dispute",
            "Opens a dispute over a charge a customer questions with their card issuer.",
            "POST",
            "/disputes",
        ),
    ]);
    let top = |q: &str| index.search(q, 1, None).first().map(|h| h.index);
    assert_eq!(top("create a meeting"), Some(2));
    assert_eq!(top("create a chargeback"), Some(3));
    assert_eq!(top("create a tag"), Some(1));
}

/// Most documents' tools begin their description with their summary: the
/// index reads what the description says beyond it (the summary is the
/// title already).
#[test]
fn the_description_is_read_beyond_the_title_it_repeats() {
    let index = ToolIndex::new([
        described(
            "get_thing",
            "Get a thing",
            "Get a thing\n\nReturns the frobnicator settings of a thing.\n\nRequires a token.",
            "GET",
            "/things/{id}",
        ),
        described(
            "get_other",
            "Get another",
            "Get another\n\nReturns the widget of another.",
            "GET",
            "/others/{id}",
        ),
    ]);
    let top = |q: &str| index.search(q, 1, None).first().map(|h| h.index);
    assert_eq!(top("frobnicator settings"), Some(0));
    assert_eq!(top("widget"), Some(1));
    let e = described("x", "Title", "Title\n\nWhat it does.", "GET", "/x");
    assert_eq!(about(&e), "What it does.");
    // A description that does not repeat the title is read from its start;
    // one that only repeats it says nothing more.
    let e = described("x", "Title", "Titles of things.\n\nMore.", "GET", "/x");
    assert_eq!(about(&e), "Titles of things.");
    let e = described("x", "Title", "Title", "GET", "/x");
    assert_eq!(about(&e), "");
}

/// The embedding reads the beginning of the description beyond the title:
/// what the tool does, not the conditions and formats that follow.
#[test]
fn the_embedding_reads_how_the_description_begins() {
    let e = described(
        "create_transfer",
        "Create transfer",
        "Create transfer\n\nSends funds to a connected account. Requires the balance to cover the amount.",
        "POST",
        "/v1/transfers",
    );
    let words = dense_text(&e);
    let has = |w: &str| words.iter().any(|x| x == w);
    assert!(has("funds") && has("connected"), "{words:?}");
    assert!(!has("balance") && !has("amount"), "{words:?}");
    assert_eq!(words.iter().filter(|x| *x == "transfer").count(), 1);
}

/// `POST` to an OData `$ref` collection adds an existing object to it
/// (Microsoft Graph's group members): the verb is "add", not "create".
#[test]
fn posting_a_reference_adds_to_the_collection() {
    let e = entry(
        "create_group_ref_member",
        "Create new navigation property ref to members for groups",
        "POST",
        "/groups/{group-id}/members/$ref",
        &[],
    );
    assert_eq!(field_texts(&e)[0], "add members");
    let e = entry("create_group", "Create group", "POST", "/groups", &[]);
    assert_eq!(field_texts(&e)[0], "create groups");
}

#[test]
fn a_request_s_first_words_tell_the_method_it_asks_for() {
    // Verbs of reading and questions read.
    for q in [
        "list branches",
        "show my profile",
        "find code in a repo",
        "who follows me",
        "did I star this repository",
        "checks of a commit",
    ] {
        assert_eq!(intent(q), Some(true), "{q}");
    }
    // Another verb with its object changes something.
    for q in [
        "assign an issue to a user",
        "invite someone to join",
        "turn off a workflow",
        "mark all notifications as read",
    ] {
        assert_eq!(intent(q), Some(false), "{q}");
    }
    // A noun phrase or a single word says nothing of the method.
    for q in ["issue comments", "repository secrets", "assign", ""] {
        assert_eq!(intent(q), None, "{q}");
    }
}

/// Two operations on one resource that the words alone barely tell
/// apart: the method the request's verb asks for decides.
#[test]
fn the_method_a_request_asks_for_ranks_first() {
    let index = ToolIndex::new([
        described(
            "issue_assignees",
            "Issue assignees",
            "The users assigned to an issue.",
            "GET",
            "/issues/{issue_number}/assignees",
        ),
        described(
            "issue_assignees_add",
            "Issue assignees",
            "The users assigned to an issue.",
            "POST",
            "/issues/{issue_number}/assignees",
        ),
    ]);
    let top = |q: &str| index.search(q, 1, None).first().map(|h| h.index);
    assert_eq!(top("assign an issue to a user"), Some(1));
    assert_eq!(top("assign someone to this issue"), Some(1));
    assert_eq!(top("who is assigned to this issue"), Some(0));
    assert_eq!(top("which users are assignees of an issue"), Some(0));
}

/// An entry with its annotations' hints, as the server indexes a tool.
fn hinted<'a>(
    name: &'a str,
    method: &'a str,
    path: &'a str,
    read_only: bool,
    destructive: bool,
) -> SearchEntry<'a> {
    SearchEntry {
        read_only,
        destructive,
        ..entry(name, "", method, path, &[])
    }
}

#[test]
fn a_post_is_indexed_for_what_its_annotations_say_it_does() {
    // A POST that filters a collection lists it; one that queries an item
    // gets it; one that deletes deletes.
    let e = hinted("list_variables", "POST", "/variables/filter", true, false);
    assert_eq!(field_texts(&e)[0], "list get variables");
    let e = hinted(
        "query_board",
        "POST",
        "/boards/{board_id}/query",
        true,
        false,
    );
    assert_eq!(field_texts(&e)[0], "get boards");
    let e = hinted(
        "delete_board_cards",
        "POST",
        "/boards/{board_id}/delete",
        false,
        true,
    );
    assert_eq!(field_texts(&e)[0], "delete delete");
    // A POST that writes creates, as before.
    let e = hinted("create_board", "POST", "/boards", false, false);
    assert_eq!(field_texts(&e)[0], "create boards");
}

#[test]
fn a_request_to_list_finds_a_post_that_filters() {
    let index = ToolIndex::new([
        hinted("create_variable", "POST", "/variables", false, false),
        hinted("read_variable", "GET", "/variables/{id}", true, false),
        hinted("list_variables", "POST", "/variables/filter", true, false),
    ]);
    let top = |q: &str| index.search(q, 1, None).first().map(|h| h.index);
    assert_eq!(top("list variables"), Some(2));
    assert_eq!(top("show me all the variables"), Some(2));
    assert_eq!(top("add a variable"), Some(0));
}

#[test]
fn a_request_for_one_item_prefers_the_item_operation() {
    for (q, one, rest) in [
        ("get a user by id", true, "get a user"),
        (
            "look up an application by its object id",
            true,
            "look up an application",
        ),
        ("the run with this id", true, "the run"),
        (
            "show me one event from my calendar",
            true,
            "show me event from my calendar",
        ),
        (
            "list users by department",
            false,
            "list users by department",
        ),
        ("sort runs by name and date", true, "sort runs and date"),
    ] {
        assert_eq!(asks_for_one(q), (one, rest.to_string()), "{q}");
    }
    let index = ToolIndex::new([
        hinted(
            "check_user_access",
            "GET",
            "/teams/{team_id}/users/check(userId='@id')",
            true,
            false,
        ),
        hinted("list_users", "GET", "/users", true, false),
        hinted("get_user", "GET", "/users/{user_id}", true, false),
        hinted("update_user", "PATCH", "/users/{user_id}", false, false),
    ]);
    let top = |q: &str| index.search(q, 1, None).first().map(|h| h.index);
    assert_eq!(top("get a user by id"), Some(2));
    // A change asked for by id is still a change.
    assert_eq!(top("update a user by id"), Some(3));
}

#[test]
fn open_asks_for_neither_making_nor_reading() {
    assert_eq!(intent("open a notebook"), None);
    assert_eq!(intent("open an issue"), None);
}
