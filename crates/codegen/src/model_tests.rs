use super::*;

#[test]
fn doc_lines_defuse_code_fences() {
    let lines = doc_lines("Intro\n```\nlet x = 1;\n```\n  ```json\n{}\n  ```\tend\u{7}");
    assert_eq!(
        lines,
        [
            "Intro",
            "```text",
            "let x = 1;",
            "```",
            "  ```text",
            "{}",
            "  ```    end"
        ]
    );
}
