//! The names an operation could take, most concise first: the assignment
//! (see [`super::assign`]) gives each operation the first candidate no
//! other operation wants, so a name carries only as much context as it
//! needs to be unique in its document.

use super::path;
use super::words::{
    ADJECTIVES, PREPOSITIONS, VERBS, clean_words, is_plural, plural, repeats_word, same_word,
    singular, snake_case, split_verb, unrepeat,
};
use super::{MAX_LEN, hashed};

/// Namespaces whose words say less than the API means (`pulls/create` opens
/// a pull request).
const NAMESPACE_ALIASES: &[(&str, &[&str])] = &[("pulls", &["pull", "requests"])];

/// Words that carry no meaning in a name: vendor prefixes of type names
/// (`microsoft.graph.user`).
const NOISE: &[&str] = &["microsoft", "graph"];

/// Candidate names for an operation, most concise first, each valid
/// (`[a-z0-9_]`, at most [`MAX_LEN`]) and saying no word twice when it can
/// be helped; never empty. The last element is not a name but the
/// operation itself, `method /path`: [`super::assign`] reads it to tell
/// apart operations that still want the same name when their candidates
/// run out.
pub fn candidates(operation_id: Option<&str>, method: &str, path: &str) -> Vec<String> {
    let words = match operation_id
        .filter(|id| meaningful_operation_id(id) && !spells_method_path(id, method, path))
    {
        Some(id) => from_operation_id(id, method, path),
        None => path::names(method, path),
    };
    let mut out: Vec<String> = words.into_iter().flat_map(name).collect();
    // A name repeating a word is a last resort: kept only if every
    // candidate does.
    let repeating: Vec<bool> = out.iter().map(|n| repeats(n)).collect();
    if repeating.contains(&false) {
        let mut flags = repeating.into_iter();
        out.retain(|_| !flags.next().unwrap_or(false));
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|n| !n.is_empty() && seen.insert(n.clone()));
    if out.is_empty() {
        out.push(fit(path::from_method_path(method, path)));
    }
    out.push(phrase(method, path));
    out
}

/// The operation as the last element of [`candidates`]: `get /pets/{id}`.
pub(super) fn phrase(method: &str, path: &str) -> String {
    format!("{} {path}", method.to_ascii_lowercase())
}

/// Whether a candidate is a name rather than the operation's phrase.
pub(super) fn is_name(candidate: &str) -> bool {
    !candidate.contains(' ')
}

/// Names from words: as [`fit`], each content word said once (see
/// [`unrepeat`]: the later of two repeats dropped, then, as a more
/// specific variant, the earlier).
fn name(words: Vec<String>) -> Vec<String> {
    let words = drop_said_phrases(words);
    if repeats_word(&words) {
        vec![fit(unrepeat(&words, false)), fit(unrepeat(&words, true))]
    } else {
        vec![fit(words)]
    }
}

fn repeats(name: &str) -> bool {
    repeats_word(&name.split('_').collect::<Vec<_>>())
}

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
fn spells_method_path(id: &str, method: &str, path: &str) -> bool {
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

fn from_operation_id(id: &str, method: &str, path: &str) -> Vec<Vec<String>> {
    if let Some((ns, action)) = id.split_once('/')
        && !action.contains('/')
        && !ns.is_empty()
    {
        return namespaced(ns, action, method);
    }
    if id.contains('.') && !id.contains(char::is_whitespace) {
        return dotted(id, method, path);
    }
    vec![clean_words(id)]
}

/// The verb an HTTP method implies when the action has none.
fn method_verb(method: &str) -> &'static str {
    match method.to_ascii_uppercase().as_str() {
        "POST" => "create",
        "PUT" => "set",
        "PATCH" => "update",
        "DELETE" => "delete",
        _ => "get",
    }
}

fn is_content(w: &str) -> bool {
    !PREPOSITIONS.contains(&w) && !ADJECTIVES.contains(&w)
}

