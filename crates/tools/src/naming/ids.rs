//! Names from an operationId: GitHub's `namespace/verb-rest`, Microsoft
//! Graph's `context.context.VerbNoun`, ASP.NET/Azure's `Controller_Action`,
//! Django's `noun_noun_verb`, springfox's `verbNounUsingPOST`, and plain
//! `verbNoun`, each read verb first without framework words or HTTP methods.

use super::path;
use super::words::{
    ADJECTIVES, PREPOSITIONS, clean_words, is_plural, is_verb, plural, same_word, singular,
    snake_case, split_verb, split_verb_if,
};

/// Namespaces whose words say less than the API means (`pulls/create` opens
/// a pull request).
const NAMESPACE_ALIASES: &[(&str, &[&str])] = &[("pulls", &["pull", "requests"])];

/// Words that carry no meaning in a name: vendor prefixes of type names
/// (`microsoft.graph.user`).
const NOISE: &[&str] = &["microsoft", "graph"];

/// Whether an operationId says something a method + path would not: it
/// has letters, no `{`, is not a generic `operation1`/`op_2`, and does not
/// end in a machine-made hex disambiguator (`Get.Count.drives-7027`).
pub fn meaningful_operation_id(id: &str) -> bool {
    let snake = snake_case(id);
    if snake.is_empty() || id.contains('{') || !snake.chars().any(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    if let Some((_, tail)) = id.rsplit_once('-')
        && tail.len() == 4
        && tail.chars().all(|c| c.is_ascii_hexdigit())
        && id.contains('.')
    {
        return false;
    }
    let generic = snake.trim_end_matches(|c: char| c.is_ascii_digit() || c == '_');
    !matches!(
        generic,
        "op" | "operation" | "operation_id" | "endpoint" | "id"
    )
}

/// Whether an id only spells its method and path (Stripe's
/// `PostAccountsAccountBankAccounts` for `POST /v1/accounts/{account}/bank_accounts`):
/// the path then names the operation better.
pub(super) fn spells_method_path(id: &str, method: &str, path: &str) -> bool {
    let id_words = clean_words(id);
    let mut path_words: Vec<String> = Vec::new();
    for seg in path.split('/').filter(|s| !s.is_empty()) {
        let words = clean_words(seg);
        if path_words.is_empty() && path::is_prefix_segment(&words) {
            continue;
        }
        path_words.extend(words);
    }
    id_words.first().map(String::as_str) == Some(method.to_ascii_lowercase().as_str())
        && id_words[1..] == path_words[..]
}

/// Candidate word lists from an operationId, most concise first, each led
/// by `verb`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct IdNames {
    /// The word lists.
    pub names: Vec<Vec<String>>,
    /// The verb phrase every list starts with.
    pub verb: Vec<String>,
    /// The verb is no API verb the id is sure of: the method's (the id has
    /// none), an HTTP method's name, or an English verb no API list has
    /// (`quoteProcessBatch`'s `quote`). A summary's specific verb says more.
    pub weak: bool,
}

/// `said` is the verb the operation's summary starts with: an English verb
/// no API list has leads a plain or `Controller_Action` id only when the
/// summary says it too (`feed` in `Popular_Brands_Feed` is a noun).
pub(super) fn from_operation_id(id: &str, method: &str, path: &str, said: Option<&str>) -> IdNames {
    let full = id;
    let id = without_framework(id, method, path);
    // AWS's `GET_AttachInstances` beside `POST_AttachInstances`: the action
    // without the method, and with it when the two need telling apart.
    if let Some((m, rest)) = id.split_once('_')
        && m.chars().all(|c| c.is_ascii_uppercase())
        && super::english::HTTP_METHODS.contains(&m.to_ascii_lowercase().as_str())
        && rest.chars().any(|c| c.is_ascii_alphabetic())
    {
        let mut names = from_operation_id(rest, method, path, said);
        names.names.extend(plain(id, method, path, said).names);
        return names;
    }
    let mut names = from_id_shapes(id, method, path, said);
    // When what a framework added told operations apart (FastAPI's
    // `getDealers_getDealersByID_get`, springfox's `…UsingGET_1`), their
    // paths still do.
    if full != id {
        names.names.extend(path::names(method, path));
    }
    names.weak |= names.verb.first().is_none_or(|v| !is_verb(v));
    names
}

