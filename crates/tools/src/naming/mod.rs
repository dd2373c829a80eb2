//! Tool names: `verb_noun` snake_case, `[a-z0-9_]`, at most 64 characters,
//! unique within the server and deterministic (the same document always
//! yields the same names). Names are what a model reads first, so they say
//! what the operation does in as few words as keep them unique.
//!
//! The rules, in order:
//! 1. `x-mcp.name` on the operation, sanitized; claimed before any other
//!    name, so an override never renames another tool.
//! 2. A meaningful `operationId` (letters, no `{`, not a generic
//!    `operation1`, no machine-made `-7027` hex tail):
//!    - `getPetById` → `get_pet_by_id` (snake_case);
//!    - GitHub's `namespace/verb-rest` reads verb first. A namespace word
//!      the action already says is not repeated (`classroom/list-classrooms`
//!      → `list_classrooms`); when the action shares one word of the
//!      namespace, the others go in front of it (`agent-tasks/list-tasks` →
//!      `list_agent_tasks`); otherwise the namespace is added only when the
//!      action has no noun of its own (`repos/get` → `get_repo`,
//!      `repos/list-for-org` → `list_repos_for_org`,
//!      `users/get-authenticated` → `get_authenticated_user`) or when
//!      another operation wants the same name (`issues/create-comment` and
//!      `gists/create-comment` → `create_issue_comment`,
//!      `create_gist_comment`). `pulls` reads `pull_request`;
//!      a namespace that is a verb leads (`search/code` → `search_code`);
//!      an action without a verb takes one from the method.
//!    - Microsoft Graph's `context.context.VerbNoun` reads
//!      `verb_noun`, with as much context, nearest first, as uniqueness
//!      needs (`me.calendarView.ListInstances` → `list_instances`, or
//!      `list_calendar_view_instances`, or `list_me_calendar_view_instances`).
//!    - Framework-made ids read verb first, without framework words or
//!      HTTP methods (see `ids`): `Recipients_DeleteRecipient` →
//!      `delete_recipient`, `updateCredentialSecretUsingPOST` →
//!      `update_credential_secret`, `dcim_regions_delete` →
//!      `delete_dcim_region`; an id without a verb takes the method's.
//!    - A verb the id is unsure of (none, an HTTP method's name, an English
//!      verb no API list has) yields to the summary's specific verb; so
//!      does one that only says what a method does, beside a summary of
//!      the document's own (`createFork`, "Fork a repository" →
//!      `fork_repository`), not beside a description standing in for one.
//! 3. Otherwise method + path: `GET /pets` → `list_pets`, `GET /pets/{id}`
//!    → `get_pet`, `POST /pets` → `create_pet`, `PUT …` → `replace_…`,
//!    `PATCH …` → `update_…`, `DELETE …` → `delete_…`, `…/$count` →
//!    `count_…`; static segments give the noun, each segment followed by a
//!    parameter singular (`GET /users/{id}/pets` → `list_user_pets`);
//!    version and `api` prefixes are skipped. A last segment led by a verb
//!    is the action (`POST /invoices/{id}/mark_uncollectible` →
//!    `mark_invoice_uncollectible`); a type cast (`…/microsoft.graph.group`)
//!    lists that type, or gets one after an id. A segment a later one
//!    repeats goes (see `path::unshared`). A file's extension is a format
//!    (`/spec.yaml` → `get_spec`).
//! 4. The summary (else the description's first sentence; see
//!    `summary`) when it starts with a verb: a verb that says more than
//!    the method names the operation with its object (`PATCH
//!    /contents/{path}` "Rename a file or directory" →
//!    `rename_file_or_directory`), then with the path's nouns; a generic
//!    one corrects a `POST`/`PUT`'s verb and names a path that names
//!    nothing the summary speaks of. Which words are verbs: WordNet 3.1
//!    (`english`, `verbs.txt`).
//!
//! 5. What the operation does, when its words say more than its method
//!    (`reading`; the caller reads the effect, see `crate::semantics`): a
//!    POST that only reads is named for its reading (`POST
//!    /work_queues/filter` → `list_work_queues`, `…/{id}/query` →
//!    `query_…`), and an add/get/update/delete segment after an item whose
//!    summary names another object acts inside the item (`POST
//!    /collections/{id}/delete`, "Deletes records in a collection" →
//!    `delete_collection_records`).
//!
//! Everywhere: compound words stay one word (`re-run` → `rerun`, `non`
//! before a word said twice: `noncompliance`), articles are dropped
//! (`get-a-classroom` → `get_classroom`), and a list's noun is plural, a
//! get/update/delete of one item's noun singular. No content word is said
//! twice (`words::unrepeat`; `list` of a list reads `get_…_lists`). A name
//! over 64 characters drops its least informative words first: words
//! already said, then the context right after the verb, leftmost first;
//! only a name whose verb and last word alone exceed 64 ends in a hash.
//! Names still equal after all that are told apart by their paths (see
//! `distinct::distinguish`: what one path says that the others do not);
//! only those whose paths add nothing get `_2`, `_3`, … in document order,
//! on the summary's verb when the summary gave one.

