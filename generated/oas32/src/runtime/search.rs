//! Finding a tool by what a model asks for: a BM25 index (the `bm25`
//! crate: English stemming, stop words, Okapi scoring) over each tool's
//! name, title, description, tags, path and argument names, built once at
//! start-up and searched by the discovery meta-tool `search_tools`.
//!
//! Ranking is the crate's; what this module adds is what BM25 cannot know:
//! how an API's words are written (`snake_case`, `camelCase`, `/paths/{id}`
//! are split into words) and the vocabulary a model uses for them (a model
//! says "remove" where the API says "delete", "PR" for "pull request",
//! "fetch" for "get"), applied to documents and queries alike.
//!
//! Self-contained: no imports from the rest of the crate.

use std::collections::HashMap;

use bm25::{DefaultTokenizer, Embedder, EmbedderBuilder, Embedding, Language, Scorer, Tokenizer};

/// What the index reads of one tool.
#[derive(Debug, Clone, Copy)]
pub struct SearchEntry<'a> {
    /// The tool's name (`get_repos_repo`).
    pub name: &'a str,
    /// Its title (the operation summary).
    pub title: &'a str,
    /// Its description (only the beginning is indexed: the rest is mostly
    /// parameter notes and boilerplate that dilute the ranking).
    pub description: &'a str,
    /// The operation's tags.
    pub tags: &'a [String],
    /// Upper-case HTTP method.
    pub method: &'a str,
    /// Path template.
    pub path: &'a str,
    /// Names of the tool's arguments.
    pub params: &'a [String],
}

/// One search hit: the tool's position in the list the index was built
/// from, and its BM25 score (higher is better).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    /// Position of the tool in the entries given to [`ToolIndex::new`].
    pub index: usize,
    /// Relevance; only meaningful relative to other hits of one query.
    pub score: f32,
}

/// The search index over a catalog's tools: one BM25 index per field,
/// their scores added with the field's weight (BM25F-like: a word in a
/// tool's name or title says more than the same word in its description).
pub struct ToolIndex {
    fields: Vec<Field>,
    names: Vec<String>,
    tags: Vec<Vec<String>>,
    /// Prior of each tool: operations on top-level resources are what
    /// most requests are about, deeply nested ones need more words.
    prior: Vec<f32>,
}

/// One indexed field: its BM25 index and weight.
struct Field {
    weight: f32,
    embedder: Embedder<u32, ToolTokenizer>,
    scorer: Scorer<u32>,
}

impl Field {
    fn new(weight: f32, texts: &[String]) -> Self {
        let corpus: Vec<&str> = texts.iter().map(String::as_str).collect();
        let embedder = EmbedderBuilder::<u32, ToolTokenizer>::with_tokenizer_and_fit_to_corpus(
            ToolTokenizer::new(),
            &corpus,
        )
        .build();
        let mut scorer = Scorer::new();
        for (i, text) in texts.iter().enumerate() {
            scorer.upsert(&(i as u32), embedder.embed(text));
        }
        Self {
            weight,
            embedder,
            scorer,
        }
    }
}

/// Weights of the fields: what the tool does (the method's verb and the
/// resource it acts on, the path's last segment), what it is called (name,
/// title), where it is (the rest of the path, tags), what it says
/// (description), what it takes (argument names).
const WEIGHTS: [f32; 5] = [3.0, 2.0, 1.0, 0.7, 0.3];

/// How strongly matching every word of a request beats matching a few
/// (the score is multiplied by the matched fraction to this power).
const COVERAGE_POWER: f32 = 2.0;

/// How much each further static path segment lowers a tool's prior.
const DEPTH_PENALTY: f32 = 0.08;

impl std::fmt::Debug for ToolIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolIndex")
            .field("tools", &self.names.len())
            .finish()
    }
}

/// How much of a description is indexed.
const DESCRIPTION_CHARS: usize = 400;

