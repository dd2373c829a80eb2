//! English word relations for the tool search: what a request may say for
//! an API's word. Derivationally related words (`assign`/`assignee`,
//! `follow`/`follower`, `deploy`/`deployment`) come from WordNet 3.1
//! (`words.txt`, made by `scripts/search-words.sh` from a pinned registry
//! package); inflections (`starred`, `created`, `repositories`) are undone
//! and made by rule, an undone form counting only when WordNet knows it.
//!
//! WordNet's synonyms were measured too and left out: over the query sets
//! of `tests/fixtures/` they changed no result (a word's frequent senses
//! rarely name what an API calls the thing; see bench/README.md, Search).
//! Nothing here is written for a particular API or request.

use std::collections::HashMap;
use std::sync::OnceLock;

/// WordNet's relations, as `scripts/search-words.sh` writes them.
const WORDS: &str = include_str!("words.txt");

/// Derivations of English nouns and verbs.
pub(super) struct Lexicon {
    derived: HashMap<&'static str, Vec<&'static str>>,
}

/// The lexicon, parsed once on first use (a few milliseconds).
pub(super) fn lexicon() -> &'static Lexicon {
    static LEXICON: OnceLock<Lexicon> = OnceLock::new();
    LEXICON.get_or_init(|| Lexicon::parse(WORDS))
}

impl Lexicon {
    /// Reads the lines of two related words (each pair once).
    fn parse(text: &'static str) -> Self {
        let mut derived: HashMap<&str, Vec<&str>> = HashMap::new();
        for line in text.lines() {
            if line.starts_with('#') {
                continue;
            }
            if let Some((first, second)) = line.split_once(' ') {
                derived.entry(first).or_default().push(second);
                derived.entry(second).or_default().push(first);
            }
        }
        Self { derived }
    }

    /// Words WordNet relates to `word` by derivation (the noun of a verb,
    /// the doer of an action).
    pub(super) fn derived(&self, word: &str) -> &[&'static str] {
        self.derived.get(word).map_or(&[], Vec::as_slice)
    }

    /// Whether WordNet knows `word` as a noun or verb with a derivation.
    pub(super) fn knows(&self, word: &str) -> bool {
        self.derived.contains_key(word)
    }

    /// The base form of an inflected word: the plural made singular, a
    /// participle made the verb (`starred` → `star`, `created` →
    /// `create`, `deploying` → `deploy`). A word WordNet knows as it is stays
    /// (`meeting`, `settings`' `setting`); an ending whose
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

/// Other inflections of a base form (`assign` → `assigned`,
/// `assigning`; `star` → `starred`; `create` → `created`): a request's
/// word may appear so in a document. Forms no document uses match
/// nothing.
pub(super) fn inflections(base: &str) -> Vec<String> {
    let mut forms = Vec::new();
    if base.len() < 3 || !base.is_ascii() {
        return forms;
    }
    let bytes = base.as_bytes();
    let last = bytes[bytes.len() - 1] as char;
    let before = bytes[bytes.len() - 2] as char;
    let vowel = |c: char| "aeiou".contains(c);
    if last == 'e' {
        let stem = &base[..base.len() - 1];
        forms.push(format!("{base}d"));
        forms.push(format!("{stem}ing"));
    } else if last == 'y' && !vowel(before) {
        let stem = &base[..base.len() - 1];
        forms.push(format!("{stem}ied"));
        forms.push(format!("{base}ing"));
    } else {
        forms.push(format!("{base}ed"));
        forms.push(format!("{base}ing"));
        // One short syllable ending consonant-vowel-consonant doubles
        // the consonant (`star` → `starred`, `run` → `running`).
        let third = bytes.get(bytes.len().wrapping_sub(3)).map(|b| *b as char);
        if !vowel(last)
            && !"wxy".contains(last)
            && vowel(before)
            && third.is_some_and(|c| !vowel(c))
            && base.chars().filter(|c| vowel(*c)).count() == 1
        {
            forms.push(format!("{base}{last}ed"));
            forms.push(format!("{base}{last}ing"));
        }
    }
    forms
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