mod candidates;
mod distinct;
mod english;
mod ids;
mod path;
mod reading;
mod summary;
mod words;

use std::collections::{HashMap, HashSet};

/// Naming's maps and sets, hashed with foldhash: [`assign`] is the one step
/// of planning on a single core (Graph: 11,000 names in rounds), and the
/// word lookups are asked of every word of every operation.
type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;
/// A set hashed as [`FastMap`] is.
type FastSet<T> = HashSet<T, foldhash::fast::RandomState>;

pub use candidates::{Said, candidates, candidates_for, fit, meaningful_operation_id};
pub use path::from_method_path;
pub use words::{plural, repeats_word, singular, snake_case};

/// Longest tool name MCP clients accept reliably.
pub const MAX_LEN: usize = 64;

/// Makes any string a valid tool name: `[a-z0-9_]`, not empty, at most
/// [`MAX_LEN`] characters (words dropped as in [`fit`]).
pub fn sanitize(name: &str) -> String {
    fit(snake_case(name).split('_').map(str::to_string).collect())
}

/// `name` in the namespace `prefix` (`github` + `list_pulls` →
/// `github_list_pulls`), still at most [`MAX_LEN`]: a longer one keeps its
/// head and ends in a hash of the whole, so names that were distinct stay
/// distinct. An empty prefix leaves the name as it is.
pub fn prefixed(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        return name.to_string();
    }
    let full = format!("{prefix}_{name}");
    if full.len() <= MAX_LEN {
        full
    } else {
        hashed(&full)
    }
}

/// The last resort of [`fit`]: the head of `name` and an 8-digit hash of
/// all of it.
fn hashed(name: &str) -> String {
    let hash = format!("{:08x}", fnv1a(name) as u32);
    let budget = MAX_LEN - hash.len() - 1;
    let mut head = &name[..budget.min(name.len())];
    if let Some(cut) = head.rfind('_').filter(|&c| c > budget / 2) {
        head = &head[..cut];
    }
    format!("{head}_{hash}")
}

/// FNV-1a: tiny, stable across platforms and releases (unlike `DefaultHasher`).
fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// What an operation's words say it does beyond its method, as naming
/// needs it (the caller reads it: see `crate::semantics`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Effect {
    /// As its method says.
    #[default]
    AsMethod,
    /// A POST that only reads: named for reading.
    Reads,
}

/// The words an operation says what it does with, for reading its effect
/// (see `crate::semantics`), each in base form and lower case.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ActionWords {
    /// The verb phrase the summary (or description) starts with: `delete`;
    /// `bulk`, `delete`; `enable`, `or`, `disable`. Empty when it starts
    /// with none.
    pub summary: Vec<String>,
    /// The verb phrase the operationId says, as naming reads it
    /// (`collection_delete` → `delete`; `resetDatabase` → `reset`;
    /// `bulk_delete_flows` → `bulk`, `delete`); empty without an
    /// operationId or when the id says no verb it is sure of (the
    /// method's, in `query_form_exploded` of a POST).
    pub operation_id: Vec<String>,
    /// Every word of the operationId (`Client_CanDelete` → `client`,
    /// `can`, `delete`), for what surrounds its verb.
    pub operation_id_words: Vec<String>,
    /// The words of the path's last static segment when no parameter
    /// follows it (`POST /records/delete` → `delete`); empty otherwise.
    pub last_segment: Vec<String>,
    /// The verb the description starts with, in base form, when the
    /// operation has a summary too ("Read Flow Run History", then "Query
    /// for flow run history data." → `query`); empty otherwise.
    pub description: Vec<String>,
}

