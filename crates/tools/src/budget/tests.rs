use super::*;
use std::collections::HashMap;

fn table(defs: Value) -> HashMap<String, Arc<Converted>> {
    defs.as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| {
            let mut deps = Vec::new();
            openapi2mcp_model::schemas::def_refs(v, &mut deps);
            let c = Converted::new(v.clone(), deps);
            (k.clone(), Arc::new(c))
        })
        .collect()
}

fn big_defs() -> HashMap<String, Arc<Converted>> {
    let mut props = Map::new();
    for i in 0..40 {
        props.insert(
            format!("field_{i}"),
            json!({"type": "string", "description": format!("The {i}th field of a large object, described at some length so that it costs bytes.")}),
        );
    }
    props.insert("owner".into(), json!({"$ref": "#/$defs/User"}));
    props.insert(
        "status".into(),
        json!({"type": "string", "enum": ["open", "closed"]}),
    );
    table(json!({
        "Repo": {"type": "object", "properties": props, "required": ["field_1"], "additionalProperties": false},
        "User": {"type": "object", "properties": {"login": {"type": "string"}, "repos": {"type": "array", "items": {"$ref": "#/$defs/Repo"}}}},
        "State": {"type": "string", "enum": ["a", "b"]}
    }))
}

fn run(top: Value, side: Side, budget: usize) -> Fitted {
    run_with(&big_defs(), &top, side, budget)
}

/// `top` fitted to `budget` with the defs of `defs`.
fn run_with(
    defs: &HashMap<String, Arc<Converted>>,
    top: &Value,
    side: Side,
    budget: usize,
) -> Fitted {
    let mut deps = Vec::new();
    openapi2mcp_model::schemas::def_refs(top, &mut deps);
    let deps: BTreeSet<String> = deps.into_iter().collect();
    let mut lookup = |k: &str| Arc::clone(&defs[k]);
    fit(
        top.as_object().unwrap().clone(),
        &deps,
        side,
        budget,
        &mut lookup,
        "openapi2mcp://tools/t/input-schema",
    )
}

fn input_top() -> Value {
    json!({"type": "object", "properties": {
        "owner": {"type": "string", "description": "Path parameter."},
        "repo": {"$ref": "#/$defs/Repo"},
        "state": {"$ref": "#/$defs/State"}
    }, "required": ["owner", "repo"], "additionalProperties": false})
}

#[test]
fn within_budget_nothing_changes() {
    let f = run(input_top(), Side::Input, 0);
    assert!(f.full.is_none());
    assert_eq!(f.listed["$defs"].as_object().unwrap().len(), 3);
    let f = run(
        json!({"type": "object", "properties": {"a": {"type": "string"}}}),
        Side::Input,
        500,
    );
    assert!(f.full.is_none());
}

#[test]
fn over_budget_keeps_every_argument_and_fits() {
    for budget in [300, 600, 1200, 2500] {
        let f = run(input_top(), Side::Input, budget);
        let listed = &f.listed;
        assert!(f.full.is_some());
        assert_eq!(
            listed["properties"]
                .as_object()
                .unwrap()
                .keys()
                .collect::<Vec<_>>(),
            ["owner", "repo", "state"],
            "{budget}"
        );
        assert_eq!(listed["required"], json!(["owner", "repo"]));
        assert_eq!(
            listed["properties"]["state"]["enum"],
            json!(["a", "b"]),
            "enums are kept"
        );
        if !f.over {
            assert!(
                json_size(listed) <= budget,
                "{budget}: {}",
                json_size(listed)
            );
        }
        assert!(listed.get("$defs").is_none());
        assert!(jsonschema::draft202012::new(listed).is_ok());
        let text = listed.to_string();
        assert!(text.contains("openapi2mcp://schemas/"), "{budget}: {text}");
    }
}