impl ToolIndex {
    /// Indexes `entries`; hits refer to them by position.
    pub fn new<'a>(entries: impl IntoIterator<Item = SearchEntry<'a>>) -> Self {
        let mut texts: [Vec<String>; 5] = Default::default();
        let mut names = Vec::new();
        let mut tags = Vec::new();
        let mut prior = Vec::new();
        for entry in entries {
            let depth = static_segments(entry.path).count().max(1);
            prior.push(1.0 / (1.0 + DEPTH_PENALTY * (depth - 1) as f32));
            for (field, text) in texts.iter_mut().zip(field_texts(&entry)) {
                field.push(text);
            }
            names.push(entry.name.to_string());
            tags.push(entry.tags.iter().map(|t| t.to_lowercase()).collect());
        }
        let fields = texts
            .iter()
            .zip(WEIGHTS)
            .map(|(t, w)| Field::new(w, t))
            .collect();
        Self {
            fields,
            names,
            tags,
            prior,
        }
    }

    /// Number of tools indexed.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the index holds no tool.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The tags the indexed tools carry, each once, in first-seen order.
    pub fn tags(&self) -> Vec<&str> {
        let mut seen = std::collections::HashSet::new();
        self.tags
            .iter()
            .flatten()
            .filter(|t| seen.insert(t.as_str()))
            .map(String::as_str)
            .collect()
    }

    /// The best `limit` tools for `query`, best first; ties keep document
    /// order, so results are deterministic. With `tag`, only tools carrying
    /// that tag (case-insensitive). A query naming a tool exactly puts that
    /// tool first.
    pub fn search(&self, query: &str, limit: usize, tag: Option<&str>) -> Vec<Hit> {
        let tag = tag.map(str::to_lowercase);
        let allowed = |i: usize| tag.as_ref().is_none_or(|t| self.tags[i].contains(t));
        // Per tool: the weighted BM25 sum, and which query words matched
        // in any field (a tool matching every word of the request beats
        // one matching a single rare word many times).
        let mut scores: HashMap<u32, (f32, u64)> = HashMap::new();
        let mut words = 0;
        let expanded = map_words(query, VOCABULARY);
        for field in &self.fields {
            let query = field.embedder.embed(&expanded);
            let mut seen = Vec::new();
            for token in query.iter() {
                if seen.contains(&token.index) {
                    continue;
                }
                let bit = 1u64 << (seen.len() % 64);
                seen.push(token.index);
                let single = Embedding(vec![token.clone()]);
                for d in field.scorer.matches(&single) {
                    let entry = scores.entry(d.id).or_default();
                    entry.0 += field.weight * d.score;
                    entry.1 |= bit;
                }
            }
            words = words.max(seen.len());
        }
        let mut hits: Vec<Hit> = scores
            .into_iter()
            .map(|(id, (score, matched))| {
                let coverage = matched.count_ones() as f32 / words.max(1) as f32;
                Hit {
                    index: id as usize,
                    score: score * coverage.powf(COVERAGE_POWER) * self.prior[id as usize],
                }
            })
            .filter(|h| allowed(h.index))
            .collect();
        let exact = query.trim();
        if let Some(i) = self.names.iter().position(|n| n == exact)
            && allowed(i)
        {
            hits.retain(|h| h.index != i);
            hits.push(Hit {
                index: i,
                score: f32::INFINITY,
            });
        }
        hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.index.cmp(&b.index)));
        hits.truncate(limit);
        hits
    }
}

/// The text of each field of one tool, in [`WEIGHTS`] order. The verb of
/// the method joins the name: `GET` on a collection lists, on an item
/// gets.
fn field_texts(e: &SearchEntry<'_>) -> [String; 5] {
    let description: String = first_paragraph(e.description)
        .chars()
        .take(DESCRIPTION_CHARS)
        .collect();
    let mut path_words: Vec<&str> = static_segments(e.path).collect();
    // The resource acted on: the last static segment, without a dotted
    // namespace (`microsoft.graph.sendMail` acts as `sendMail`).
    let resource = path_words
        .pop()
        .map(|s| s.rsplit('.').next().unwrap_or(s))
        .unwrap_or_default();
    let on_item = e.path.trim_end_matches('/').ends_with('}');
    let verb = match e.method {
        "GET" | "HEAD" if on_item => "get",
        "GET" | "HEAD" => "list get",
        "POST" => "create",
        "PUT" | "PATCH" => "update",
        "DELETE" => "delete",
        _ => "",
    };
    [
        format!("{verb} {resource}"),
        format!("{} {}", e.name, e.title),
        format!("{} {}", path_words.join(" "), e.tags.join(" ")),
        description,
        e.params.join(" "),
    ]
}

/// The segments of a path template that are not parameters.
fn static_segments(path: &str) -> impl Iterator<Item = &str> {
    path.split('/')
        .filter(|s| !s.is_empty() && !s.starts_with('{') && !s.starts_with('$'))
}

/// The description up to its first blank line.
fn first_paragraph(text: &str) -> &str {
    let text = text.trim_start();
    text.find("\n\n").map_or(text, |i| &text[..i])
}

