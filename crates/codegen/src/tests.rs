#[test]
fn doc_lines_that_end_like_items_end_none() {
    let code = "/// Returns `{}`;\n/// or `}`\npub fn a() {}\nfn b() {}\n";
    assert_eq!(
        super::space_items(code),
        "/// Returns `{}`;\n/// or `}`\npub fn a() {}\n\nfn b() {}\n"
    );
}
