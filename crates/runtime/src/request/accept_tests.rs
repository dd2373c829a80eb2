use super::super::super::binding::{HttpBinding, Location, OutputShape, ParamBinding, Style};
use super::accept_header;

fn binding(types: &[&str]) -> HttpBinding {
    HttpBinding {
        method: "GET".into(),
        path: "/x".into(),
        params: Vec::new(),
        body: None,
        servers: Vec::new(),
        security: Vec::new(),
        output: None,
        response_media_types: types.iter().map(|t| t.to_string()).collect(),
        response_headers: Vec::new(),
        lro: None,
        workflow: None,
    }
}

fn accept(types: &[&str]) -> Option<String> {
    accept_header(&binding(types))
}

#[test]
fn json_comes_first_and_the_rest_follow_with_lower_quality() {
    // @readme/oas-examples' getOrderById documents XML before JSON.
    assert_eq!(
        accept(&["application/xml", "application/json"]).as_deref(),
        Some("application/json, application/xml;q=0.5, */*;q=0.1")
    );
    assert_eq!(
        accept(&[
            "text/plain",
            "application/problem+json",
            "image/*",
            "application/json"
        ])
        .as_deref(),
        Some(
            "application/problem+json, application/json, text/plain;q=0.5, image/*;q=0.2, */*;q=0.1"
        )
    );
}

#[test]
fn without_json_the_documented_types_are_preferred_alike() {
    assert_eq!(
        accept(&["text/csv", "application/pdf"]).as_deref(),
        Some("text/csv, application/pdf, */*;q=0.1")
    );
    assert_eq!(accept(&["image/*"]).as_deref(), Some("image/*, */*;q=0.1"));
}

#[test]
fn nothing_documented_leaves_the_clients_default() {
    assert_eq!(accept(&[]), None);
    assert_eq!(accept(&["*/*"]), None);
    // Ranges that are no media range, and keys that are no media type, are
    // left out rather than sent.
    assert_eq!(
        accept(&["*/json", "*/*+json", "not a type", "a/b/c", ""]),
        None
    );
}

#[test]
fn parameters_and_case_are_dropped_and_duplicates_sent_once() {
    assert_eq!(
        accept(&[
            "Application/JSON; charset=utf-8",
            "application/json",
            "application/xml; charset=utf-8",
            "application/XML",
        ])
        .as_deref(),
        Some("application/json, application/xml;q=0.5, */*;q=0.1")
    );
}

#[test]
fn a_tool_with_an_output_schema_asks_for_json_even_under_a_wildcard() {
    let mut b = binding(&["*/*"]);
    b.output = Some(OutputShape::Object);
    assert_eq!(
        accept_header(&b).as_deref(),
        Some("application/json, */*;q=0.1")
    );
    b.response_media_types = vec!["application/xml".into()];
    assert_eq!(
        accept_header(&b).as_deref(),
        Some("application/json, application/xml;q=0.5, */*;q=0.1")
    );
}

#[test]
fn an_accept_header_parameter_wins() {
    let mut b = binding(&["application/json"]);
    b.params.push(ParamBinding {
        arg: "accept".into(),
        name: "Accept".into(),
        location: Location::Header,
        style: Style::Simple,
        explode: false,
        required: false,
        allow_reserved: false,
        content_type: None,
    });
    assert_eq!(accept_header(&b), None);
}

#[test]
fn the_header_is_added_after_parameters_and_cookies() {
    let b = binding(&["application/xml", "application/json"]);
    let request =
        super::super::prepare(&b, &serde_json::Map::new(), "https://api.example.com").unwrap();
    assert_eq!(
        request.headers,
        [(
            "Accept".to_string(),
            "application/json, application/xml;q=0.5, */*;q=0.1".to_string()
        )]
    );
}
