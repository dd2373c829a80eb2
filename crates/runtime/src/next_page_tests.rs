use serde_json::json;

use super::*;
use crate::binding::Style;

fn query(arg: &str, name: &str) -> ParamBinding {
    ParamBinding {
        arg: arg.into(),
        name: name.into(),
        location: Location::Query,
        style: Style::Form,
        explode: true,
        required: false,
        allow_reserved: false,
        content_type: None,
    }
}

fn path(arg: &str) -> ParamBinding {
    ParamBinding {
        location: Location::Path,
        style: Style::Simple,
        explode: false,
        required: true,
        ..query(arg, arg)
    }
}

fn binding(params: Vec<ParamBinding>) -> HttpBinding {
    HttpBinding {
        method: "GET".into(),
        path: "/repos/{owner}/issues".into(),
        params,
        body: None,
        servers: Vec::new(),
        security: Vec::new(),
        output: None,
        response_media_types: Vec::new(),
        response_headers: Vec::new(),
        lro: None,
        workflow: None,
    }
}

fn map(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

fn h(name: &str, value: &str) -> (String, String) {
    (name.to_string(), value.to_string())
}

fn github() -> (HttpBinding, Map<String, Value>) {
    let http = binding(vec![
        path("owner"),
        query("per_page", "per_page"),
        query("page", "page"),
        query("state", "state"),
    ]);
    let input = map(json!({"type": "object", "properties": {
        "owner": {"type": "string"},
        "per_page": {"type": "integer"},
        "page": {"type": "integer"},
        "state": {"type": "string"}
    }}));
    (http, input)
}

fn url() -> Url {
    Url::parse("https://api.example.com/repos/octo/issues?per_page=2&state=open").unwrap()
}

#[test]
fn a_link_headers_next_becomes_the_same_tools_arguments_typed_by_the_schema() {
    let (http, input) = github();
    let args = map(json!({"owner": "octo", "per_page": 2, "state": "open"}));
    // GitHub's shape: the next page under another path, every relation.
    let link = "<https://api.example.com/repositories/1/issues?per_page=2&state=open&page=2>; rel=\"next\", <https://api.example.com/repositories/1/issues?per_page=2&state=open&page=5>; rel=\"last\"";
    let next = next_page(&http, &input, &args, &[h("Link", link)], &url(), &[]);
    assert_eq!(
        next,
        Some(NextPage::Arguments(map(
            json!({"owner": "octo", "per_page": 2, "state": "open", "page": 2})
        )))
    );
    let text = next.unwrap().render("list_issues");
    assert!(
        text.starts_with("Next page: call `list_issues` again with these arguments: {"),
        "{text}"
    );
}

#[test]
fn links_parse_as_rfc_8288_writes_them() {
    let parsed =
        links("<https://a.example/x?a=1,2>; rel=\"prev first\"; title=\"a, b\", </y>;rel=next");
    assert_eq!(
        parsed,
        vec![
            (
                "https://a.example/x?a=1,2".to_string(),
                vec!["prev".to_string(), "first".to_string()]
            ),
            ("/y".to_string(), vec!["next".to_string()]),
        ]
    );
    assert!(links("no links here").is_empty());
    assert!(links("<unterminated").is_empty());
}

#[test]
fn a_next_page_header_with_a_url_is_read_like_a_link() {
    // Kinto's shape: `Next-Page` holds the whole URL, its token included.
    let http = binding(vec![
        path("owner"),
        query("limit", "_limit"),
        query("token", "_token"),
    ]);
    let input = map(json!({"type": "object", "properties": {
        "owner": {"type": "string"}, "limit": {"type": "integer"}, "token": {"type": "string"}
    }}));
    let args = map(json!({"owner": "octo", "limit": 2}));
    let headers = [h(
        "Next-Page",
        "https://api.example.com/repos/octo/issues?_limit=2&_token=abc%3D%3D",
    )];
    assert_eq!(
        next_page(&http, &input, &args, &headers, &url(), &[]),
        Some(NextPage::Arguments(map(
            json!({"owner": "octo", "limit": 2, "token": "abc=="})
        )))
    );
}

#[test]
fn a_next_token_header_goes_to_the_argument_its_name_ends_with() {
    let http = binding(vec![
        query("cursor", "cursor"),
        query("page_token", "pageToken"),
    ]);
    let input = map(json!({"type": "object", "properties": {}}));
    let args = map(json!({}));
    assert_eq!(
        next_page(
            &http,
            &input,
            &args,
            &[h("X-Next-Cursor", "c2")],
            &url(),
            &[]
        ),
        Some(NextPage::Arguments(map(json!({"cursor": "c2"}))))
    );
    assert_eq!(
        next_page(
            &http,
            &input,
            &args,
            &[h("X-Next-Page-Token", "t")],
            &url(),
            &[]
        ),
        Some(NextPage::Arguments(map(json!({"page_token": "t"}))))
    );
    // No argument of that name: nothing to offer.
    assert_eq!(
        next_page(
            &http,
            &input,
            &args,
            &[h("X-Next-Offset", "9")],
            &url(),
            &[]
        ),
        None
    );
}

#[test]
fn a_query_parameter_the_tool_lacks_makes_the_next_page_unreachable_but_a_sent_key_does_not() {
    let (http, input) = github();
    let args = map(json!({"owner": "octo"}));
    let headers = [h(
        "Link",
        "<https://api.example.com/x?page=2&after=zz>; rel=\"next\"",
    )];
    match next_page(&http, &input, &args, &headers, &url(), &[]) {
        Some(NextPage::Unreachable { url, why }) => {
            assert_eq!(url, "https://api.example.com/x?page=2&after=zz");
            let url = url.clone();
            assert!(why.contains("`after`"), "{why}");
            let text = NextPage::Unreachable { url, why }.render("t");
            assert!(
                text.contains("https://api.example.com/x?page=***&after=***"),
                "{text}"
            );
        }
        other => panic!("{other:?}"),
    }
    let headers = [h(
        "Link",
        "<https://api.example.com/x?page=2&api_key=s3cret>; rel=\"next\"",
    )];
    assert_eq!(
        next_page(
            &http,
            &input,
            &args,
            &headers,
            &url(),
            &["s3cret".to_string()]
        ),
        Some(NextPage::Arguments(map(
            json!({"owner": "octo", "page": 2})
        )))
    );
}

#[test]
fn no_next_relation_or_the_same_page_again_is_no_next_page() {
    let (http, input) = github();
    let args = map(json!({"owner": "octo", "page": 5}));
    let last = [h(
        "Link",
        "<https://api.example.com/x?page=1>; rel=\"first\"",
    )];
    assert_eq!(next_page(&http, &input, &args, &last, &url(), &[]), None);
    let same = [h(
        "Link",
        "<https://api.example.com/x?page=5>; rel=\"next\"",
    )];
    assert_eq!(next_page(&http, &input, &args, &same, &url(), &[]), None);
    assert_eq!(next_page(&http, &input, &args, &[], &url(), &[]), None);
}

#[test]
fn a_tool_that_writes_is_never_offered_a_next_call() {
    let (mut http, input) = github();
    let args = map(json!({"owner": "octo"}));
    let link = [h(
        "Link",
        "<https://api.example.com/x?page=2>; rel=\"next\"",
    )];
    assert!(next_page(&http, &input, &args, &link, &url(), &[]).is_some());
    for method in ["POST", "DELETE", "PUT", "PATCH"] {
        http.method = method.into();
        assert_eq!(
            next_page(&http, &input, &args, &link, &url(), &[]),
            None,
            "{method}"
        );
    }
}

#[test]
fn arrays_and_json_parameters_keep_their_shape() {
    let mut json_param = query("filter", "filter");
    json_param.content_type = Some("application/json".into());
    let mut csv = query("ids", "ids");
    csv.explode = false;
    let http = binding(vec![
        query("tags", "tags"),
        csv,
        json_param,
        query("on", "on"),
    ]);
    let input = map(json!({"type": "object", "properties": {
        "tags": {"type": "array", "items": {"type": "string"}},
        "ids": {"type": "array", "items": {"type": "integer"}},
        "filter": {"type": "object"},
        "on": {"type": ["boolean", "null"]}
    }}));
    let headers = [h(
        "Link",
        "<?tags=a&tags=b&ids=1,2&filter=%7B%22x%22%3A1%7D&on=true>; rel=next",
    )];
    assert_eq!(
        next_page(&http, &input, &map(json!({})), &headers, &url(), &[]),
        Some(NextPage::Arguments(map(json!({
            "tags": ["a", "b"], "ids": [1, 2], "filter": {"x": 1}, "on": true
        }))))
    );
}
