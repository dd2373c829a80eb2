//! Typed arguments of generated crates: for schemas with nested objects
//! (open and closed), string enums, integers of each format, `$defs`
//! (recursive too), nullable members and `oneOf`, a set of argument
//! objects valid against each tool's input schema is read into the
//! generated types and serialized back, compiled and run inside a crate
//! generated from tests/fixtures/codegen-types.yaml: what comes back must
//! be what was sent (nested members in the order sent; the top level's
//! order is the struct's, which the request does not depend on). Values
//! the schema allows but the type cannot hold are refused with a message
//! naming them.

use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::support::{self, root};

/// `(tool, Rust type, arguments)`: each must round-trip exactly.
fn samples() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        (
            "place_order",
            "orders::PlaceOrderArgs",
            json!({"item": "bolt", "quantity": 3}),
        ),
        (
            "place_order",
            "orders::PlaceOrderArgs",
            json!({"dryRun": true, "X-Request-Id": "r-1", "item": "nut", "quantity": 1,
                "status": "approved", "price": 1.50,
                "parts": [{"spare": {"name": "s", "x": null}, "name": "a", "parts": []},
                          {"name": "b", "zz": [1, 2.5]}],
                "meta": {"z": 1, "a": {"y": null, "b": 2}}}),
        ),
        (
            "place_order",
            "orders::PlaceOrderArgs",
            json!({"item": "", "quantity": 2_147_483_647, "parts": [], "meta": {}}),
        ),
        (
            "update_order",
            "orders::UpdateOrderArgs",
            json!({"orderId": 7, "note": null, "priority": null}),
        ),
        (
            "update_order",
            "orders::UpdateOrderArgs",
            json!({"orderId": 7, "status": "delivered", "note": "x", "priority": -2,
                "shipping": {"zip": "123", "geo": {"lon": 2, "lat": 1.25}, "street": "Main", "floor": 3}}),
        ),
        (
            "update_order",
            "orders::UpdateOrderArgs",
            json!({"orderId": 9_007_199_254_740_993_u64, "shipping": {}}),
        ),
        ("count_stock", "inventory::CountStockArgs", json!({})),
        (
            "count_stock",
            "inventory::CountStockArgs",
            json!({"status": "placed", "sizes": ["self", "x-large", "S"], "min": u64::MAX,
                "filter": {"count": 2, "color": "red", "shade": "dark"}, "any": 5}),
        ),
        (
            "count_stock",
            "inventory::CountStockArgs",
            json!({"sizes": [], "filter": {"shade": null}, "any": "x"}),
        ),
    ]
}

/// `(tool, Rust type, arguments, what the error must say)`: valid against
/// the schema, but not readable into the type without a wrong value.
fn refusals() -> Vec<(&'static str, &'static str, Value, &'static str)> {
    vec![
        (
            "update_order",
            "orders::UpdateOrderArgs",
            json!({"orderId": 9_223_372_036_854_775_808_u64}),
            "9223372036854775808 does not fit",
        ),
        (
            "place_order",
            "orders::PlaceOrderArgs",
            json!({"item": "a", "quantity": 3_000_000_000_u64}),
            "3000000000 does not fit: expected an integer from -2^31 to 2^31-1 (i32)",
        ),
        (
            "update_order",
            "orders::UpdateOrderArgs",
            json!({"orderId": 1e17}),
            "too large to read exactly",
        ),
    ]
}

/// The test the generated crate runs.
fn round_trip_test() -> String {
    let mut checks = String::new();
    for (_, ty, args) in samples() {
        checks.push_str(&format!("    round_trip::<{ty}>(r##\"{args}\"##);\n"));
    }
    for (_, ty, args, says) in refusals() {
        checks.push_str(&format!(
            "    refused::<{ty}>(r##\"{args}\"##, {says:?});\n"
        ));
    }
    format!(
        r###"//! Written by openapi2mcp's tests/it/typed.rs.
use serde::{{Serialize, de::DeserializeOwned}};
use serde_json::Value;
use typed_mcp::operations::{{inventory, orders}};

/// Top-level members sorted, nested ones as they are.
fn canonical(v: &Value) -> Vec<(String, String)> {{
    let mut out: Vec<(String, String)> = v
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.to_string()))
        .collect();
    out.sort();
    out
}}