/// The [`ActionWords`] of an operation, read with the same grammar as its
/// name, with the verb of its `description` when it has a summary too.
pub fn action_words_described(said: &Said<'_>) -> ActionWords {
    let mut words = action_words(said);
    let description = said.description;
    // Its first word in base form: beside a summary that says a verb
    // already, "Query for …" is the imperative the grammar alone would
    // read as a noun before `for`.
    if let Some(description) = description.filter(|d| Some(*d) != said.summary)
        && let Some(first) = description.split_whitespace().next()
        && first.chars().all(|c| c.is_ascii_alphabetic())
        && let Some((base, _)) = english::verb_form(first)
    {
        words.description = vec![base];
    }
    words
}

/// The path's nouns as the summary grammar reads them: each segment's
/// last word where the path uses it as one (an item, or a plural).
fn path_nouns(shape: &path::Shape) -> Vec<String> {
    shape
        .segments
        .iter()
        .filter_map(|s| {
            let head = s.words.last()?;
            (s.item || words::is_plural(head)).then(|| head.clone())
        })
        .collect()
}

/// The [`ActionWords`] of an operation, read with the same grammar as its
/// name.
pub fn action_words(said: &Said<'_>) -> ActionWords {
    let shape = path::shape(said.path);
    let path_nouns = path_nouns(&shape);
    let summary = said
        .summary
        .and_then(|s| summary::action(s, &path_nouns))
        .map(|a| a.verb)
        .unwrap_or_default();
    let last_segment = match shape.segments.last() {
        Some(last) if !last.item => last.words.clone(),
        _ => Vec::new(),
    };
    let operation_id = said
        .operation_id
        .filter(|id| meaningful_operation_id(id))
        .map(|id| {
            let said_verb = summary.first().map(String::as_str);
            ids::from_operation_id(id, said.method, said.path, said_verb)
        })
        .filter(|names| !names.weak)
        .map(|names| names.verb)
        .unwrap_or_default();
    ActionWords {
        summary,
        operation_id,
        operation_id_words: said
            .operation_id
            .map(words::clean_words)
            .unwrap_or_default(),
        last_segment,
        description: Vec::new(),
    }
}

/// What one operation may be called.
#[derive(Debug, Clone, Default)]
pub struct NameRequest {
    /// Valid names, most concise first, then the operation as
    /// `method /path` (see [`candidates`]); at least one name.
    pub candidates: Vec<String>,
    /// An `x-mcp` name: claimed first and as is (or with `_2`).
    pub explicit: bool,
}