fn from_id_shapes(id: &str, method: &str, path: &str, said: Option<&str>) -> IdNames {
    if let Some((ns, action)) = id.split_once('/')
        && !action.contains('/')
        && !ns.is_empty()
    {
        return namespaced(ns, action, method);
    }
    if id.contains('.') && !id.contains(char::is_whitespace) {
        let segments: Vec<&str> = id.split('.').filter(|s| !s.is_empty()).collect();
        return contextual(&segments, method_verb(method), method, path, None)
            .unwrap_or_else(|| plain(id, method, path, said));
    }
    // ASP.NET/Azure `Controller_Action` (`Recipients_DeleteRecipient`,
    // `DedicatedCloudNodes_Delete`): camelCase segments joined by `_`.
    if id.contains('_') && id.contains(|c: char| c.is_ascii_uppercase()) {
        let segments: Vec<&str> = id.split('_').filter(|s| !s.is_empty()).collect();
        if segments.len() > 1
            && !is_lone_verb(segments[0])
            && let Some(at) = segments.iter().rposition(|s| starts_with_verb(s, said))
            && at > 0
        {
            let action = segments[at..].join("_");
            let mut parts = segments[..at].to_vec();
            parts.push(&action);
            let verb = path_verb(method, path);
            if let Some(names) = contextual(&parts, &verb, method, path, Some(said.unwrap_or(""))) {
                return names;
            }
        }
    }
    plain(id, method, path, said)
}

/// The id without what frameworks add to it: springfox's `UsingPOST`
/// (`updateCredentialSecretUsingPOST`, `getUsersUsingGET_1`), a
/// de-duplicating `_2` tail, and FastAPI's path and method
/// (`update_app_api_v1_app__app_id___put`: the function's name, the path
/// with every non-word character a `_`, then `_` and the method).
fn without_framework<'a>(id: &'a str, method: &str, path: &str) -> &'a str {
    let fastapi: String = path
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .chain(std::iter::once('_'))
        .chain(method.to_ascii_lowercase().chars())
        .collect();
    if let Some(head) = id.strip_suffix(fastapi.as_str())
        && head.chars().any(|c| c.is_ascii_alphabetic())
    {
        return head;
    }
    let mut id = id;
    // `Most_Popular_Brands_Feed(5)`.
    if let Some(head) = id.strip_suffix(')')
        && let Some((head, n)) = head.rsplit_once('(')
        && !n.is_empty()
        && n.chars().all(|c| c.is_ascii_digit())
    {
        id = head;
    }
    if let Some((head, tail)) = id.rsplit_once('_')
        && !tail.is_empty()
        && tail.chars().all(|c| c.is_ascii_digit())
        && head.chars().any(|c| c.is_ascii_alphabetic())
    {
        id = head;
    }
    for m in super::english::HTTP_METHODS {
        let suffix = format!("Using{}", m.to_ascii_uppercase());
        if let Some(head) = id.strip_suffix(suffix.as_str())
            && !head.is_empty()
        {
            return head;
        }
    }
    // The operation's own method last, in capitals (`List_Contracts_GET`,
    // `HooksPOST`), says the method again.
    let m = method.to_ascii_uppercase();
    if id.ends_with(&m) && snake_case(id).ends_with(&format!("_{}", m.to_ascii_lowercase())) {
        let head = id[..id.len() - m.len()].trim_end_matches(['_', '-', '.']);
        if head.chars().any(|c| c.is_ascii_alphabetic()) {
            return head;
        }
    }
    id
}

/// Framework words: a NestJS `UsersController_findAll` names a class.
const FRAMEWORK_WORDS: &[&str] = &["controller", "controllers"];

fn is_verb_word(w: &str) -> bool {
    is_verb(w) || super::english::HTTP_METHODS.contains(&w) || super::english::phrasal_compound(w)
}

/// HTTP method names that are no verb of their own in an id
/// (`TimesheetSubmission_Post`); `get` and `delete` are.
fn is_method_name(w: &str) -> bool {
    matches!(w, "post" | "put" | "patch" | "head" | "options")
}

fn starts_with_verb(segment: &str, said: Option<&str>) -> bool {
    clean_words(segment)
        .first()
        .is_some_and(|w| is_verb_word(w) || said == Some(w.as_str()))
}

