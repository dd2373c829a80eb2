use super::*;

#[test]
fn inflections_come_back_to_the_word_wordnet_knows() {
    let lexicon = lexicon();
    let base = |w: &str| lexicon.base(w);
    // Participles to the verb, doubled consonants and dropped `e` undone.
    assert_eq!(base("starred"), "star");
    assert_eq!(base("created"), "create");
    assert_eq!(base("deploying"), "deploy");
    assert_eq!(base("assigned"), "assign");
    // Plurals as before.
    assert_eq!(base("repositories"), "repository");
    assert_eq!(base("followers"), "follower");
    // A word known as it is stays; an ending whose removal gives no word
    // stays too.
    assert_eq!(base("meeting"), "meeting");
    assert_eq!(base("status"), "status");
    assert_eq!(base("string"), "string");
}

#[test]
fn wordnet_relates_words_by_derivation() {
    let lexicon = lexicon();
    for (word, related) in [
        ("assign", "assignee"),
        ("assignee", "assign"),
        ("follow", "follower"),
        ("deploy", "deployment"),
        ("watch", "watcher"),
        ("attach", "attachment"),
        ("invite", "invitation"),
    ] {
        assert!(
            lexicon.derived(word).contains(&related),
            "{word}: {:?}",
            lexicon.derived(word)
        );
    }
    assert!(lexicon.knows("star"));
    assert!(!lexicon.knows("zzzz"));
}

#[test]
fn each_pair_relates_both_ways() {
    let small = Lexicon::parse("# comment\n#\nassign assignee\nassign assignment\n");
    assert_eq!(small.derived("assign"), ["assignee", "assignment"]);
    assert_eq!(small.derived("assignee"), ["assign"]);
    assert!(small.derived("comment").is_empty());
}

#[test]
fn inflections_are_made_by_english_spelling_rules() {
    assert_eq!(inflections("assign"), ["assigned", "assigning"]);
    assert_eq!(
        inflections("star"),
        ["stared", "staring", "starred", "starring"]
    );
    assert_eq!(inflections("create"), ["created", "creating"]);
    assert_eq!(inflections("copy"), ["copied", "copying"]);
    assert!(inflections("id").is_empty());
}
