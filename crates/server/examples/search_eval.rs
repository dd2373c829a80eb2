//! Accuracy of the tool search alone, offline: indexes the tools of the
//! dumps written by the ignored test `discovery::dump_search_scores` (one
//! file a document: its tools as the server indexes them, and every
//! request of the query sets of tests/fixtures/ for it with the operations
//! it expects) and reports, per query set, top-1 and top-5 (the test
//! `discovery::search_finds_the_right_tool_for_the_query_sets` counts the
//! same over the server), and every miss with the rank of the best
//! expected operation and the five found.
//!
//! Usage: `cargo run --release -p openapi2mcp-runtime --example search_eval -- DUMP_DIR [--all]`
//! (`--all` prints every request, not only the misses).

#[cfg(not(feature = "search"))]
fn main() {
    eprintln!("search_eval measures the search index: build with the `search` feature");
}

#[cfg(feature = "search")]
fn main() {
    eval::main();
}

#[cfg(feature = "search")]
#[path = "dump/mod.rs"]
mod dump;

#[cfg(feature = "search")]
mod eval {
    use std::collections::BTreeMap;

    use super::dump::{Dump, strings};

    /// The documents of the query sets, in the test's order.
    const DOCS: [&str; 6] = [
        "github",
        "graph",
        "stripe",
        "jira",
        "graph-items",
        "orchestration",
    ];

    /// Counts of one query set, and of each of its documents.
    #[derive(Default)]
    struct Tally {
        total: usize,
        top1: usize,
        top5: usize,
        docs: BTreeMap<&'static str, (usize, usize, usize)>,
        lines: Vec<String>,
    }

    pub fn main() {
        let mut dir = None;
        let mut all = false;
        for arg in std::env::args().skip(1) {
            match arg.as_str() {
                "--all" => all = true,
                _ => dir = Some(arg),
            }
        }
        let dir = dir.expect("usage: search_eval DUMP_DIR [--all]");
        let mut sets: BTreeMap<String, Tally> = BTreeMap::new();
        for doc in DOCS {
            let path = format!("{dir}/{doc}.json");
            let dump = Dump::read(&path);
            let index = dump.index();
            let operation = |i: usize| dump.operation(i);
            for q in &dump.queries {
                let set = q["set"].as_str().unwrap_or_default().to_string();
                let query = q["q"].as_str().unwrap_or_default();
                let expect = strings(&q["expect"]);
                let hits = index.search(query, dump.tools.len(), None);
                let rank = hits
                    .iter()
                    .position(|h| expect.contains(&operation(h.index)))
                    .map(|r| r + 1);
                let tally = sets.entry(set).or_default();
                let counts = tally.docs.entry(doc).or_default();
                tally.total += 1;
                counts.0 += 1;
                if rank == Some(1) {
                    tally.top1 += 1;
                    counts.1 += 1;
                }
                let hit = rank.is_some_and(|r| r <= 5);
                if hit {
                    tally.top5 += 1;
                    counts.2 += 1;
                }
                if all || !hit {
                    let found: Vec<String> =
                        hits.iter().take(5).map(|h| operation(h.index)).collect();
                    tally.lines.push(format!(
                        "  {} {doc}: \"{query}\" rank {} of {:?}; found {found:?}",
                        if hit { "hit " } else { "miss" },
                        rank.map_or("none".to_string(), |r| r.to_string()),
                        expect,
                    ));
                }
            }
        }
        let mut summary = Vec::new();
        // The tuned set first, as the test and bench/README.md give them.
        let mut order: Vec<(&String, &Tally)> = sets.iter().collect();
        order.sort_by_key(|(set, _)| (set.as_str() != "search-queries.yaml", set.as_str()));
        for (set, tally) in order {
            let pct = |n: usize| 100.0 * n as f64 / tally.total as f64;
            println!(
                "{set}: top-1 {}/{} = {:.1}%, top-5 {}/{} = {:.1}%",
                tally.top1,
                tally.total,
                pct(tally.top1),
                tally.top5,
                tally.total,
                pct(tally.top5)
            );
            for (doc, (n, t1, t5)) in &tally.docs {
                println!("  {doc}: top-1 {t1}/{n}, top-5 {t5}/{n}");
            }
            for line in &tally.lines {
                println!("{line}");
            }
            summary.push(format!("{}/{}", tally.top1, tally.top5));
        }
        println!("summary (top-1/top-5 per set): {}", summary.join(" "));
    }
}
