//! Finding a tool by what a model asks for: a BM25 index (the `bm25`
//! crate: English stemming, stop words, Okapi scoring) over each tool's
//! name, title, description, tags, path and argument names, built once at
//! start-up and searched by the discovery meta-tool `search_tools`.
//!
//! Ranking is the crate's; what this module adds is what BM25 cannot know:
//! how an API's words are written (`snake_case`, `camelCase`, `/paths/{id}`
//! are split into words, compounds like `worklog` into the words the
//! documents use alone) and the words a model may use instead of an API's.
//! Each word of a request stands with its alternatives, weighted below it:
//! its base form and other inflections (`starred` → `star`, `assign` →
//! `assigned`), the words WordNet derives from it (`follows` → `follower`,
//! `unassign` → `assignee`; see [`lexicon`]), and the HTTP method's verb it
//! asks for ("remove" → `delete`). A tool scores the best alternative of
//! each word, so an exact match always counts more.
//!
//! What no word list relates ("move an issue to done" and Jira's
//! transitions, "trigger a workflow" and GitHub's dispatch) comes from a static
//! text embedding ([`embedding`]): the cosine between the request and each
//! tool is added to the tool's lexical score, relative to the request's
//! best (see [`DENSE_WEIGHT`]). Last, what the request asks for besides
//! its words ([`request`]): a read or a change ("assign an issue to a
//! user" changes something, "which issues are assigned to me" reads; a
//! tool reads when its annotations say so, so a `POST …/filter` is a
//! read), one item ("get a user by id") or every item ("all the runs").
//!
//! From the rest of the crate it reads only the tool model's `ToolHead`
//! (what an entry is cut from).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use bm25::{DefaultTokenizer, Embedder, EmbedderBuilder, Embedding, Language, Scorer, Tokenizer};

mod embedding;
mod lexicon;
mod request;

use request::{METHOD_VERBS, QUESTION, asks_for_many, asks_for_one, intent};

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
    /// Whether it only reads (its `readOnlyHint`): a `GET`, or a `POST`
    /// whose words say it reads (`POST /variables/filter`; see the tools
    /// crate's `semantics`), for the method a request's verb asks for.
    pub read_only: bool,
    /// Whether it destroys (its `destructiveHint`): a `DELETE`, or a
    /// `POST …/delete`.
    pub destructive: bool,
}

impl SearchEntry<'_> {
    /// What an entry of `method` is by default (`GET`/`HEAD` read, a
    /// `DELETE` destroys), for entries made without annotations.
    pub fn method_reads(method: &str) -> (bool, bool) {
        (matches!(method, "GET" | "HEAD"), method == "DELETE")
    }
}

impl<'a> From<&'a openapi2mcp_runtime::catalog::ToolHead> for SearchEntry<'a> {
    /// What the search index reads of a tool: the one mapping from a head
    /// to an entry, for the server's index and anything that must index
    /// exactly as it does.
    fn from(head: &'a openapi2mcp_runtime::catalog::ToolHead) -> Self {
        SearchEntry {
            name: &head.name,
            title: &head.title,
            description: &head.description,
            tags: &head.origin.tags,
            method: &head.origin.method,
            path: &head.origin.path,
            params: &head.args,
            read_only: head.annotations.read_only_hint,
            destructive: head.annotations.destructive_hint,
        }
    }
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
    /// Each tool's text embedding ([`embedding`]), quantized: `dims`
    /// bytes a tool (Graph's 11,000 tools take 1.5 MB instead of 6).
    vectors: embedding::Quantized,
    /// Whether each tool only reads (its annotation: a `GET`, or a `POST`
    /// that filters or queries), for the method a request's verb asks for
    /// ([`intent`]).
    reads: Vec<bool>,
    /// Whether each tool reads one item (a read whose path ends in a
    /// parameter: `GET /users/{user-id}`), for a request asking for one
    /// ([`asks_for_one`]).
    items: Vec<bool>,
}

