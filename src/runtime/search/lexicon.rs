//! English word relations for the tool search: what a request may say for
//! an API's word. Synonyms (the words of a word's two most frequent senses)
//! and derivationally related words (`assign`/`assignee`,
//! `follow`/`follower`) come from WordNet 3.1 (`words.txt`, made by
//! `scripts/search-words.sh` from a pinned registry package); inflections
//! (`starred`, `created`, `repositories`) are undone by rule, a rule's
//! result counting only when WordNet knows it as a word.
//!
//! Nothing here is written for a particular API or request.

use std::collections::HashMap;
use std::sync::OnceLock;

/// WordNet's relations, as `scripts/search-words.sh` writes them.
const WORDS: &str = include_str!("words.txt");

/// Synonyms and derivations of English nouns and verbs.
pub(super) struct Lexicon {
    synonyms: HashMap<&'static str, Vec<&'static str>>,
    derived: HashMap<&'static str, Vec<&'static str>>,
}

/// The lexicon, parsed once on first use (a few milliseconds).
pub(super) fn lexicon() -> &'static Lexicon {
    static LEXICON: OnceLock<Lexicon> = OnceLock::new();
    LEXICON.get_or_init(|| Lexicon::parse(WORDS))
}

impl Lexicon {
    /// Reads the `=synonyms` lines (a word, then its synonyms) and the
    /// `=derived` lines (two related words, each pair once).
    fn parse(text: &'static str) -> Self {
        let mut synonyms: HashMap<&str, Vec<&str>> = HashMap::new();
        let mut derived: HashMap<&str, Vec<&str>> = HashMap::new();
        let mut section = "";
        for line in text.lines() {
            if line.starts_with('#') || line.is_empty() {
                continue;
            }
            if let Some(name) = line.strip_prefix('=') {
                section = name;
                continue;
            }
            let mut words = line.split(' ');
            let Some(first) = words.next() else { continue };
            match section {
                "synonyms" => synonyms.entry(first).or_default().extend(words),
                "derived" => {
                    if let Some(second) = words.next() {
                        derived.entry(first).or_default().push(second);
                        derived.entry(second).or_default().push(first);
                    }
                }
                _ => {}
            }
        }
        Self { synonyms, derived }
    }

    /// Words sharing one of the two most frequent senses of `word`.
    pub(super) fn synonyms(&self, word: &str) -> &[&'static str] {
        self.synonyms.get(word).map_or(&[], Vec::as_slice)
    }

    /// Words WordNet relates to `word` by derivation (the noun of a verb,
    /// the doer of an action).
    pub(super) fn derived(&self, word: &str) -> &[&'static str] {
        self.derived.get(word).map_or(&[], Vec::as_slice)
    }

    /// Whether WordNet knows `word` as a common noun or verb, or as part of
    /// a derivation.
    pub(super) fn knows(&self, word: &str) -> bool {
        self.synonyms.contains_key(word) || self.derived.contains_key(word)
    }

    /// The base form of an inflected word: the plural made singular, a
    /// participle made the verb (`starred` → `star`, `created` →
    /// `create`, `running` → `run`). A word WordNet knows as it is stays
    /// (`billing`, `settings`' `setting`, `status`); an ending whose
    /// removal gives no known word stays too (`string`).
    pub(super) fn base(&self, word: &str) -> String {
        let mut singular_form = word.to_string();
        singular(&mut singular_form);
        if self.knows(&singular_form) {
            return singular_form;
        }
        for ending in ["ed", "ing"] {
            let Some(stem) = word.strip_suffix(ending) else {
                continue;
            };
            if stem.len() < 2 {
                continue;
            }
            let mut candidates = vec![stem.to_string(), format!("{stem}e")];
            if let Some(y) = stem.strip_suffix('i') {
                candidates.push(format!("{y}y"));
            }
            let bytes = stem.as_bytes();
            if bytes.len() >= 3 && bytes[bytes.len() - 1] == bytes[bytes.len() - 2] {
                candidates.insert(0, stem[..stem.len() - 1].to_string());
            }
            if let Some(found) = candidates.into_iter().find(|c| self.knows(c)) {
                return found;
            }
        }
        singular_form
    }
}

/// Plural to singular, the one inflection API words and requests differ
/// in most (`repositories`/`repository`, `pulls`/`pull`). Deliberately
/// lighter than a full stemmer, which merges words an API keeps apart
/// (`manager`/`managed`, `assignments`/`assign`).
pub(super) fn singular(word: &mut String) {
    let n = word.len();
    if n > 4 && word.ends_with("ies") {
        word.truncate(n - 3);
        word.push('y');
    } else if n > 4
        && (word.ends_with("sses")
            || word.ends_with("xes")
            || word.ends_with("ches")
            || word.ends_with("shes"))
    {
        word.truncate(n - 2);
    } else if n > 3
        && word.ends_with('s')
        && !word.ends_with("ss")
        && !word.ends_with("us")
        && !word.ends_with("is")
    {
        word.truncate(n - 1);
    }
}

#[cfg(test)]
#[path = "lexicon_tests.rs"]
mod tests;
