//! Telling apart operations whose candidates all end in the same name
//! (Microsoft Graph reaches one resource by many paths:
//! `/me/calendar/events/{id}` and `/me/calendars/{c}/events/{id}`), by the
//! path segments one has and the others lack, before any numeric suffix.

use super::MAX_LEN;
use super::path::{Kind, Segment, shape};
use super::words::{PREPOSITIONS, is_function_word, is_plural, repeats_word, same_word, singular};

/// For operations that all want `base` and have run out of candidates
/// (`phrases` are their `method /path`, see [`super::candidates`]): the
/// name each could take instead, `base` with what its own path says that
/// the others' paths do not. `None` where its path adds nothing `base`
/// does not say already.
///
/// What a path adds, segment by segment (segments all paths share say
/// nothing):
/// - a segment whose words `base` lacks takes the place of its
///   counterpart in the other path (`/list/items2` beside `/list/items` →
///   `list_items2`), or, without one, goes after the verb
///   (`/groups/{id}/sites/…` → `get_group_site_…`);
/// - a modifier the name lacks goes before the word it modifies
///   (`transitiveMemberOf` beside `memberOf` → `…_transitive_member_of_…`);
/// - a segment repeating the one before it is `nested`
///   (`sectionGroups/{a}/sectionGroups/{b}` → `…_nested_section_group`);
/// - a singleton the name says already (beside a collection of the same
///   thing, or on the way to something else) is the `default` one
///   (`/me/calendar/…` beside `/me/calendars/{id}/…` or `/me/…` →
///   `…_me_default_calendar_…`);
/// - a call's parameters go last (`(period=…)` → `…_by_period`);
/// - a collection beside its items (`/balance/history` beside
///   `/balance/history/{id}`) is listed: `get_…` becomes `list_…`.
///
/// No word is said twice, and words are dropped to fit [`MAX_LEN`] from
/// what `base` said, never from what tells the paths apart.
pub(super) fn distinguish(base: &str, phrases: &[Option<&str>]) -> Vec<Option<String>> {
    let paths: Vec<Option<Vec<Segment>>> = phrases
        .iter()
        .map(|p| {
            p.and_then(|p| p.split_once(' '))
                .map(|(_, path)| shape(path).segments)
        })
        .collect();
    let known: Vec<&Vec<Segment>> = paths.iter().flatten().collect();
    let own: Vec<Option<Vec<(usize, &Segment)>>> = paths
        .iter()
        .map(|p| p.as_ref().map(|segs| own_segments(segs, &known)))
        .collect();
    let base_words: Vec<String> = base.split('_').map(str::to_string).collect();
    own.iter()
        .enumerate()
        .map(|(i, mine)| {
            let mine = mine.as_ref()?;
            let segs = paths[i].as_ref()?;
            // Others' own segments, with their distance from their path's end.
            let others: Vec<(usize, &Segment)> = own
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .filter_map(|(j, o)| Some((paths[j].as_ref()?.len(), o.as_ref()?)))
                .flat_map(|(len, o)| o.iter().map(move |(k, s)| (len - 1 - k, *s)))
                .collect();
            render(&base_words, segs, mine, &others)
        })
        .collect()
}

/// The segments of `segs` (with their index) beyond those every path has.
fn own_segments<'a>(segs: &'a [Segment], all: &[&Vec<Segment>]) -> Vec<(usize, &'a Segment)> {
    let common = |s: &Segment| {
        all.iter()
            .map(|p| p.iter().filter(|x| *x == s).count())
            .min()
            .unwrap_or(0)
    };
    let mut seen: Vec<&Segment> = Vec::new();
    let mut out = Vec::new();
    for (i, s) in segs.iter().enumerate() {
        let before = seen.iter().filter(|x| **x == s).count();
        seen.push(s);
        if before >= common(s) {
            out.push((i, s));
        }
    }
    out
}