/// One indexed field: its BM25 index and weight.
struct Field {
    weight: f32,
    embedder: Embedder<u32, ToolTokenizer>,
    scorer: Scorer<u32>,
}

impl Field {
    fn new(weight: f32, texts: &[String], vocabulary: &Arc<HashSet<String>>) -> Self {
        let corpus: Vec<&str> = texts.iter().map(String::as_str).collect();
        let embedder = EmbedderBuilder::<u32, ToolTokenizer>::with_tokenizer_and_fit_to_corpus(
            ToolTokenizer::new(Arc::clone(vocabulary)),
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

/// Weight of the cosine between a request's embedding and a tool's,
/// added to the tool's lexical score divided by the request's best
/// lexical score (so the lexical part is at most 1). Chosen over the three
/// query sets of tests/fixtures/ by their mean top-5 accuracy; leaving
/// each set out in turn picks 2 to 3 (bench/README.md, Search).
const DENSE_WEIGHT: f32 = 2.5;

/// How much of a description the embedding reads: the beginning of its
/// first sentence says what the tool does; the rest (conditions, formats,
/// permissions) pulls a tool's vector away from its purpose. Chosen over
/// the three query sets of tests/fixtures/ by their mean top-5 accuracy
/// (45 to 100 characters score within two requests of each other;
/// bench/README.md, Search).
const DENSE_DESCRIPTION_CHARS: usize = 45;

/// How much a tool loses when its method is not the one the request's
/// verb asks for ([`intent`]): a preference, as large as a good word
/// match, not a filter (a request's first word can mislead).
const INTENT_PENALTY: f32 = 0.4;

/// How much a tool that does not read one item loses when the request
/// asks for one ([`asks_for_one`]): a preference, like
/// [`INTENT_PENALTY`].
const ONE_ITEM_PENALTY: f32 = 0.4;

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
        let mut vocabulary = HashSet::new();
        let mut embedder = embedding::Embedder::new();
        let mut vectors = embedding::Quantized::new(embedder.dims());
        let mut vector = vec![0.0f32; embedder.dims()];
        let mut reads = Vec::new();
        let mut items = Vec::new();
        for entry in entries {
            embedder.embed(dense_text(&entry).iter().map(String::as_str), &mut vector);
            vectors.push(&vector);
            for mut word in split_words(entry.description) {
                lexicon::singular(&mut word);
                vocabulary.insert(word);
            }
            let depth = static_segments(resource_path(&entry)).count().max(1);
            prior.push(1.0 / (1.0 + DEPTH_PENALTY * (depth - 1) as f32));
            for (field, text) in texts.iter_mut().zip(field_texts(&entry)) {
                field.push(text);
            }
            reads.push(entry.read_only);
            items.push(entry.read_only && entry.path.trim_end_matches('/').ends_with('}'));
            names.push(entry.name.to_string());
            tags.push(entry.tags.iter().map(|t| t.to_lowercase()).collect());
        }
        // Every word of the documents, in the singular, for splitting
        // compounds: the indexed texts and the whole descriptions.
        for mut word in texts.iter().flatten().flat_map(|t| split_words(t)) {
            lexicon::singular(&mut word);
            vocabulary.insert(word);
        }
        let vocabulary = Arc::new(vocabulary);
        let fields = texts
            .iter()
            .zip(WEIGHTS)
            .map(|(t, w)| Field::new(w, t, &vocabulary))
            .collect();
        Self {
            fields,
            names,
            tags,
            prior,
            vectors,
            reads,
            items,
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
        // Per tool: the weighted BM25 sum, and how well each word of the
        // request matched (1 for the word itself, less for an alternative):
        // a tool matching every word of the request beats one matching a
        // single rare word many times.
        let intent = intent(query);
        // "get a user by id", "show me one event": a read of one item,
        // unless the request's verb asks for a change; the words that say
        // so name no resource and are left out of the matching.
        let (asks_one, resource_words) = asks_for_one(query);
        let one = asks_one && intent != Some(false);
        // "show me all the variables": many, not one.
        let many = !one && intent != Some(false) && asks_for_many(query);
        let matched = if one && !resource_words.is_empty() {
            resource_words.as_str()
        } else {
            query
        };
        let groups = expand(matched);
        let mut slots: HashMap<u32, usize> = HashMap::new();
        let mut tools: Vec<(u32, f32, Vec<f32>)> = Vec::new();
        let mut scored = vec![false; groups.len()];
        for field in &self.fields {
            for (g, group) in groups.iter().enumerate() {
                // The group's tokens in this field, each with its best weight.
                let mut tokens: Vec<(bm25::TokenEmbedding<u32>, f32)> = Vec::new();
                for (word, weight) in &group.words {
                    for token in field.embedder.embed(word).0 {
                        match tokens.iter_mut().find(|(t, _)| t.index == token.index) {
                            Some((_, w)) => *w = w.max(*weight),
                            None => tokens.push((token, *weight)),
                        }
                    }
                }
                scored[g] |= !tokens.is_empty() && !group.bonus;
                let mut best: HashMap<u32, (f32, f32)> = HashMap::new();
                for (token, weight) in tokens {
                    for d in field.scorer.matches(&Embedding(vec![token])) {
                        let b = best.entry(d.id).or_default();
                        b.0 = b.0.max(weight * d.score);
                        b.1 = b.1.max(weight);
                    }
                }
                for (id, (score, weight)) in best {
                    let slot = *slots.entry(id).or_insert_with(|| {
                        tools.push((id, 0.0, vec![0.0; groups.len()]));
                        tools.len() - 1
                    });
                    let tool = &mut tools[slot];
                    tool.1 += field.weight * score;
                    if !group.bonus {
                        tool.2[g] = tool.2[g].max(weight);
                    }
                }
            }
        }
        let words = scored.iter().filter(|s| **s).count().max(1) as f32;
        // The lexical score of each tool, relative to the best one.
        let mut lexical = vec![0.0f32; self.names.len()];
        for (id, score, matched) in tools {
            let coverage = matched.iter().sum::<f32>() / words;
            lexical[id as usize] = score * coverage.powf(COVERAGE_POWER) * self.prior[id as usize];
        }
        let best = (0..lexical.len())
            .filter(|&i| allowed(i))
            .map(|i| lexical[i])
            .fold(0.0f32, f32::max);
        let mut hits = Vec::new();
        // A request sharing no word with any tool (of the tag asked for)
        // finds nothing: closeness of meaning alone would rank every tool,
        // so it only reorders tools the request's words reach and those
        // near them.
        if best > 0.0 {
            let mut request = vec![0.0f32; self.vectors.dims()];
            embedding::Embedder::new().embed(
                split_words(matched).iter().map(String::as_str),
                &mut request,
            );
            hits = (0..self.names.len())
                .filter(|&i| allowed(i))
                .map(|i| {
                    let mut score =
                        lexical[i] / best + DENSE_WEIGHT * self.vectors.dot(i, &request);
                    if intent.is_some_and(|reads| reads != self.reads[i]) {
                        score -= INTENT_PENALTY;
                    }
                    if one && !self.items[i] {
                        score -= ONE_ITEM_PENALTY;
                    }
                    if many && self.items[i] {
                        score -= ONE_ITEM_PENALTY;
                    }
                    Hit { index: i, score }
                })
                .collect();
        }
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
        let order = |a: &Hit, b: &Hit| b.score.total_cmp(&a.score).then(a.index.cmp(&b.index));
        if hits.len() > limit {
            hits.select_nth_unstable_by(limit, order);
            hits.truncate(limit);
        }
        hits.sort_by(order);
        hits
    }
}

/// The words the embedding reads of a tool: what it does (the method's
/// verb and the resource, as the first field), its title, where it is (the
/// path's other segments, tags), and how its description begins beyond
/// the title ([`about`]).
fn dense_text(e: &SearchEntry<'_>) -> Vec<String> {
    let [action, _, place, _, _] = field_texts(e);
    let description: String = about(e).chars().take(DENSE_DESCRIPTION_CHARS).collect();
    [
        action.as_str(),
        e.title,
        place.as_str(),
        description.as_str(),
    ]
    .iter()
    .flat_map(|t| split_words(t))
    .collect()
}

/// Last path segments that say a reading of what comes before them
/// (`POST /variables/filter`, `POST /collections/{id}/query`): the
/// resource read is the segment before.
const READING_SEGMENTS: &[&str] = &["filter", "search", "query", "list", "count", "find", "get"];

/// The text of each field of one tool, in [`WEIGHTS`] order. The verb of
/// what the tool does joins the name: a read on a collection lists, on an
/// item gets (a `GET`, or a `POST` that only reads: `POST
/// /variables/filter` lists variables); a `POST` creates, except to an
/// OData `$ref` collection (Microsoft Graph's `POST /groups/{id}/members/$ref`),
/// which adds an existing object to the collection, and one that
/// destroys (`POST …/delete`) deletes.
fn field_texts(e: &SearchEntry<'_>) -> [String; 5] {
    let description: String = about(e).chars().take(DESCRIPTION_CHARS).collect();
    let path = resource_path(e);
    let mut path_words: Vec<&str> = static_segments(path).collect();
    let post_reads = e.method == "POST" && e.read_only;
    // The resource acted on: the last static segment, without a dotted
    // namespace (`microsoft.graph.sendMail` acts as `sendMail`).
    let resource = path_words
        .pop()
        .map(|s| s.rsplit('.').next().unwrap_or(s))
        .unwrap_or_default();
    let on_item = path.ends_with('}');
    let verb = match e.method {
        "GET" | "HEAD" if on_item => "get",
        "GET" | "HEAD" => "list get",
        "POST" if post_reads && on_item => "get",
        "POST" if post_reads => "list get",
        "POST" if e.destructive => "delete",
        "POST" if path.ends_with("/$ref") => "add",
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

/// The path of what a tool acts on: its path, less a last segment that
/// says a reading of it when a `POST` only reads (`POST
/// /variables/filter` reads `/variables`).
fn resource_path<'a>(e: &SearchEntry<'a>) -> &'a str {
    let path = e.path.trim_end_matches('/');
    if e.method == "POST"
        && e.read_only
        && let Some((before, last)) = path.rsplit_once('/')
        && static_segments(before).next().is_some()
        && READING_SEGMENTS.contains(&last.to_ascii_lowercase().as_str())
    {
        return before;
    }
    path
}

/// The segments of a path template that are not parameters.
fn static_segments(path: &str) -> impl Iterator<Item = &str> {
    path.split('/')
        .filter(|s| !s.is_empty() && !s.starts_with('{') && !s.starts_with('$'))
}

/// What a tool's description says beyond its title: its first paragraph,
/// after a first paragraph that only repeats the title (the tools of most
/// documents begin their description with their summary, which the index
/// reads as the title already).
fn about<'a>(e: &SearchEntry<'a>) -> &'a str {
    let mut text = e.description.trim_start();
    let title = e.title.trim();
    if !title.is_empty()
        && let Some(rest) = text.strip_prefix(title)
        && (rest.is_empty() || rest.starts_with("\n\n") || rest.starts_with("\r\n\r\n"))
    {
        text = rest.trim_start();
    }
    first_paragraph(text)
}

