use std::sync::Arc;

use serde_json::{Value, json};

use super::*;

const BIG: &str = "123456789012345678901234567890";
const NEG: &str = "-98765432109876543210987";

fn parsed(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn only_integers_beyond_64_bits_outside_strings_are_found() {
    let raw = format!(
        r#"{{"a":{BIG},"b":"{BIG}","c":18446744073709551615,"d":-9223372036854775808,"e":{NEG},"f":1.5e300,"g":12345678901234567890123.5,"h":[{BIG}],"i":"x\"{BIG}"}}"#
    );
    let found = scan(raw.as_bytes()).unwrap();
    let texts: Vec<&str> = found.literals.iter().map(|(_, t)| t.as_str()).collect();
    // u64::MAX and i64::MIN fit; the float and the strings are not integers.
    assert_eq!(texts, [BIG, NEG]);
    assert!(found.clash.is_none());
    assert_eq!(scan(br#"{"a":18446744073709551615,"b":"1"}"#), None);
    assert_eq!(scan(b"{}"), None);
}

#[test]
fn the_first_integer_past_u64_is_found() {
    let found = scan(b"[18446744073709551616, -9223372036854775809]").unwrap();
    assert_eq!(found.literals.len(), 2);
}

#[test]
fn two_literals_reading_as_one_number_clash() {
    let raw = format!("[{BIG}, {}1]", &BIG[..BIG.len() - 1]);
    let found = Arc::new(scan(raw.as_bytes()).unwrap());
    assert!(found.clash.is_some());
    let said = run_now(scope(Some(found), async { clash() }));
    assert!(said.unwrap().contains(BIG), "names both literals");
}

#[test]
fn numbers_are_written_with_the_literals_digits_only_within_the_scope() {
    let raw = format!(r#"{{"id":{BIG},"n":{NEG},"x":2.5,"k":7}}"#);
    let args = parsed(&raw);
    let exact = Some(Arc::new(scan(raw.as_bytes()).unwrap()));
    let (json, id, n) = run_now(scope(exact, async {
        let Value::Number(id) = &args["id"] else {
            panic!()
        };
        let Value::Number(n) = &args["n"] else {
            panic!()
        };
        (json_text(&args), number_text(id), number_text(n))
    }));
    assert_eq!(json, raw);
    assert_eq!(id, BIG);
    assert_eq!(n, NEG);
    // Outside the scope: what serde_json read.
    assert_ne!(json_text(&args), raw);
    assert_eq!(json_text(&json!({"k": 1.0})), r#"{"k":1.0}"#);
}

#[test]
fn integral_floats_still_lose_their_fraction_as_parameters() {
    assert_eq!(
        number_text(&serde_json::Number::from_f64(3.0).unwrap()),
        "3"
    );
    assert_eq!(
        number_text(&serde_json::Number::from_f64(2.5).unwrap()),
        "2.5"
    );
}

#[test]
fn unclosed_strings_and_stray_signs_do_not_panic() {
    for raw in [
        &b"\"12345678901234567890123"[..],
        b"-",
        b"--123456789012345678901234",
        b"\"\\",
        b"1234567890123456789012345678901234567890e",
    ] {
        let _ = scan(raw);
    }
}

/// Runs a future that never waits, on this thread.
fn run_now<F: Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(f)
}
