use super::*;

#[test]
fn inflections_come_back_to_the_word_wordnet_knows() {
    let lexicon = lexicon();
    let base = |w: &str| lexicon.base(w);
    // Participles to the verb, doubled consonants and dropped `e` undone.
    assert_eq!(base("starred"), "star");
    assert_eq!(base("created"), "create");
    assert_eq!(base("running"), "run");
    assert_eq!(base("assigned"), "assign");
    // Plurals as before.
    assert_eq!(base("repositories"), "repository");
    assert_eq!(base("followers"), "follower");
    // A word known as it is stays; an ending whose removal gives no word
    // stays too.
    assert_eq!(base("billing"), "billing");
    assert_eq!(base("status"), "status");
    assert_eq!(base("string"), "string");
}

#[test]
fn wordnet_relates_words_by_derivation_and_sense() {
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
    assert!(lexicon.synonyms("fetch").contains(&"get"));
    // Only a word's two most frequent senses: `issue` as a magazine's
    // number is its second, as a release its fifth.
    assert!(!lexicon.synonyms("issue").contains(&"release"));
    assert!(lexicon.knows("repository"));
    assert!(!lexicon.knows("zzzz"));
}

#[test]
fn the_data_parses_into_both_relations() {
    let small = Lexicon::parse("# comment\n=synonyms\nfetch bring get\n=derived\nassign assignee\n");
    assert_eq!(small.synonyms("fetch"), ["bring", "get"]);
    assert_eq!(small.derived("assignee"), ["assign"]);
    assert_eq!(small.derived("assign"), ["assignee"]);
    assert!(small.synonyms("bring").is_empty());
}