/// A segment that is a verb alone (`CREATE_NoteAttachment_for_User`): the
/// id reads verb first already.
fn is_lone_verb(segment: &str) -> bool {
    let words = clean_words(segment);
    let capitals = segment.chars().all(|c| c.is_ascii_uppercase());
    words.len() == 1
        && (is_verb_word(&words[0]) || (capitals && super::english::lexical_verb(&words[0])))
}

/// The verb the method and path say: `list` or `get` by the path's shape,
/// `create` or `update` for a POST, a verb-led last segment's verb.
fn path_verb(method: &str, path: &str) -> String {
    path::from_method_path(method, path)
        .into_iter()
        .next()
        .unwrap_or_else(|| method_verb(method).to_string())
}

/// A plain id: `getPetById`, Django's `dcim_regions_delete`, `paymentsDelete`,
/// `Brands`. The first verb leads; words before it follow it; an HTTP
/// method's name is the verb the method and path say.
fn plain(id: &str, method: &str, path: &str, said: Option<&str>) -> IdNames {
    let mut words: Vec<String> = clean_words(id)
        .into_iter()
        .filter(|w| !w.chars().all(|c| c.is_ascii_digit()))
        .collect();
    if words.is_empty() {
        words = clean_words(id);
    }
    let http = |w: &str| super::english::HTTP_METHODS.contains(&w);
    // The verb: the first word if it can be one (ids are verb first:
    // `watchNamespacedPod`, `DescribeSignalingChannel`); else an API verb
    // or the summary's further on, not after a preposition
    // (`paymentsDelete`; `Runs_ForRun` has none).
    let verb_at = |i: usize, w: &String| {
        (is_verb_word(w) || said == Some(w.as_str()))
            && !PREPOSITIONS.contains(&words[i - 1].as_str())
    };
    let first = words[0].as_str();
    let later = words
        .iter()
        .enumerate()
        .skip(1)
        .find(|&(i, w)| verb_at(i, w))
        .map(|(i, _)| i);
    // An English verb first yields to an API verb right after it or last
    // (`issueGetComment`, `Quote_Get`), not to one inside a compound
    // further on (`watch…DaemonSetList…`).
    let english_first =
        super::english::verb_first(first) && later.is_none_or(|k| k != 1 && k + 1 != words.len());
    let found = if is_verb_word(first) || said == Some(first) || english_first {
        Some(0)
    } else {
        later
    };
    let Some(mut at) = found else {
        // No verb: the method's, with the id as its object, as written.
        let verb = vec![path_verb(method, path)];
        let rest = words;
        return IdNames {
            names: vec![verb.iter().chain(&rest).cloned().collect()],
            verb,
            weak: true,
        };
    };
    let lead = |w: &str| said == Some(w) || is_verb_word(w) || super::english::verb_first(w);
    if at == 0 {
        let (verb, _) = split_verb_if(&words, lead);
        // `getQuery`, "Execute an ad-hoc query": the method's name is no
        // verb a summary cannot better.
        let weak = verb.len() == 1 && http(&verb[0]);
        return IdNames {
            names: vec![words],
            verb,
            weak,
        };
    }
    // `idPostDeployApplicationFile`: the method's name before a verb goes.
    if is_method_name(&words[at])
        && words
            .get(at + 1)
            .is_some_and(|w| !http(w) && (is_verb(w) || super::english::lexical_verb(w)))
    {
        words.remove(at);
    }
    let (mut verb, mut after) = split_verb_if(&words[at..], lead);
    // `BatchGetImage`: a batch of the action is the action's.
    if at > 0 && matches!(words[at - 1].as_str(), "batch" | "bulk") {
        at -= 1;
        verb.insert(0, words[at].clone());
    }
    // `l2vpns_bulk_partial_update`: `bulk` wants its verb.
    if verb.len() == 1
        && matches!(verb[0].as_str(), "batch" | "bulk")
        && let Some(j) = after.iter().position(|w| is_verb_word(w))
    {
        verb.push(after.remove(j));
    }
    let mut weak = false;
    let mut said_method: Option<Vec<String>> = None;
    if verb.len() == 1 && http(&verb[0]) && verb[0] == method.to_ascii_lowercase() {
        // `Job_Patch` reads `update_job`, or `patch_job` beside an update.
        said_method = Some(verb.clone());
        verb = vec![path_verb(method, path)];
        weak = true;
    }
    if words
        .first()
        .is_some_and(|w| path::is_prefix_segment(std::slice::from_ref(w)))
        && at > 1
    {
        words.remove(0);
        at -= 1;
    }
    let mut rest: Vec<String> = words[..at].to_vec();
    rest.extend(after);
    agree(&verb, &mut rest, path);
    let mut names = vec![verb.iter().chain(&rest).cloned().collect::<Vec<_>>()];
    if let Some(m) = said_method {
        names.push(m.into_iter().chain(rest).collect());
    }
    IdNames { names, verb, weak }
}