/// The text up to its first blank line.
fn first_paragraph(text: &str) -> &str {
    let text = text.trim_start();
    text.find("\n\n").map_or(text, |i| &text[..i])
}

/// Abbreviations an API's paths and a model's requests both write
/// (`/repos`, "PR"), mapped for documents and requests alike. General
/// usage, kept small; everything else a request may say differently comes
/// from the [`lexicon`].
const ABBREVIATIONS: &[(&str, &str)] = &[
    ("pr", "pull request"),
    ("prs", "pull requests"),
    ("repo", "repository"),
    ("repos", "repositories"),
    ("org", "organization"),
    ("orgs", "organizations"),
    ("env", "environment"),
    ("config", "configuration"),
    ("auth", "authentication"),
];

/// The first person, which the stop-word list would drop although APIs
/// name a resource after it (Microsoft Graph's `/me`, Jira's `/myself`,
/// `/mypermissions`): in documents it reads as GitHub's "the authenticated
/// user"; in a request it favours tools about the authenticated user
/// without requiring them ("list the teams in my organization" is about
/// an organization).
const FIRST_PERSON: &[(&str, &str)] = &[
    ("i", "authenticated user"),
    ("me", "authenticated user"),
    ("my", "authenticated user"),
    ("mine", "authenticated user"),
    ("myself", "authenticated user"),
];