fn round_trip<T: Serialize + DeserializeOwned>(text: &str) {{
    let sent: Value = serde_json::from_str(text).unwrap();
    let typed: T = serde_json::from_value(sent.clone()).unwrap_or_else(|e| panic!("{{text}}: {{e}}"));
    let back = serde_json::to_value(&typed).unwrap();
    assert_eq!(canonical(&back), canonical(&sent), "{{text}}");
}}

fn refused<T: DeserializeOwned + std::fmt::Debug>(text: &str, says: &str) {{
    let err = serde_json::from_str::<T>(text).unwrap_err().to_string();
    assert!(err.contains(says), "{{text}}: {{err}}");
}}

#[test]
fn arguments_round_trip() {{
{checks}}}

#[test]
fn integral_numbers_are_integers() {{
    let args: orders::UpdateOrderArgs = serde_json::from_str(r#"{{"orderId": 7.0}}"#).unwrap();
    assert_eq!(args.order_id, 7);
    assert_eq!(serde_json::to_string(&args).unwrap(), r#"{{"orderId":7}}"#);
}}

#[test]
fn enums_and_nested_structs_are_typed() {{
    let args: inventory::CountStockArgs =
        serde_json::from_str(r#"{{"status": "placed", "sizes": ["x-large"], "filter": {{"count": 1}}}}"#).unwrap();
    assert_eq!(args.status, Some(typed_mcp::operations::types::Status::Placed));
    assert_eq!(args.sizes.as_deref().map(|s| s[0].as_str()), Some("x-large"));
    assert_eq!(args.filter.unwrap().count, Some(1));
}}
"###
    )
}

#[test]
fn generated_types_read_and_send_back_valid_arguments_exactly() {
    let spec = support::local("tests/fixtures/codegen-types.yaml");
    // The samples are valid: each passes its tool's input schema.
    let loaded = openapi2mcp::pipeline::load_catalog(
        spec.to_str().unwrap(),
        &openapi2mcp::pipeline::PipelineOptions::default(),
    )
    .unwrap();
    let schema_of = |tool: &str| {
        let def = loaded
            .catalog
            .tools
            .iter()
            .find(|t| t.name == tool)
            .unwrap();
        jsonschema::draft202012::new(&def.input_schema).unwrap()
    };
    let valid = samples()
        .into_iter()
        .map(|(tool, _, args)| (tool, args))
        .chain(
            refusals()
                .into_iter()
                .map(|(tool, _, args, _)| (tool, args)),
        );
    for (tool, args) in valid {
        let errors: Vec<String> = schema_of(tool)
            .iter_errors(&args)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{tool} {args}: {errors:?}");
    }

    // A stable place, so the crate's rebuild is incremental.
    let out = root().join("target/typed-generated/typed");
    let generated = Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
        .args(["generate", "-q", "--name", "typed-mcp"])
        .arg(&spec)
        .arg("--runtime-path")
        .arg(root().join("crates"))
        .arg("--out")
        .arg(&out)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        generated.status.success(),
        "{}",
        String::from_utf8_lossy(&generated.stderr)
    );
    std::fs::create_dir_all(out.join("tests")).unwrap();
    std::fs::write(out.join("tests/round_trip.rs"), round_trip_test()).unwrap();
    let lock = out.join("Cargo.lock");
    if !lock.exists() {
        std::fs::copy(root().join("Cargo.lock"), &lock).unwrap();
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let ran = Command::new(cargo)
        .args(["test", "--test", "round_trip", "--manifest-path"])
        .arg(out.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", root().join("target/generated"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        ran.status.success(),
        "the generated crate's round-trip test failed:\n{}{}",
        String::from_utf8_lossy(&ran.stdout),
        String::from_utf8_lossy(&ran.stderr)
    );
}