#[test]
fn summaries_name_fields_and_resources() {
    let f = run(input_top(), Side::Input, 2500);
    let repo = &f.listed["properties"]["repo"];
    let d = repo["description"].as_str().unwrap();
    assert!(d.contains("Repo with 42 fields: field_0, field_1"), "{d}");
    assert!(d.contains("more); required: field_1."), "{d}");
    assert!(d.contains("openapi2mcp://schemas/Repo"), "{d}");
    assert_eq!(repo["type"], "object");
    assert!(
        repo.get("additionalProperties").is_none(),
        "summaries are open"
    );
}

#[test]
fn output_schemas_stay_open_and_accept_the_full_shape() {
    let top = json!({"type": "object", "properties": {"repo": {"$ref": "#/$defs/Repo"}, "items": {"type": "array", "items": {"$ref": "#/$defs/Repo"}}}});
    for budget in [100, 400, 1500] {
        let f = run(top.clone(), Side::Output, budget);
        assert!(!f.over, "{budget}");
        assert!(json_size(&f.listed) <= budget, "{budget}");
        assert!(
            !f.listed
                .to_string()
                .contains("\"additionalProperties\":false")
        );
        let instance = json!({"repo": {"field_1": "x", "extra": 1, "owner": {"login": "a", "more": true}}, "items": [{"field_1": "y", "z": 2}]});
        let v = jsonschema::draft202012::new(&f.listed).unwrap();
        assert!(v.is_valid(&instance), "{budget}: {}", f.listed);
    }
}

#[test]
fn deeper_levels_go_first() {
    let whole = json_size(&run(input_top(), Side::Input, 0).listed);
    let shallow = run(input_top(), Side::Input, 1200).listed.to_string();
    let deep = run(input_top(), Side::Input, whole - 1).listed;
    // With room, the repo's own fields are listed in full, and the
    // owner's nested repos are what gets summarized …
    assert!(deep["properties"]["repo"]["properties"]["field_3"]["description"].is_string());
    let owner = &deep["properties"]["repo"]["properties"]["owner"];
    let d = owner.to_string();
    assert!(d.contains("openapi2mcp://schemas/"), "{d}");
    // … and with less, they are summarized before the arguments are.
    assert!(shallow.contains("\"owner\""));
    assert!(shallow.len() < deep.to_string().len());
}

#[test]
fn a_def_summarized_again_reads_as_the_first_time() {
    // The defs (and their made summaries) shared by every fit, as the
    // bundler shares them among the tools of a build.
    let defs = big_defs();
    let fit_with = |defs: &HashMap<String, Arc<Converted>>, top: &Value, side, budget| {
        run_with(defs, top, side, budget).listed
    };
    let whole = json_size(&run(input_top(), Side::Input, 0).listed);
    let first = fit_with(&defs, &input_top(), Side::Input, whole - 1);
    assert!(
        defs.values().any(|d| d.summary.get().is_some()),
        "a def was summarized and kept: {first}"
    );
    for (top, side, budget) in [
        (input_top(), Side::Input, whole - 1),
        (input_top(), Side::Input, 1200),
        (input_top(), Side::Input, 2500),
        (input_top(), Side::Input, 300),
        (
            json!({"type": "object", "properties": {"r": {"$ref": "#/$defs/Repo"}, "u": {"$ref": "#/$defs/User"}}}),
            Side::Output,
            700,
        ),
    ] {
        let again = fit_with(&defs, &top, side, budget);
        let fresh = fit_with(&big_defs(), &top, side, budget);
        assert_eq!(again, fresh, "{budget}");
    }
}

#[test]
fn a_summary_naming_a_missed_target_is_not_kept() {
    let missed = crate::bundle::MISSED_KEY;
    assert!(crate::bundle::mentions_missed(
        &json!({"items": {"$ref": format!("#/$defs/{missed}")}})
    ));
    assert!(crate::bundle::mentions_missed(
        &json!({"description": format!("{missed}. Full schema")})
    ));
    assert!(!crate::bundle::mentions_missed(
        &json!({"type": "object", "description": "Repo. Full schema: openapi2mcp://schemas/Repo"})
    ));
}
