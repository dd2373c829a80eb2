//! The names an operation could take, most concise first: the assignment
//! (see [`super::assign`]) gives each operation the first candidate no
//! other operation wants, so a name carries only as much context as it
//! needs to be unique in its document.

use super::words::{
    ADJECTIVES, PREPOSITIONS, VERBS, clean_words, is_plural, plural, same_word, singular,
    snake_case,
};
use super::{MAX_LEN, hashed};

/// Namespaces whose words say less than the API means (`pulls/create` opens
/// a pull request).
const NAMESPACE_ALIASES: &[(&str, &[&str])] = &[("pulls", &["pull", "requests"])];

/// Words that carry no meaning in a name: vendor prefixes of type names
/// (`microsoft.graph.user`).
const NOISE: &[&str] = &["microsoft", "graph"];

/// Candidate names for an operation, most concise first, each valid
/// (`[a-z0-9_]`, at most [`MAX_LEN`]); never empty.
pub fn candidates(operation_id: Option<&str>, method: &str, path: &str) -> Vec<String> {
    let mut out = match operation_id
        .filter(|id| meaningful_operation_id(id) && !spells_method_path(id, method, path))
    {
        Some(id) => from_operation_id(id, method, path),
        None => vec![fit(from_method_path(method, path))],
    };
    out.dedup();
    let mut seen = std::collections::HashSet::new();
    out.retain(|n| !n.is_empty() && seen.insert(n.clone()));
    if out.is_empty() {
        out.push(fit(from_method_path(method, path)));
    }
    out
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
        if path_words.is_empty() && is_prefix_segment(&words) {
            continue;
        }
        path_words.extend(words);
    }
    id_words.first().map(String::as_str) == Some(method.to_ascii_lowercase().as_str())
        && id_words[1..] == path_words[..]
}

fn from_operation_id(id: &str, method: &str, path: &str) -> Vec<String> {
    if let Some((ns, action)) = id.split_once('/')
        && !action.contains('/')
        && !ns.is_empty()
    {
        return namespaced(ns, action, method);
    }
    if id.contains('.') && !id.contains(char::is_whitespace) {
        return dotted(id, method, path);
    }
    vec![fit(clean_words(id))]
}

/// The leading verb phrase of `words` (`create`, `or`, `update`) and what
/// follows it.
fn split_verb(words: &[String]) -> (Vec<String>, Vec<String>) {
    let is_verb = |i: usize| words.get(i).is_some_and(|w| VERBS.contains(&w.as_str()));
    if !is_verb(0) {
        return (Vec::new(), words.to_vec());
    }
    let mut n = 1;
    if words[0] == "bulk" && is_verb(1) {
        n = 2;
    }
    while words
        .get(n)
        .is_some_and(|w| matches!(w.as_str(), "or" | "and"))
        && is_verb(n + 1)
    {
        n += 2;
    }
    (words[..n].to_vec(), words[n..].to_vec())
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
fn namespaced(ns: &str, action: &str, method: &str) -> Vec<String> {
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
        return vec![fit(words)];
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
        out.push(fit(short));
    }
    out.push(fit(long));
    out
}

