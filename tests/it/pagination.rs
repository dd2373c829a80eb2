//! Response headers and the next page, from the model's side (issue #45):
//! a real `serve` on stdio, rmcp's client declaring nothing, and a
//! backend on 127.0.0.1 that pages the way GitHub does (a `Link` header,
//! the next page under another path) and the way Kinto does (a
//! `Next-Page` header holding the whole URL with an opaque `_token`).
//! The "model" here only reads the result's text: it calls the tool again
//! with the arguments the `Next page:` line gives, until there is none,
//! and must have seen every item once.

use axum::body::Body;
use axum::response::Response;
use serde_json::{Value, json};

use crate::backend::{Backend, Recorded};
use crate::support::{call_tool, json_text, serve_stdio};

const ITEMS: usize = 7;
const SECRET_COOKIE: &str = "session=c00kie-s3cret";

/// The query pairs of a recorded request.
fn query(seen: &Recorded) -> Vec<(String, String)> {
    let q = seen.target.split_once('?').map(|(_, q)| q).unwrap_or("");
    url::form_urlencoded::parse(q.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

fn param(pairs: &[(String, String)], name: &str) -> Option<String> {
    pairs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.clone())
}

/// GitHub's shape on `/repos/{owner}/issues` and its `/repositories/1`
/// alias: `per_page` and `page`, a `Link` header with `next` and `last`;
/// Kinto's on `/buckets/{bucket}/records`: `_limit`, an opaque `_token`
/// (the offset, base64-ish), and `Next-Page` with the whole URL.
fn reply(seen: &Recorded) -> Response {
    let pairs = query(seen);
    let path = seen.target.split('?').next().unwrap_or("");
    let base = "http://127.0.0.1"; // only the query of a next URL is read
    let (start, size, next_url) = if path.starts_with("/buckets/") {
        let size: usize = param(&pairs, "_limit")
            .and_then(|v| v.parse().ok())
            .unwrap_or(3);
        let start: usize = param(&pairs, "_token")
            .and_then(|t| t.strip_prefix("tok-").and_then(|n| n.parse().ok()))
            .unwrap_or(0);
        let next = (start + size < ITEMS)
            .then(|| format!("{base}{path}?_limit={size}&_token=tok-{}", start + size));
        (start, size, next.map(|u| ("Next-Page", u)))
    } else {
        let size: usize = param(&pairs, "per_page")
            .and_then(|v| v.parse().ok())
            .unwrap_or(3);
        let page: usize = param(&pairs, "page")
            .and_then(|v| v.parse().ok())
            .unwrap_or(1);
        let last = ITEMS.div_ceil(size);
        let mut link =
            format!("<{base}/repositories/1/issues?per_page={size}&page={last}>; rel=\"last\"");
        if page < last {
            link = format!(
                "<{base}/repositories/1/issues?per_page={size}&page={}>; rel=\"next\", {link}",
                page + 1
            );
        }
        ((page - 1) * size, size, Some(("Link", link)))
    };
    let items: Vec<Value> = (start..(start + size).min(ITEMS))
        .map(|i| json!({"id": i + 1}))
        .collect();
    let mut response = Response::builder()
        .status(200)
        .header("content-type", "application/json")
        .header("etag", format!("W/\"page-{start}\""))
        .header("x-ratelimit-remaining", "4999")
        .header("set-cookie", SECRET_COOKIE)
        .header("x-served-by", "cache-7");
    if let Some((name, value)) = next_url {
        response = response.header(name, value);
    }
    response
        .body(Body::from(Value::Array(items).to_string()))
        .unwrap()
}

/// A document with both list operations; GitHub's declares its `Link`
/// header as GitHub's own description does, Kinto's declares none (its
/// `Next-Page` is read all the same).
fn document(dir: &std::path::Path, base: &str) -> std::path::PathBuf {
    let list = json!({"description": "a page", "content": {"application/json": {
        "schema": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "integer"}}}}}}});
    let mut github_ok = list.clone();
    github_ok["headers"] = json!({"Link": {"schema": {"type": "string"}}});
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "Pages", "version": "1"},
        "servers": [{"url": base}],
        "paths": {
            "/repos/{owner}/issues": {"get": {
                "operationId": "issues/list-for-repo",
                "summary": "List repository issues",
                "parameters": [
                    {"name": "owner", "in": "path", "required": true, "schema": {"type": "string"}},
                    {"name": "per_page", "in": "query", "schema": {"type": "integer", "default": 30}},
                    {"name": "page", "in": "query", "schema": {"type": "integer", "default": 1}}
                ],
                "responses": {"200": github_ok}
            }},
            "/plain/issues": {"get": {
                "operationId": "listPlainIssues",
                "summary": "List issues as untyped JSON",
                "parameters": [
                    {"name": "per_page", "in": "query", "schema": {"type": "integer"}},
                    {"name": "page", "in": "query", "schema": {"type": "integer"}}
                ],
                "responses": {"200": {"description": "a page", "content": {"application/json": {}}}}
            }},
            "/buckets/{bucket}/records": {"get": {
                "operationId": "get_records",
                "summary": "List records",
                "parameters": [
                    {"name": "bucket", "in": "path", "required": true, "schema": {"type": "string"}},
                    {"name": "_limit", "in": "query", "schema": {"type": "integer"}},
                    {"name": "_token", "in": "query", "schema": {"type": "string"}}
                ],
                "responses": {"200": list}
            }}
        }
    });
    let path = dir.join("pages.json");
    std::fs::write(&path, doc.to_string()).unwrap();
    path
}