/// `base` with the words `own` adds (see [`distinguish`]).
fn render(
    base: &[String],
    segs: &[Segment],
    own: &[(usize, &Segment)],
    others: &[(usize, &Segment)],
) -> Option<String> {
    let mut front: Vec<String> = Vec::new();
    let mut back: Vec<String> = Vec::new();
    // (index in `base` to insert before, words)
    let mut before: Vec<(usize, Vec<String>)> = Vec::new();
    let mut said: Vec<String> = base.to_vec();
    let mut verb = base[0].clone();
    // The head noun, if a listed collection makes it plural.
    let mut plural_at = Some(base.len() - 1).filter(|&i| i > 0);
    // base[a..b] replaced by other words.
    let mut swap: Option<(usize, usize, Vec<String>)> = None;
    let mut head: Option<String> = None;
    let find_one = |w: &str| {
        base.iter()
            .skip(1)
            .position(|b| same_word(b, w))
            .map(|p| p + 1)
    };
    // Where a segment's words first show in `base`.
    let find = |words: &[&String]| words.iter().filter_map(|w| find_one(w)).min();
    for &(i, seg) in own {
        let content: Vec<&String> = seg.words.iter().filter(|w| !is_function_word(w)).collect();
        let fresh = |w: &String, said: &[String]| !said.iter().any(|s| same_word(s, w));
        let fresh_count = content.iter().filter(|w| fresh(w, &said)).count();
        if let Kind::Call(params) = &seg.kind
            && fresh_count == 0
        {
            let new: Vec<String> = params.iter().filter(|w| fresh(w, &said)).cloned().collect();
            if !new.is_empty() {
                let by = if said.iter().any(|w| w == "by") {
                    "with"
                } else {
                    "by"
                };
                back.push(by.to_string());
                said.extend(new.iter().cloned());
                back.extend(new);
            }
            continue;
        }
        if fresh_count == content.len() && fresh_count > 0 {
            let mut words: Vec<String> = content.into_iter().cloned().collect();
            if seg.item
                && let Some(last) = words.last_mut()
            {
                *last = singular(last);
            }
            said.extend(words.iter().cloned());
            // In place of the counterpart the name says, same distance from
            // the path's end (`/list/items2` beside `/list/items` →
            // `list_items2`); else after the verb.
            let from_end = segs.len() - 1 - i;
            let counterpart = others
                .iter()
                .filter(|(k, _)| *k == from_end)
                .find_map(|(_, o)| span(&base[1..], &o.words).map(|(a, b)| (a + 1, b + 1)));
            match counterpart {
                Some((a, b)) if swap.is_none() => swap = Some((a, b, words)),
                _ => front.extend(words),
            }
        } else if fresh_count > 0 {
            // A modifier of words the name says (`transitive` member of).
            let prefix: Vec<String> = content
                .iter()
                .take_while(|w| fresh(w, &said))
                .map(|w| (*w).clone())
                .collect();
            if prefix.len() == fresh_count
                && let Some(at) = find_one(content[prefix.len()])
            {
                said.extend(prefix.iter().cloned());
                before.push((at, prefix));
            }
        } else if (i > 0 && segs[i - 1].words == seg.words)
            || segs.get(i + 1).is_some_and(|n| n.words == seg.words)
        {
            if let Some(at) = find(&content)
                && fresh(&"nested".to_string(), &said)
            {
                said.push("nested".into());
                before.push((at, vec!["nested".into()]));
            }
        } else if !seg.item
            && i + 1 == segs.len()
            && others.iter().any(|(_, o)| o.item && o.words == seg.words)
        {
            // The collection beside its item (`/balance/history` beside
            // `/balance/history/{id}`) lists it, plural if its path says so
            // (`/things` → `list_things`).
            if verb == "get" {
                verb = "list".to_string();
                if let Some(written) = seg.words.last().filter(|w| is_plural(w))
                    && let Some(last) = plural_at.as_mut()
                    && same_word(&base[*last], written)
                {
                    head = Some(written.clone());
                    plural_at = None;
                }
            }
        } else if !seg.item
            && ((i + 1 < segs.len() && !others.iter().any(|(_, o)| says_all(o, &content)))
                || others.iter().any(|(_, o)| {
                    o.item
                        && o.words != seg.words
                        && o.words.len() == seg.words.len()
                        && o.words.iter().zip(&seg.words).all(|(a, b)| same_word(a, b))
                }))
            && let Some(at) = find(&content)
            && fresh(&"default".to_string(), &said)
        {
            said.push("default".into());
            before.push((at, vec!["default".into()]));
        }
    }
    if front.is_empty() && back.is_empty() && before.is_empty() && swap.is_none() && verb == base[0]
    {
        return None;
    }
    let mut base = base.to_vec();
    if let (Some(head), Some(last)) = (head, base.len().checked_sub(1)) {
        base[last] = head;
    }
    let mut words: Vec<(String, bool)> = vec![(verb, true)];
    words.extend(front.into_iter().map(|w| (w, true)));
    for (i, w) in base.iter().enumerate().skip(1) {
        // A modifier keeps the word it modifies.
        let mut modified = false;
        for (_, ins) in before.iter().filter(|(at, _)| *at == i) {
            words.extend(ins.iter().map(|w| (w.clone(), true)));
            modified = true;
        }
        match &swap {
            Some((a, _, with)) if *a == i => words.extend(with.iter().map(|w| (w.clone(), true))),
            Some((a, b, _)) if *a < i && i < *b => {}
            _ => words.push((w.clone(), modified)),
        }
    }
    words.extend(back.into_iter().map(|w| (w, true)));
    let plain: Vec<String> = words.iter().map(|(w, _)| w.clone()).collect();
    if repeats_word(&plain) {
        return None;
    }
    fit_keeping(words)
}