/// Microsoft Graph's `context.context.VerbNoun` ids: the action first, then
/// as much of the context (nearest first) as uniqueness needs.
fn dotted(id: &str, method: &str, path: &str) -> Vec<String> {
    let segments: Vec<&str> = id.split('.').filter(|s| !s.is_empty()).collect();
    let Some((action, context)) = segments.split_last() else {
        return vec![fit(clean_words(id))];
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
        out.push(fit(verb.iter().chain(&rest).cloned().collect()));
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
        out.push(fit(verb
            .iter()
            .chain(&qualifier)
            .chain(&rest)
            .cloned()
            .collect()));
    }
    if out.is_empty() {
        out.push(fit(from_method_path(method, path)));
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

/// Words of a name from the HTTP method and path template (see the module
/// docs of [`super`]).
pub fn from_method_path(method: &str, path: &str) -> Vec<String> {
    let mut segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let mut count = false;
    if segments.last() == Some(&"$count") {
        segments.pop();
        count = true;
    }
    let mut nouns: Vec<Vec<String>> = Vec::new();
    let mut ends_with_param = false;
    for seg in &segments {
        if is_param(seg) {
            ends_with_param = true;
            if let Some(last) = nouns.last_mut().and_then(|n| n.last_mut()) {
                *last = singular(last);
            }
            continue;
        }
        ends_with_param = false;
        let words = segment_words(seg);
        if words.is_empty() || (nouns.is_empty() && is_prefix_segment(&words)) {
            continue;
        }
        nouns.push(words);
    }
    // `POST /accounts/{id}/reject` → `reject_account`.
    let mut action = None;
    if method.eq_ignore_ascii_case("post")
        && !ends_with_param
        && nouns.len() > 1
        && nouns
            .last()
            .is_some_and(|n| n.len() == 1 && VERBS.contains(&n[0].as_str()))
    {
        action = nouns.pop().and_then(|mut n| n.pop());
        ends_with_param = segments.len() > 1 && is_param(segments[segments.len() - 2]);
    }
    let last_plural = nouns
        .last()
        .and_then(|n| n.last())
        .is_some_and(|w| is_plural(w));
    let verb = if let Some(action) = &action {
        action.as_str()
    } else if count {
        "count"
    } else {
        match method.to_ascii_uppercase().as_str() {
            "GET" if !ends_with_param && last_plural => "list",
            "GET" => "get",
            // A POST to one item changes it (Stripe, many RPC-style APIs).
            "POST" if ends_with_param => "update",
            "POST" => "create",
            "PUT" => "replace",
            "PATCH" => "update",
            "DELETE" => "delete",
            other => {
                let mut words = vec![other.to_ascii_lowercase()];
                words.extend(noun_or_root(nouns));
                return words;
            }
        }
    };
    let create_one = verb == "create" && !ends_with_param && last_plural;
    let mut words = vec![verb.to_string()];
    words.extend(noun_or_root(nouns));
    if create_one && let Some(last) = words.last_mut() {
        // POST /pets creates one pet.
        *last = singular(last);
    }
    words
}

/// A path segment's words: a dotted type or function name keeps its last
/// part (`microsoft.graph.incidentReport()` → `incident`, `report`), `$`
/// markers lose the `$`.
fn segment_words(seg: &str) -> Vec<String> {
    let seg = seg.split('(').next().unwrap_or_default();
    let seg = seg.rsplit('.').next().unwrap_or_default();
    clean_words(seg)
}

fn noun_or_root(nouns: Vec<Vec<String>>) -> Vec<String> {
    if nouns.is_empty() {
        vec!["root".to_string()]
    } else {
        nouns.into_iter().flatten().collect()
    }
}

fn is_param(segment: &str) -> bool {
    segment.starts_with('{') && segment.ends_with('}')
}

/// `api`, `rest`, `v1`, `v2beta` … carry no meaning in a tool name.
fn is_prefix_segment(words: &[String]) -> bool {
    let joined = words.join("_");
    joined == "api"
        || joined == "rest"
        || (joined.starts_with('v')
            && joined[1..].starts_with(|c: char| c.is_ascii_digit())
            && joined.len() <= 8)
}

/// Joins words into a valid name of at most [`MAX_LEN`] characters,
/// dropping the least informative words first: a word already said, then
/// context right after the verb, leftmost first (the verb and the final
/// noun phrase say most). Only a name whose verb and last word alone are
/// too long ends in a hash.
pub fn fit(words: Vec<String>) -> String {
    let mut words: Vec<String> = words.into_iter().filter(|w| !w.is_empty()).collect();
    if words.is_empty() {
        return "tool".to_string();
    }
    if words[0].starts_with(|c: char| c.is_ascii_digit()) {
        words.insert(0, "op".to_string());
    }
    // A phrase naming again what the name already said adds nothing:
    // `list_issue_field_values_for_issue` → `list_issue_field_values`.
    let mut i = 2;
    while i + 1 < words.len() + 1 && i < words.len() {
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
    let len = |w: &[String]| w.iter().map(String::len).sum::<usize>() + w.len().saturating_sub(1);
    if len(&words) <= MAX_LEN {
        return words.join("_");
    }
    // 1. Words already said (keeping the first of each).
    let mut i = 1;
    while i < words.len() && len(&words) > MAX_LEN {
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
    while len(&words) > MAX_LEN && words.len() > 2 {
        words.remove(1);
        while words.len() > 2 && PREPOSITIONS.contains(&words[1].as_str()) {
            words.remove(1);
        }
    }
    let name = words.join("_");
    if name.len() <= MAX_LEN {
        name
    } else {
        hashed(&name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(id: &str, method: &str, path: &str) -> String {
        candidates(Some(id), method, path).remove(0)
    }

    #[test]
    fn camel_case_ids_are_snake_cased() {
        assert_eq!(
            candidates(Some("getPetById"), "get", "/pets/{id}"),
            ["get_pet_by_id"]
        );
    }

    #[test]
    fn namespaced_ids_read_verb_first_without_repeating_the_namespace() {
        let c = |id: &str| candidates(Some(id), "get", "/x");
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
            candidates(Some("copilot/copilot-users-usage-metrics"), "get", "/x"),
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
            candidates(Some("users.user.ListUser"), "get", "/users"),
            ["list_users"]
        );
        assert_eq!(
            candidates(
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
            candidates(
                Some("PostAccountsAccountBankAccounts"),
                "post",
                "/v1/accounts/{account}/bank_accounts"
            ),
            ["create_account_bank_account"]
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
