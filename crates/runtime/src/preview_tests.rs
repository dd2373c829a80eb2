use super::*;

#[test]
fn bodies_are_bounded_and_binary_is_named_not_shown() {
    assert_eq!(body_text(b"{\"a\":1}"), "{\"a\":1}");
    let long = "x".repeat(MAX_BODY_CHARS + 10);
    let shown = body_text(long.as_bytes());
    assert!(shown.starts_with(&"x".repeat(MAX_BODY_CHARS)));
    assert!(shown.ends_with(&format!("({} bytes in all)", MAX_BODY_CHARS + 10)));
    assert_eq!(body_text(&[0xff, 0xfe, 0]), "(3 bytes of binary data)");
}

#[test]
fn describe_puts_the_request_line_first() {
    let p = RequestPreview {
        method: "DELETE".into(),
        url: "https://api.example.com/pets/1".into(),
        body: None,
    };
    assert_eq!(p.describe(), "DELETE https://api.example.com/pets/1");
}