/// The verb an HTTP method implies when the action has none.
fn method_verb(method: &str) -> &'static str {
    match method.to_ascii_uppercase().as_str() {
        "POST" => "create",
        "PUT" => "set",
        "PATCH" => "update",
        "DELETE" => "delete",
        "QUERY" => "query",
        _ => "get",
    }
}

fn is_content(w: &str) -> bool {
    !PREPOSITIONS.contains(&w) && !ADJECTIVES.contains(&w)
}

/// GitHub's `namespace/verb-rest` ids (see the module docs of
/// [`super`] for the rules).
fn namespaced(ns: &str, action: &str, method: &str) -> IdNames {
    let ns_clean = clean_words(ns);
    // A namespace of several words (`code-security`, `copilot-spaces`) is
    // too specific to leave out even when the name would be unique without.
    let droppable = ns_clean.len() == 1;
    let mut ns_words: Vec<String> = match NAMESPACE_ALIASES
        .iter()
        .find(|(k, _)| ns_clean.len() == 1 && ns_clean[0] == *k)
    {
        Some((_, alias)) => alias.iter().map(|w| w.to_string()).collect(),
        None => ns_clean,
    };
    let action_words = clean_words(action);
    let (mut verb, mut rest) = split_verb(&action_words);
    let mut weak = false;
    if verb.is_empty() {
        if ns_words.len() == 1 && is_verb(&ns_words[0]) {
            // `search/code` → `search_code`.
            verb = std::mem::take(&mut ns_words);
        } else if let Some(pos) = action_words
            .iter()
            .position(|w| matches!(w.as_str(), "get" | "create" | "update" | "delete" | "list"))
        {
            // `custom-properties-for-repos-get-values` → `get_custom_…_values`.
            let (v, after) = split_verb(&action_words[pos..]);
            verb = v;
            rest = action_words[..pos].to_vec();
            rest.extend(after);
        } else {
            verb = vec![method_verb(method).to_string()];
            weak = true;
        }
    }
    let takes_plural = matches!(verb[0].as_str(), "list" | "search" | "bulk");
    let adjectives = rest
        .iter()
        .take_while(|w| ADJECTIVES.contains(&w.as_str()))
        .count();
    let tail = &rest[adjectives..];
    let ns_needed = tail.is_empty()
        || PREPOSITIONS.contains(&tail[0].as_str())
        || tail.iter().all(|w| is_verb(w));
    let content: Vec<&String> = ns_words.iter().filter(|w| is_content(w)).collect();
    let first_shared = rest
        .iter()
        .position(|r| content.iter().any(|n| same_word(n, r)));
    let missing: Vec<String> = ns_words
        .iter()
        .filter(|n| !rest.iter().any(|r| same_word(n, r)))
        .cloned()
        .collect();
    if let Some(at) = first_shared.filter(|_| !ns_needed) {
        // The action names the namespace already: add only the missing
        // words, in front of the first shared one (`agent-tasks/list-tasks`
        // → `list_agent_tasks`).
        let missing: Vec<String> = missing.into_iter().filter(|w| is_content(w)).collect();
        let mut words = verb.clone();
        words.extend(rest[..at].iter().cloned());
        words.extend(missing);
        words.extend(rest[at..].iter().cloned());
        return IdNames {
            names: vec![words],
            verb,
            weak,
        };
    }
    let mut noun = missing;
    if let Some(last) = noun.last_mut() {
        *last = if takes_plural && ns_needed {
            plural(last)
        } else {
            singular(last)
        };
    }
    let mut long = verb.clone();
    long.extend(rest[..adjectives].iter().cloned());
    long.extend(noun);
    long.extend(tail.iter().cloned());
    let mut out = Vec::new();
    if !ns_needed && droppable {
        let mut short = verb.clone();
        short.extend(rest.iter().cloned());
        out.push(short);
    }
    out.push(long);
    IdNames {
        names: out,
        verb,
        weak,
    }
}