/// Words of a request that name neither an action nor a resource.
const FILLER: &[&str] = &["details", "detail", "info", "information"];

/// Weight of a word derived from the request's (`follower` for
/// "follows", `assignee` for "assign"), relative to the request's own
/// words: exact matches always count more.
const DERIVED: f32 = 0.8;
/// Weight of a method's verb for a request's verb ([`METHOD_VERBS`]).
const METHOD_VERB: f32 = 0.8;
/// Weight of another inflection of a request's word (`assigned` for
/// "assign"; the plural is the same word to the index). Below a derived
/// word: a participle in a document mostly describes a state ("issues
/// assigned to the authenticated user") rather than the action asked for.
const INFLECTED: f32 = 0.6;
/// Weight of the authenticated user for a request in the first person:
/// a word like any other, but one a tool need not match.
const FIRST_PERSON_WEIGHT: f32 = 1.0;

/// Most alternatives one word of a request is expanded to.
const MAX_ALTERNATIVES: usize = 12;

/// Most words of a request that are scored.
const MAX_WORDS: usize = 32;

/// Longest word split as a compound (`mypermissions` has 13 letters).
const MAX_COMPOUND_LEN: usize = 40;

/// One word of a request and what may stand for it, with weights.
#[derive(Debug, Default)]
struct Group {
    words: Vec<(String, f32)>,
    /// Whether the group only adds to a tool's score: a tool not matching
    /// it is not missing a word of the request.
    bonus: bool,
}

