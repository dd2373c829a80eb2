use serde_json::json;

use super::*;

/// Feeds `pieces` one by one, collecting what each completes, then the end.
fn read(kind: Sequence, pieces: &[&[u8]]) -> (Vec<Vec<Value>>, Vec<Value>) {
    let mut reader = ItemReader::new(kind);
    let steps = pieces.iter().map(|p| reader.push(p)).collect();
    (steps, reader.finish())
}

#[test]
fn media_types_name_their_sequence() {
    assert_eq!(Sequence::of("application/jsonl"), Some(Sequence::JsonLines));
    assert_eq!(
        Sequence::of("Application/X-NDJSON; charset=utf-8"),
        Some(Sequence::JsonLines)
    );
    assert_eq!(
        Sequence::of("application/json-seq"),
        Some(Sequence::JsonSeq)
    );
    assert_eq!(
        Sequence::of("application/geo+json-seq"),
        Some(Sequence::JsonSeq)
    );
    assert_eq!(
        Sequence::of("text/event-stream"),
        Some(Sequence::EventStream)
    );
    assert_eq!(Sequence::of("application/json"), None);
    assert_eq!(Sequence::of("multipart/mixed"), None);
}

#[test]
fn json_lines_are_items_as_soon_as_their_line_ends() {
    let (steps, end) = read(
        Sequence::JsonLines,
        &[b"{\"a\":1}\n{\"a\"", b":2}\r\n\n", b"{\"a\":3}"],
    );
    assert_eq!(steps[0], [json!({"a": 1})]);
    assert_eq!(steps[1], [json!({"a": 2})]);
    assert!(
        steps[2].is_empty(),
        "an unterminated line waits for the end"
    );
    assert_eq!(end, [json!({"a": 3})]);
}

#[test]
fn a_line_that_is_not_json_is_counted_not_kept() {
    let mut reader = ItemReader::new(Sequence::JsonLines);
    let items = reader.push(b"1\nnope\n3\n");
    assert_eq!(items, [json!(1), json!(3)]);
    let (bad, why) = reader.problems().unwrap();
    assert_eq!(bad, 1);
    assert!(why.contains("not JSON"), "{why}");
}

#[test]
fn json_text_sequences_split_at_record_separators() {
    let (steps, end) = read(
        Sequence::JsonSeq,
        &[b"\x1e{\"x\":", b"1}\n\x1e[2]\n", b"\x1e\"three\""],
    );
    assert!(steps[0].is_empty());
    assert_eq!(steps[1], [json!({"x": 1}), json!([2])]);
    assert!(steps[2].is_empty());
    assert_eq!(end, [json!("three")]);
}

#[test]
fn events_follow_the_whatwg_parsing_rules() {
    let stream: &[&[u8]] = &[
        b"\xef\xbb\xbf: a comment\nevent: add\ndata: one\ndata:two\r",
        b"\nid: 7\nretry: 1500\nunknown: x\n\n",
        b"data\n\nevent: no-data\n\n",
        b"data: {\"n\": 3}\r\rdata: cut",
    ];
    let (steps, end) = read(Sequence::EventStream, stream);
    assert!(steps[0].is_empty(), "the event is not over yet");
    assert_eq!(
        steps[1],
        [json!({"data": "one\ntwo", "event": "add", "id": "7", "retry": 1500})]
    );
    // `data` without a colon is an empty data line; an event without
    // data is not dispatched.
    assert_eq!(steps[2], [json!({"data": ""})]);
    assert_eq!(steps[3], [json!({"data": "{\"n\": 3}"})]);
    assert!(
        end.is_empty(),
        "an unfinished event is discarded at the end"
    );
}
