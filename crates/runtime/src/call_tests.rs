//! Unit tests of `call.rs` (kept out of generated crates).

use super::*;
use crate::binding::{Location, ParamBinding, Style};

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

fn binding(params: Vec<ParamBinding>) -> HttpBinding {
    HttpBinding {
        method: "GET".into(),
        path: "/items".into(),
        params,
        body: None,
        servers: vec![],
        security: vec![],
        output: None,
        response_media_types: Vec::new(),
        lro: None,
        workflow: None,
    }
}

#[test]
fn a_cut_result_names_the_operation_s_own_paging_and_filter_arguments() {
    let http = binding(vec![
        query("per_page", "per_page"),
        query("page", "page"),
        query("q", "q"),
        query("select", "$select"),
    ]);
    let advice = fetch_less_advice(&http).expect("paging arguments");
    assert_eq!(
        advice,
        "To see the rest, page through the rest with this tool's `per_page`, `page`; or ask for less with `select`"
    );
    let mut outcome = ToolOutcome {
        content: vec![Content::Text(format!(
            "[1]\n\n[truncated: the response exceeded the 9-byte limit; the first 1 item of `$` were kept and later items dropped. {}]",
            response::FETCH_LESS
        ))],
        structured: None,
        is_error: false,
    };
    name_fetch_less_arguments(&mut outcome, &advice);
    let Content::Text(text) = &outcome.content[0] else {
        panic!("text")
    };
    assert!(text.ends_with(&format!("dropped. {advice}]")), "{text}");
    // An operation without such arguments keeps the generic advice, and an
    // uncut result is left alone.
    assert_eq!(fetch_less_advice(&binding(vec![query("q", "q")])), None);
    let mut whole = ToolOutcome {
        content: vec![Content::Text("[1, 2]".into())],
        structured: None,
        is_error: false,
    };
    name_fetch_less_arguments(&mut whole, &advice);
    assert_eq!(whole.content, vec![Content::Text("[1, 2]".into())]);
}