impl Group {
    fn of(words: &[(&str, f32)], bonus: bool) -> Self {
        Self {
            words: words.iter().map(|(w, f)| (w.to_string(), *f)).collect(),
            bonus,
        }
    }

    fn push(&mut self, word: &str, weight: f32) {
        if !self.words.iter().any(|(w, _)| w == word) {
            self.words.push((word.to_string(), weight));
        }
    }
}

/// A request as groups of alternatives, one group per word: the word
/// itself (weight 1), then what may stand for it in a document with a
/// lower weight. A tool is scored on the best alternative of each group.
fn expand(query: &str) -> Vec<Group> {
    let lexicon = lexicon::lexicon();
    let mut groups: Vec<Group> = Vec::new();
    let first = split_words(query).into_iter().next();
    if first.is_some_and(|w| QUESTION.contains(&w.as_str())) {
        groups.push(Group::of(&[("check", 1.0)], true));
    }
    let mut first_person = false;
    for chunk in query.split_whitespace() {
        // "to-do", "sign-in": the joined word is an alternative of the
        // first part's group.
        let joined: String = chunk
            .chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect();
        let parts = split_words(&map_words(chunk, &[ABBREVIATIONS]));
        for (i, word) in parts.iter().enumerate() {
            if FILLER.contains(&word.as_str()) {
                continue;
            }
            if FIRST_PERSON.iter().any(|(w, _)| w == word) {
                first_person = true;
                continue;
            }
            let mut group = Group::of(&[(word, 1.0)], false);
            if i == 0 && parts.len() > 1 && chunk.contains('-') {
                group.push(&joined, 1.0);
            }
            alternatives(lexicon, word, &mut group);
            // A reversal ("unassign", "unstar"): the action undone, and
            // what is done to undo it.
            if let Some(rest) = word.strip_prefix("un")
                && rest.len() >= 3
                && !lexicon.knows(word)
                && lexicon.knows(&lexicon.base(rest))
            {
                group.push(rest, DERIVED);
                alternatives(lexicon, rest, &mut group);
                groups.push(std::mem::take(&mut group));
                group = Group::of(&[("delete", DERIVED), ("remove", DERIVED)], true);
            }
            groups.push(group);
        }
    }
    if first_person {
        groups.push(Group::of(&[("authenticated", FIRST_PERSON_WEIGHT)], true));
    }
    for group in &mut groups {
        group.words.truncate(MAX_ALTERNATIVES);
    }
    groups.truncate(MAX_WORDS);
    groups
}

