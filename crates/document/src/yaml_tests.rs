use super::*;
use crate::parse::parse_text;
use serde_json::json;

/// Found by tests/it/props.rs: a nine-level alias bomb placed in a
/// document with enough other content to lift serde_norway's limit
/// (100 alias jumps per event) expanded past 24 GB of memory.
#[test]
fn alias_bombs_are_refused_before_they_expand() {
    let mut bomb = String::from("openapi: 3.0.3\nx-a: &a [l, l, l, l, l, l, l, l, l]\n");
    for (level, prev) in ["b", "c", "d", "e", "f", "g", "h", "i"]
        .iter()
        .zip("abcdefgh".chars())
    {
        let refs = vec![format!("*{prev}"); 9].join(", ");
        bomb.push_str(&format!("x-{level}: &{level} [{refs}]\n"));
    }
    let padding = vec!["1"; 50].join(", ");
    for i in 0..5000 {
        bomb.push_str(&format!("x-pad{i}: [{padding}]\n"));
    }
    let start = std::time::Instant::now();
    let err = check_alias_expansion(&bomb, "bomb.yaml").unwrap_err();
    assert!(err.message.contains("aliases expand"), "{err}");
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
    assert!(parse_text(&bomb, "bomb.yaml").is_err());
}

#[test]
fn ordinary_anchors_and_aliases_still_parse() {
    let text = "openapi: 3.0.3\nx-base: &base {type: string}\nx-list: [*base, *base]\nx-m:\n  <<: *base\n  format: email\n";
    let v = parse_text(text, "t.yaml").unwrap();
    assert_eq!(v["x-list"], json!([{"type": "string"}, {"type": "string"}]));
    assert_eq!(v["x-m"], json!({"type": "string", "format": "email"}));
    // Prose with `&` and `*` does not cost a second parse.
    assert!(!may_hold("a: see https://x.test/?a=1&b=2 or R & D\n", b'&'));
    assert!(may_hold("a: &x 1\nb: *x\n", b'&') && may_hold("a: &x 1\nb: *x\n", b'*'));
    assert!(may_hold("[*x]", b'*') && !may_hold("a*b", b'*'));
}