/// Ids of context segments and an action: Microsoft Graph's
/// `context.context.VerbNoun`, Azure's `Controller_Action`. The action
/// first, then as much of the context (nearest first) as uniqueness needs;
/// an action without a verb takes `default_verb`, and so does an HTTP
/// method's name outside Graph (`CostCenters_PostCostCenter`; Graph's
/// `….post` is an action named `post`). `None` without segments.
fn contextual(
    segments: &[&str],
    default_verb: &str,
    method: &str,
    path: &str,
    controller: Option<&str>,
) -> Option<IdNames> {
    let dotted = controller.is_none();
    let (action, context) = segments.split_last()?;
    let action_words = clean_words(action);
    // A dotted id's last segment is a method, so any English verb may lead
    // it; a controller's action only an API verb or the summary's.
    let (mut verb, mut rest) = match controller {
        None => split_verb(&action_words),
        Some(said) => split_verb_if(&action_words, |w| said == w),
    };
    let mut weak = false;
    if verb.is_empty() {
        verb = vec![default_verb.to_string()];
        rest = action_words;
        weak = true;
    } else if verb.len() == 1 && is_method_name(&verb[0]) && !dotted {
        // `CostCenters_PostCostCenter`: the method's name is no verb.
        verb = vec![default_verb.to_string()];
        weak = true;
    }
    rest.retain(|w| !NOISE.contains(&w.as_str()));
    agree(&verb, &mut rest, path);
    let context: Vec<Vec<String>> = context
        .iter()
        .rev()
        .map(|s| {
            clean_words(s)
                .into_iter()
                .filter(|w| !NOISE.contains(&w.as_str()) && !FRAMEWORK_WORDS.contains(&w.as_str()))
                .collect::<Vec<_>>()
        })
        .filter(|w| !w.is_empty())
        .collect();
    let mut out = Vec::new();
    // `ListByResourceGroup` names no object: the context is it.
    let object_less = rest
        .first()
        .is_none_or(|w| PREPOSITIONS.contains(&w.as_str()));
    if !object_less {
        out.push(verb.iter().chain(&rest).cloned().collect());
    }
    // `qualifier` grows leftwards, one context segment at a time.
    let mut qualifier: Vec<String> = Vec::new();
    for seg in &context {
        let fresh: Vec<String> = seg
            .iter()
            .filter(|w| {
                !qualifier.iter().chain(&rest).any(|q| same_word(q, w)) && !verb.contains(w)
            })
            .cloned()
            .collect();
        if fresh.is_empty() {
            continue;
        }
        let mut q = fresh;
        if let Some(last) = q.last_mut() {
            // The object of a list is many (`Snapshots_List`).
            let many = object_less && qualifier.is_empty() && verb[0] == "list";
            *last = if many { plural(last) } else { singular(last) };
        }
        q.extend(qualifier);
        qualifier = q;
        out.push(
            verb.iter()
                .chain(&qualifier)
                .chain(&rest)
                .cloned()
                .collect(),
        );
    }
    if out.is_empty() {
        out.push(path::from_method_path(method, path));
    }
    Some(IdNames {
        names: out,
        verb,
        weak,
    })
}

/// Plural/singular agreement with what the operation returns: a list
/// returns many (`ListUser` → `list_users`); a get, update or delete of a
/// path ending in a parameter touches one (`DeleteUserStatuses` →
/// `delete_user_status`). The head noun is the last word before the first
/// preposition.
fn agree(verb: &[String], rest: &mut [String], path: &str) {
    let head = rest
        .iter()
        .position(|w| PREPOSITIONS.contains(&w.as_str()))
        .unwrap_or(rest.len());
    let Some(word) = head.checked_sub(1).and_then(|i| rest.get_mut(i)) else {
        return;
    };
    let one = path.trim_end_matches('/').ends_with('}');
    match verb.first().map(String::as_str) {
        Some("list") if !one => *word = plural(word),
        Some("get" | "update" | "delete" | "replace" | "set") if one && is_plural(word) => {
            *word = singular(word)
        }
        Some("create") if !one => *word = singular(word),
        _ => {}
    }
}