/// Words of an API that the stop-word list would drop although they name
/// a resource (Microsoft Graph's `/me`), mapped for documents and queries
/// alike.
const API_WORDS: &[(&str, &str)] = &[
    ("me", "authenticated user"),
    // abbreviations, as paths and requests both write them
    ("pr", "pull request"),
    ("prs", "pull requests"),
    ("repo", "repository"),
    ("repos", "repositories"),
    ("org", "organization"),
    ("orgs", "organizations"),
    ("todo", "todo task"),
];

/// Words as a model writes them, mapped to the words APIs use (keeping
/// the model's word where an API may use it too). Applied to queries only:
/// expanding the documents' words as well would let every document that
/// merely mentions a word match its synonyms.
const VOCABULARY: &[(&str, &str)] = &[
    // get
    ("fetch", "get"),
    ("show", "get"),
    ("read", "get read"),
    ("retrieve", "get"),
    ("view", "get"),
    ("lookup", "get"),
    ("display", "get"),
    ("see", "get"),
    // delete
    ("remove", "delete remove"),
    ("erase", "delete"),
    ("destroy", "delete"),
    ("drop", "delete"),
    ("purge", "delete"),
    ("unregister", "delete"),
    // create
    ("add", "create add"),
    ("new", "create"),
    ("make", "create"),
    ("open", "create open"),
    ("register", "create register"),
    ("start", "create start"),
    // update
    ("modify", "update"),
    ("change", "update"),
    ("edit", "update"),
    ("rename", "update name"),
    ("patch", "update"),
    // list
    ("enumerate", "list"),
    ("browse", "list"),
    // nouns and abbreviations
    // filler that names no resource
    ("details", ""),
    ("detail", ""),
    ("info", ""),
    ("information", ""),
    ("rerun", "rerun re run"),
    ("my", "authenticated user"),
    ("mine", "authenticated user"),
    ("protect", "protect protection"),
    ("ticket", "issue"),
    ("tickets", "issues"),
    ("email", "mail message email"),
    ("emails", "mail messages email"),
    ("mail", "mail message"),
    ("mailbox", "mail message mailbox"),
    // verbs a model uses for what APIs call otherwise
    ("submit", "create submit"),
    ("post", "create post send"),
    ("send", "send create"),
    ("trigger", "dispatch run trigger"),
    ("store", "create update store"),
    ("save", "create update save"),
    ("find", "search find"),
    ("assign", "assign assignee add"),
    ("schedule", "create event schedule"),
    ("contributed", "contributor"),
    ("profile", "profile user"),
    ("meeting", "event meeting"),
    ("meetings", "events meetings"),
    ("secret", "secret"),
    ("ci", "actions workflow"),
    ("gist", "gist"),
    ("env", "environment"),
    ("config", "configuration config"),
    ("settings", "settings configuration"),
];

/// Splits `snake_case`, `camelCase`, paths and punctuation into lower-case
/// words, maps the [`VOCABULARY`], then stems and drops stop words (the
/// crate's English tokenizer).
struct ToolTokenizer {
    inner: DefaultTokenizer,
}

impl ToolTokenizer {
    fn new() -> Self {
        Self {
            inner: DefaultTokenizer::builder()
                .language_mode(Language::English)
                .normalization(true)
                .stemming(false)
                .stopwords(true)
                .build(),
        }
    }
}

/// `text` with words of `vocabulary` replaced.
fn map_words(text: &str, vocabulary: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for word in split_words(text) {
        let mapped = vocabulary
            .iter()
            .find(|(from, _)| *from == word)
            .map_or(word.as_str(), |(_, to)| to);
        out.push_str(mapped);
        out.push(' ');
    }
    out
}

impl Tokenizer for ToolTokenizer {
    fn tokenize(&self, input_text: &str) -> Vec<String> {
        let text = map_words(input_text, API_WORDS);
        let mut tokens = self.inner.tokenize(&text);
        for t in &mut tokens {
            singular(t);
        }
        tokens
    }
}

/// Plural to singular, the one inflection API words and requests differ
/// in most (`repositories`/`repository`, `pulls`/`pull`). Deliberately
/// lighter than a full stemmer, which merges words an API keeps apart
/// (`manager`/`managed`, `assignments`/`assign`).
fn singular(word: &mut String) {
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

/// Lower-case words of `text`, split at anything not alphanumeric and at
/// lower-to-upper case changes (`getRepoContent` → get repo content).
fn split_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in text.chars() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && prev_lower && !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
            word.extend(c.to_lowercase());
        } else {
            prev_lower = false;
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}