/// Adds to `group` what may stand for `word`: its base form and other
/// inflections, the method verb it asks for, the words derived from it.
fn alternatives(lexicon: &lexicon::Lexicon, word: &str, group: &mut Group) {
    let base = lexicon.base(word);
    if base != word {
        group.push(&base, 1.0);
    }
    for form in lexicon::inflections(&base) {
        group.push(&form, INFLECTED);
    }
    for (from, to) in METHOD_VERBS {
        if *from == base {
            group.push(to, METHOD_VERB);
        }
    }
    for d in lexicon.derived(&base) {
        group.push(d, DERIVED);
    }
}

/// Splits `snake_case`, `camelCase`, paths and punctuation into lower-case
/// words, maps the [`ABBREVIATIONS`], drops stop words (the crate's
/// English tokenizer), brings each word to its base form, and adds the
/// parts of a compound whose parts the documents also use alone
/// (`worklog` → `work log`, `mypermissions` → `my permissions`).
struct ToolTokenizer {
    inner: DefaultTokenizer,
    /// Every word of the indexed documents, for splitting compounds.
    vocabulary: Arc<HashSet<String>>,
}

impl ToolTokenizer {
    fn new(vocabulary: Arc<HashSet<String>>) -> Self {
        Self {
            inner: DefaultTokenizer::builder()
                .language_mode(Language::English)
                .normalization(true)
                .stemming(false)
                .stopwords(true)
                .build(),
            vocabulary,
        }
    }

    /// `word` as two words of the vocabulary (in the singular), each of
    /// three letters or more (or the first person's `my`), if it is one.
    /// Words past [`MAX_COMPOUND_LEN`] are none (trying every split of a
    /// request's megabyte-long word would take minutes).
    fn compound<'w>(&self, word: &'w str) -> Option<(&'w str, &'w str)> {
        if word.len() < 6 || word.len() > MAX_COMPOUND_LEN || !word.is_ascii() {
            return None;
        }
        (2..=word.len() - 3).find_map(|i| {
            let (head, tail) = word.split_at(i);
            let mut singular_tail = tail.to_string();
            lexicon::singular(&mut singular_tail);
            ((head.len() >= 3 || head == "my")
                && self.vocabulary.contains(head)
                && self.vocabulary.contains(&singular_tail))
            .then_some((head, tail))
        })
    }
}

/// `text` as its words, those of the `tables` replaced.
fn map_words(text: &str, tables: &[&[(&str, &str)]]) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for word in split_words(text) {
        let mapped = tables
            .iter()
            .flat_map(|t| t.iter())
            .find(|(from, _)| *from == word)
            .map_or(word.as_str(), |(_, to)| to);
        out.push_str(mapped);
        out.push(' ');
    }
    out
}

impl Tokenizer for ToolTokenizer {
    fn tokenize(&self, input_text: &str) -> Vec<String> {
        let text = map_words(input_text, &[ABBREVIATIONS, FIRST_PERSON]);
        let mut tokens = Vec::new();
        for token in self.inner.tokenize(&text) {
            if let Some((head, tail)) = self.compound(&token) {
                let parts = map_words(&format!("{head} {tail}"), &[FIRST_PERSON]);
                tokens.extend(self.inner.tokenize(&parts));
            }
            tokens.push(token);
        }
        let lexicon = lexicon::lexicon();
        for token in &mut tokens {
            *token = lexicon.base(token);
        }
        tokens
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

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;