/// GitHub's `namespace/verb-rest` ids (see the module docs of
/// [`super`] for the rules).
fn namespaced(ns: &str, action: &str, method: &str) -> Vec<Vec<String>> {
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
    if verb.is_empty() {
        if ns_words.len() == 1 && VERBS.contains(&ns_words[0].as_str()) {
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
        || tail.iter().all(|w| VERBS.contains(&w.as_str()));
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
        let mut words = verb;
        words.extend(rest[..at].iter().cloned());
        words.extend(missing);
        words.extend(rest[at..].iter().cloned());
        return vec![words];
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
        let mut short = verb;
        short.extend(rest.iter().cloned());
        out.push(short);
    }
    out.push(long);
    out
}

/// Microsoft Graph's `context.context.VerbNoun` ids: the action first, then
/// as much of the context (nearest first) as uniqueness needs.
fn dotted(id: &str, method: &str, path: &str) -> Vec<Vec<String>> {
    let segments: Vec<&str> = id.split('.').filter(|s| !s.is_empty()).collect();
    let Some((action, context)) = segments.split_last() else {
        return vec![clean_words(id)];
    };
    let action_words = clean_words(action);
    let (mut verb, mut rest) = split_verb(&action_words);
    if verb.is_empty() {
        verb = vec![method_verb(method).to_string()];
        rest = action_words;
    }
    rest.retain(|w| !NOISE.contains(&w.as_str()));
    agree(&verb, &mut rest, path);
    let context: Vec<Vec<String>> = context
        .iter()
        .rev()
        .map(|s| {
            clean_words(s)
                .into_iter()
                .filter(|w| !NOISE.contains(&w.as_str()))
                .collect::<Vec<_>>()
        })
        .filter(|w| !w.is_empty())
        .collect();
    let mut out = Vec::new();
    if !rest.is_empty() {
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
            *last = singular(last);
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
    out
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
        Some("list") => *word = plural(word),
        Some("get" | "update" | "delete" | "replace" | "set") if one && is_plural(word) => {
            *word = singular(word)
        }
        Some("create") if !one => *word = singular(word),
        _ => {}
    }
}

/// Joins words into a valid name of at most [`MAX_LEN`] characters,
/// dropping the least informative words first: a word already said, then
/// context right after the verb, leftmost first (the verb and the final
/// noun phrase say most). Only a name whose verb and last word alone are
/// too long ends in a hash.
pub fn fit(words: Vec<String>) -> String {
    fit_within(words, MAX_LEN)
}

/// [`fit`] into `max` characters (`max` ≤ [`MAX_LEN`]; only a hashed name
/// may be longer).
pub(super) fn fit_within(words: Vec<String>, max: usize) -> String {
    let mut words: Vec<String> = words.into_iter().filter(|w| !w.is_empty()).collect();
    if words.is_empty() {
        return "tool".to_string();
    }
    if words[0].starts_with(|c: char| c.is_ascii_digit()) {
        words.insert(0, "op".to_string());
    }
    let mut words = drop_said_phrases(words);
    let len = |w: &[String]| w.iter().map(String::len).sum::<usize>() + w.len().saturating_sub(1);
    if len(&words) <= max {
        return words.join("_");
    }
    // 1. Words already said (keeping the first of each).
    let mut i = 1;
    while i < words.len() && len(&words) > max {
        let repeated = words[..i].iter().any(|p| same_word(p, &words[i]))
            && !PREPOSITIONS.contains(&words[i].as_str());
        if repeated {
            words.remove(i);
        } else {
            i += 1;
        }
    }
    // 2. Context after the verb, leftmost first, with any preposition it
    //    leaves dangling.
    while len(&words) > max && words.len() > 2 {
        words.remove(1);
        while words.len() > 2 && PREPOSITIONS.contains(&words[1].as_str()) {
            words.remove(1);
        }
    }
    let name = words.join("_");
    if name.len() <= max {
        name
    } else {
        hashed(&name)
    }
}

/// A phrase naming again what the name already said adds nothing:
/// `list_issue_field_values_for_issue` → `list_issue_field_values`.
fn drop_said_phrases(mut words: Vec<String>) -> Vec<String> {
    let mut i = 2;
    while i < words.len() {
        let said = |w: &String| {
            words[1..i - 1]
                .iter()
                .any(|p| !PREPOSITIONS.contains(&p.as_str()) && same_word(p, w))
        };
        if PREPOSITIONS.contains(&words[i - 1].as_str()) && said(&words[i]) {
            words.drain(i - 1..=i);
        } else {
            i += 1;
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::path::from_method_path;
    use super::*;

    /// The names among the candidates (without the closing phrase).
    fn cands(id: Option<&str>, method: &str, path: &str) -> Vec<String> {
        let all = candidates(id, method, path);
        assert_eq!(all.last(), Some(&phrase(method, path)));
        all.into_iter().filter(|c| is_name(c)).collect()
    }

    fn first(id: &str, method: &str, path: &str) -> String {
        cands(Some(id), method, path).remove(0)
    }

    #[test]
    fn camel_case_ids_are_snake_cased() {
        assert_eq!(
            cands(Some("getPetById"), "get", "/pets/{id}"),
            ["get_pet_by_id"]
        );
    }

    #[test]
    fn namespaced_ids_read_verb_first_without_repeating_the_namespace() {
        let c = |id: &str| cands(Some(id), "get", "/x");
        assert_eq!(c("repos/get"), ["get_repo"]);
        assert_eq!(c("users/list"), ["list_users"]);
        assert_eq!(c("repos/list-for-org"), ["list_repos_for_org"]);
        assert_eq!(
            c("issues/create-comment"),
            ["create_comment", "create_issue_comment"]
        );
        assert_eq!(c("classroom/list-classrooms"), ["list_classrooms"]);
        assert_eq!(c("classroom/get-a-classroom"), ["get_classroom"]);
        assert_eq!(
            c("agent-tasks/list-tasks-for-repo"),
            ["list_agent_tasks_for_repo"]
        );
        assert_eq!(
            c("actions/re-run-workflow"),
            ["rerun_workflow", "rerun_action_workflow"]
        );
        assert_eq!(c("pulls/create"), ["create_pull_request"]);
        assert_eq!(c("pulls/list"), ["list_pull_requests"]);
        assert_eq!(c("users/get-authenticated"), ["get_authenticated_user"]);
        assert_eq!(c("search/code"), ["search_code"]);
        assert_eq!(
            cands(Some("copilot/copilot-users-usage-metrics"), "get", "/x"),
            ["get_copilot_users_usage_metrics"]
        );
        assert_eq!(
            c("orgs/custom-properties-for-repos-get-organization-values"),
            ["get_custom_properties_for_repos_organization_values"]
        );
    }

    #[test]
    fn dotted_ids_take_context_nearest_first() {
        assert_eq!(
            cands(Some("users.user.ListUser"), "get", "/users"),
            ["list_users"]
        );
        assert_eq!(
            cands(
                Some("me.calendarView.ListInstances"),
                "get",
                "/me/calendarView/{event-id}/instances"
            ),
            [
                "list_instances",
                "list_calendar_view_instances",
                "list_me_calendar_view_instances"
            ]
        );
        assert_eq!(
            first(
                "deviceAppManagement.mobileAppConfigurations.DeleteUserStatuses",
                "delete",
                "/deviceAppManagement/x/{id}/userStatuses/{s}"
            ),
            "delete_user_status"
        );
    }

    #[test]
    fn hex_disambiguated_ids_fall_back_to_the_path() {
        assert!(!meaningful_operation_id("Get.Count.drives-7027"));
        assert_eq!(
            first("Get.Count.drives-7027", "get", "/drives/$count"),
            "count_drives"
        );
        assert_eq!(
            first(
                "x",
                "get",
                "/admin/issues/{id}/microsoft.graph.incidentReport()"
            ),
            "x"
        );
        assert_eq!(
            fit(from_method_path(
                "get",
                "/admin/issues/{id}/microsoft.graph.incidentReport()"
            )),
            "get_admin_issue_incident_report"
        );
    }

    #[test]
    fn meaningless_operation_ids_are_recognised() {
        for id in ["op1", "operation_2", "123", "get_/pets/{id}", "", "___"] {
            assert!(!meaningful_operation_id(id), "{id}");
        }
        assert!(meaningful_operation_id("findPetsByStatus"));
    }

    #[test]
    fn names_from_method_and_path() {
        let n = |m: &str, p: &str| fit(from_method_path(m, p));
        assert_eq!(n("get", "/pets"), "list_pets");
        assert_eq!(n("get", "/pets/{id}"), "get_pet");
        assert_eq!(n("post", "/pets"), "create_pet");
        assert_eq!(n("put", "/pets/{id}"), "replace_pet");
        assert_eq!(n("patch", "/pets/{id}"), "update_pet");
        assert_eq!(n("delete", "/pets/{id}"), "delete_pet");
        assert_eq!(n("get", "/users/{id}/pets"), "list_user_pets");
        assert_eq!(n("get", "/api/v2/status"), "get_status");
        assert_eq!(n("get", "/"), "get_root");
        assert_eq!(n("head", "/pets/{id}"), "head_pet");
        assert_eq!(n("get", "/caches"), "list_caches");
        assert_eq!(n("get", "/data"), "get_data");
        assert_eq!(n("post", "/v1/accounts/{account}"), "update_account");
        assert_eq!(n("post", "/v1/accounts/{account}/reject"), "reject_account");
        assert_eq!(
            cands(
                Some("PostAccountsAccountBankAccounts"),
                "post",
                "/v1/accounts/{account}/bank_accounts"
            ),
            ["create_bank_account"]
        );
    }

    #[test]
    fn long_names_drop_words_not_meaning() {
        let words: Vec<String> = "get_users_user_calendar_groups_calendar_group_calendars_calendar_calendar_view_event_single_value_extended_properties"
            .split('_')
            .map(str::to_string)
            .collect();
        let name = fit(words);
        assert!(name.len() <= MAX_LEN, "{name}");
        assert!(name.starts_with("get_"), "{name}");
        assert!(
            name.ends_with("_single_value_extended_properties"),
            "{name}"
        );
        assert!(!name.contains(|c: char| c.is_ascii_digit()), "{name}");
        let huge = vec!["get".to_string(), "x".repeat(80)];
        let h = fit(huge.clone());
        assert!(h.len() <= MAX_LEN);
        assert_eq!(h, fit(huge));
    }
}