/// Gives every request a unique name. Explicit names are claimed first, in
/// order. Then, round by round, each operation proposes its current
/// candidate: a name proposed by one operation only and not yet taken is
/// granted; operations that want the same name all move to their next, more
/// specific candidate, so no operation gets the short name at the expense of
/// another. Operations out of candidates that still want the same name are
/// told apart by their paths (see `distinct::distinguish`); only those
/// whose paths add nothing take their last name with `_2`, `_3`… in
/// document order.
pub fn assign(requests: &[NameRequest]) -> Vec<String> {
    let mut registry = NameRegistry::default();
    let mut names: Vec<Option<String>> = vec![None; requests.len()];
    let split: Vec<(Vec<&str>, Option<&str>)> = requests
        .iter()
        .map(|r| {
            let mut names: Vec<&str> = r
                .candidates
                .iter()
                .map(String::as_str)
                .filter(|c| candidates::is_name(c))
                .collect();
            if names.is_empty() {
                names.push("tool");
            }
            let phrase = r
                .candidates
                .last()
                .map(String::as_str)
                .filter(|c| !candidates::is_name(c));
            (names, phrase)
        })
        .collect();
    for (i, _) in requests.iter().enumerate().filter(|(_, r)| r.explicit) {
        names[i] = Some(registry.claim(split[i].0[0]));
    }
    let mut level = vec![0usize; requests.len()];
    let mut pending: Vec<usize> = (0..requests.len())
        .filter(|&i| !requests[i].explicit)
        .collect();
    // Who holds each granted name, and who is left wanting one.
    let mut holder: FastMap<String, usize> = FastMap::default();
    let mut stuck: Vec<(String, Vec<usize>)> = Vec::new();
    let mut stuck_at: FastMap<String, usize> = FastMap::default();
    let mut wanted: FastMap<&str, usize> = FastMap::default();
    while !pending.is_empty() {
        let proposal = |i: usize| split[i].0[level[i]];
        wanted.clear();
        wanted.reserve(pending.len());
        for &i in &pending {
            *wanted.entry(proposal(i)).or_default() += 1;
        }
        let mut next = Vec::new();
        for &i in &pending {
            let name = proposal(i);
            let free =
                wanted[name] == 1 && !registry.taken.contains(name) && !stuck_at.contains_key(name);
            if free {
                names[i] = Some(registry.claim(name));
                holder.insert(name.to_string(), i);
            } else if level[i] + 1 < split[i].0.len() {
                next.push(i);
            } else {
                let at = *stuck_at.entry(name.to_string()).or_insert_with(|| {
                    stuck.push((name.to_string(), Vec::new()));
                    stuck.len() - 1
                });
                stuck[at].1.push(i);
            }
        }
        for &i in &next {
            level[i] += 1;
        }
        pending = next;
    }
    for (base, mut members) in stuck {
        members.sort_unstable();
        // The operation holding the name, if any, is told apart too, but
        // keeps its name.
        let held = holder.get(&base).copied();
        let mut phrases: Vec<Option<&str>> = members.iter().map(|&i| split[i].1).collect();
        if let Some(h) = held {
            phrases.push(split[h].1);
        }
        let derived = distinct::distinguish(&base, &phrases);
        // A derived name says more than the base even when two operations
        // share it (and one takes it with `_2`).
        let mut rest = Vec::new();
        for (k, &i) in members.iter().enumerate() {
            match &derived[k] {
                Some(n) if !stuck_at.contains_key(n) => names[i] = Some(registry.claim(n)),
                _ => rest.push(i),
            }
        }
        // The rest take a counter, on their most specific name that keeps
        // their first name's verb when that says more than a method (a
        // summary's `follow_…`, not the path's `update_…`).
        let method_verb = |name: &str| {
            matches!(
                name.split('_').next(),
                Some("get" | "list" | "create" | "update" | "replace" | "delete" | "count")
            )
        };
        for i in rest {
            let own = &split[i].0;
            let verb = own[0].split('_').next();
            let keeps = own
                .iter()
                .rev()
                .find(|c| c.split('_').next() == verb)
                .copied()
                .filter(|k| method_verb(&base) && !method_verb(k))
                .unwrap_or(&base);
            names[i] = Some(registry.claim(keeps));
        }
    }
    names
        .into_iter()
        .map(|n| n.unwrap_or_else(|| "tool".to_string()))
        .collect()
}

/// Hands out unique names in a stable order.
#[derive(Debug, Default)]
pub struct NameRegistry {
    taken: HashSet<String, foldhash::fast::RandomState>,
}

impl NameRegistry {
    /// Marks `name` (already valid) as used without claiming it twice.
    pub fn reserve(&mut self, name: &str) -> bool {
        self.taken.insert(name.to_string())
    }

    /// Returns `name`, or `name_2`, `name_3` … whichever is free first,
    /// staying within [`MAX_LEN`].
    pub fn claim(&mut self, name: &str) -> String {
        if self.taken.insert(name.to_string()) {
            return name.to_string();
        }
        for n in 2.. {
            let suffix = format!("_{n}");
            // Words dropped as in `fit`, not characters cut mid-word.
            let mut base = name.to_string();
            if base.len() + suffix.len() > MAX_LEN {
                let words = name.split('_').map(str::to_string).collect();
                base = candidates::fit_within(words, MAX_LEN - suffix.len());
                base.truncate(MAX_LEN - suffix.len());
            }
            let candidate = format!("{}{suffix}", base.trim_end_matches('_'));
            if self.taken.insert(candidate.clone()) {
                return candidate;
            }
        }
        unreachable!("an unbounded counter always finds a free name")
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
