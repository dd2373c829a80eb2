use super::*;

fn entry<'a>(
    name: &'a str,
    title: &'a str,
    method: &'a str,
    path: &'a str,
    tags: &'a [String],
) -> SearchEntry<'a> {
    SearchEntry {
        name,
        title,
        description: "",
        tags,
        method,
        path,
        params: &[],
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