/// The arguments a model would take from the result's `Next page:` line.
fn next_arguments(text: &str, tool: &str) -> Option<Value> {
    let line = text.lines().find(|l| l.starts_with("Next page:"))?;
    let prefix = format!("Next page: call `{tool}` again with these arguments: ");
    let json = line
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("unexpected next-page line: {line}"));
    Some(serde_json::from_str(json).unwrap())
}

/// Pages through `tool` from `first` as a model reading only the text
/// would: the ids seen, in order, and each result's text.
async fn page_through(
    served: &crate::support::StdioServed,
    tool: &str,
    first: Value,
) -> (Vec<u64>, Vec<String>) {
    let (mut ids, mut texts) = (Vec::new(), Vec::new());
    let mut args = Some(first);
    for _ in 0..10 {
        let Some(current) = args.take() else { break };
        let result = call_tool(served, tool, current).await;
        assert_ne!(result["isError"], true, "{result}");
        let text = json_text(&result);
        // The array arrives as structured content, wrapped in an object.
        let page = result["structuredContent"]
            .as_object()
            .and_then(|o| o.values().find_map(Value::as_array))
            .cloned()
            .unwrap_or_default();
        ids.extend(page.iter().filter_map(|i| i["id"].as_u64()));
        args = next_arguments(&text, tool);
        // The same, structured, in the result's `_meta` (for hosts, apps
        // and scripts): the next call and the headers shown.
        let notes = &result["_meta"]["openapi2mcp/response"];
        match &args {
            Some(next) => assert_eq!(
                notes["next"],
                json!({"tool": tool, "arguments": next}),
                "{result}"
            ),
            None => assert!(notes.get("next").is_none(), "{result}"),
        }
        let headers = notes["headers"].as_object().expect("headers shown");
        assert!(
            !headers.keys().any(|k| k.eq_ignore_ascii_case("set-cookie")),
            "{notes}"
        );
        texts.push(text);
    }
    assert!(args.is_none(), "more than 10 pages");
    (ids, texts)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_pages_through_link_and_next_page_headers_to_the_end() {
    let backend = Backend::start_with(reply).await;
    let dir = tempfile::tempdir().unwrap();
    let doc = document(dir.path(), &backend.url());
    let served = serve_stdio(&[doc.to_str().unwrap()], &[]).await;
    let every: Vec<u64> = (1..=ITEMS as u64).collect();

    // GitHub's shape: page 2 onwards from the `Link` header.
    let (ids, texts) = page_through(
        &served,
        "list_issues_for_repo",
        json!({"owner": "octo", "per_page": 3}),
    )
    .await;
    assert_eq!(ids, every, "{texts:#?}");
    assert_eq!(texts.len(), 3);
    let seen = backend.take();
    let pages: Vec<Option<String>> = seen.iter().map(|r| param(&query(r), "page")).collect();
    assert_eq!(pages, [None, Some("2".into()), Some("3".into())]);
    assert!(
        seen.iter()
            .all(|r| r.target.starts_with("/repos/octo/issues"))
    );
    // The headers a client acts on reach the model; a cookie and an
    // undeclared header of no use do not.
    let first = &texts[0];
    assert!(first.contains("Response headers:"), "{first}");
    assert!(first.contains("etag: W/\"page-0\""), "{first}");
    assert!(first.contains("x-ratelimit-remaining: 4999"), "{first}");
    assert!(
        first.contains("\nLink: <") && first.contains("rel=\"last\""),
        "{first}"
    );
    assert!(
        !first.contains("c00kie-s3cret") && !first.contains("cache-7"),
        "{first}"
    );
    assert!(!texts[2].contains("Next page:"), "{}", texts[2]);

    // Kinto's shape: an undeclared `Next-Page` with the whole URL.
    let (ids, texts) =
        page_through(&served, "get_records", json!({"bucket": "b", "limit": 2})).await;
    assert_eq!(ids, every, "{texts:#?}");
    assert_eq!(texts.len(), 4);
    let tokens: Vec<Option<String>> = backend
        .take()
        .iter()
        .map(|r| param(&query(r), "_token"))
        .collect();
    assert_eq!(
        tokens,
        [
            None,
            Some("tok-2".into()),
            Some("tok-4".into()),
            Some("tok-6".into())
        ]
    );
    // Nothing of the cookie in the server's debug log either.
    assert!(!served.log().contains("c00kie-s3cret"));
}

/// GitHub's own description declares `Link` on its list operations: the
/// tool model carries the declaration to the runtime, which shows the
/// header under the document's spelling.
#[test]
fn githubs_list_operations_carry_their_declared_link_header() {
    let Some(path) = crate::support::external("@octokit/openapi/generated/api.github.com.json")
    else {
        return;
    };
    let catalog = crate::support::build(&path);
    let issues = catalog
        .tools
        .iter()
        .find(|t| t.http.method == "GET" && t.http.path == "/repos/{owner}/{repo}/issues")
        .expect("GET /repos/{owner}/{repo}/issues");
    assert!(
        issues.http.response_headers.iter().any(|h| h == "Link"),
        "{:?}",
        issues.http.response_headers
    );
    let paged = catalog
        .tools
        .iter()
        .filter(|t| t.http.params.iter().any(|p| p.name == "page"))
        .count();
    let linked = catalog
        .tools
        .iter()
        .filter(|t| t.http.params.iter().any(|p| p.name == "page"))
        .filter(|t| t.http.response_headers.iter().any(|h| h == "Link"))
        .count();
    eprintln!("GitHub: {linked} of {paged} tools with a `page` argument declare `Link`");
    assert!(linked * 2 > paged, "{linked} of {paged}");
}

/// The notes come before the body, which stays the last block (what a
/// client reading "the response" takes), and a selector
/// (`--response-filter`) still reads the body when headers are shown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_body_stays_the_last_block_for_selectors() {
    let backend = Backend::start_with(reply).await;
    let dir = tempfile::tempdir().unwrap();
    let doc = document(dir.path(), &backend.url());
    let served = serve_stdio(&[doc.to_str().unwrap(), "--response-filter"], &[]).await;
    let tools = served.client.list_all_tools().await.unwrap();
    let plain = tools
        .iter()
        .find(|t| t.name.contains("plain"))
        .expect("the untyped tool");
    assert!(plain.output_schema.is_none());
    let name = plain.name.to_string();
    let result = call_tool(&served, &name, json!({"per_page": 2})).await;
    let text = json_text(&result);
    assert!(text.starts_with("Response headers:"), "{text}");
    assert!(text.contains("Next page:"), "{text}");
    let last = result["content"].as_array().unwrap().last().unwrap()["text"].clone();
    let body: Value = serde_json::from_str(last.as_str().unwrap()).unwrap();
    assert_eq!(body, json!([{"id": 1}, {"id": 2}]));
    // A selector reads the body as the API sent it (the array), not the
    // structured content it is wrapped in (`{"items": [...]}`), notes
    // before it or not.
    let selected = call_tool(
        &served,
        "list_issues_for_repo",
        json!({"owner": "o", "per_page": 2, "response_filter": "[.[].id]"}),
    )
    .await;
    assert_ne!(selected["isError"], true, "{selected}");
    let selected: Value = serde_json::from_str(&json_text(&selected)).unwrap();
    assert_eq!(selected, json!([1, 2]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_code_mode_script_pages_through_with_response_next() {
    let backend = Backend::start_with(reply).await;
    let dir = tempfile::tempdir().unwrap();
    let doc = document(dir.path(), &backend.url());
    let served = serve_stdio(&[doc.to_str().unwrap(), "--tools", "code"], &[]).await;
    let script = r#"
        let r = await api.list_issues_for_repo({owner: "octo", per_page: 3});
        const ids = r.map((i) => i.id);
        let pages = 1;
        let next = response(r) && response(r).next;
        while (next && pages < 10) {
            r = await api[next.tool](next.arguments);
            ids.push(...r.map((i) => i.id));
            pages++;
            next = response(r) && response(r).next;
        }
        return {ids, pages, etag: response(r).headers.etag};
    "#;
    let result = call_tool(&served, "execute_read_only", json!({"script": script})).await;
    assert_ne!(result["isError"], true, "{result}");
    let out: Value = serde_json::from_str(&json_text(&result)).unwrap();
    let every: Vec<u64> = (1..=ITEMS as u64).collect();
    assert_eq!(out["ids"], json!(every), "{out}");
    assert_eq!(out["pages"], 3, "{out}");
    // The last page's ETag (the backend tags a page by its first offset).
    assert_eq!(out["etag"], "W/\"page-6\"", "{out}");
    let pages: Vec<Option<String>> = backend
        .take()
        .iter()
        .map(|r| param(&query(r), "page"))
        .collect();
    assert_eq!(pages, [None, Some("2".into()), Some("3".into())]);
}