/// Where the content words of `words` stand together in `base`, as a
/// range.
fn span(base: &[String], words: &[String]) -> Option<(usize, usize)> {
    let content: Vec<&String> = words.iter().filter(|w| !is_function_word(w)).collect();
    if content.is_empty() || content.len() > base.len() {
        return None;
    }
    (0..=base.len() - content.len())
        .find(|&a| {
            content
                .iter()
                .enumerate()
                .all(|(k, w)| same_word(&base[a + k], w))
        })
        .map(|a| (a, a + content.len()))
}

/// Whether `seg` says each of `words` (`transitiveMemberOf` says
/// `member`).
fn says_all(seg: &Segment, words: &[&String]) -> bool {
    words
        .iter()
        .all(|w| seg.words.iter().any(|s| same_word(s, w)))
}

/// Joins words into a name of at most [`MAX_LEN`] characters, dropping
/// unkept words after the verb, leftmost first (never the last word), with
/// any preposition left dangling; `None` if the kept words alone are too
/// long.
fn fit_keeping(mut words: Vec<(String, bool)>) -> Option<String> {
    let len = |w: &[(String, bool)]| {
        w.iter().map(|(w, _)| w.len()).sum::<usize>() + w.len().saturating_sub(1)
    };
    while len(&words) > MAX_LEN {
        let last = words.len() - 1;
        let at =
            (1..last).find(|&i| !words[i].1 && !PREPOSITIONS.contains(&words[i].0.as_str()))?;
        words.remove(at);
        // A preposition now first after the verb, or before nothing, dangles.
        while words.len() > 2 && !words[1].1 && PREPOSITIONS.contains(&words[1].0.as_str()) {
            words.remove(1);
        }
    }
    Some(
        words
            .into_iter()
            .map(|(w, _)| w)
            .collect::<Vec<_>>()
            .join("_"),
    )
}

#[cfg(test)]
#[path = "distinct_tests.rs"]
mod tests;
