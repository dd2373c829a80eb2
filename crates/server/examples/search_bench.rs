//! Times the tool search alone (bench/search-latency.sh): builds the index
//! over the tools of a dump written by the ignored test
//! `discovery::dump_search_scores` (one document's tools and its query
//! sets' requests) and runs every request a few rounds.
//!
//! Usage: `cargo run --release -p openapi2mcp-runtime --example search_bench -- DUMP.json [ROUNDS]`

#[cfg(not(feature = "search"))]
fn main() {
    eprintln!("search_bench measures the search index: build with the `search` feature");
}

#[cfg(feature = "search")]
fn main() {
    bench::main();
}

#[cfg(feature = "search")]
#[path = "dump/mod.rs"]
#[allow(dead_code)] // search_eval uses the rest
mod dump;

#[cfg(feature = "search")]
mod bench {
    use std::time::Instant;

    use super::dump::Dump;

    pub fn main() {
        let mut args = std::env::args().skip(1);
        let path = args.next().expect("usage: search_bench DUMP.json [ROUNDS]");
        let rounds: usize = args.next().map_or(3, |r| r.parse().expect("ROUNDS"));
        let dump = Dump::read(&path);
        let queries: Vec<&str> = dump
            .queries
            .iter()
            .map(|q| q["q"].as_str().unwrap_or_default())
            .collect();
        let mut builds = Vec::new();
        let mut index = None;
        for _ in 0..rounds {
            let started = Instant::now();
            index = Some(dump.index());
            builds.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        let index = index.expect("at least one round");
        let mut times = Vec::new();
        for _ in 0..rounds {
            for q in &queries {
                let started = Instant::now();
                let hits = index.search(q, 5, None);
                times.push(started.elapsed().as_secs_f64() * 1000.0);
                std::hint::black_box(hits);
            }
        }
        times.sort_by(f64::total_cmp);
        let at = |p: f64| times[((times.len() - 1) as f64 * p) as usize];
        let hwm = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("VmHWM:"))
                    .map(str::to_string)
            })
            .unwrap_or_default();
        println!(
            "{path}: {} tools; index build {} ms; search over {} requests: median {:.2} / p95 {:.2} / max {:.2} ms; {hwm}",
            dump.tools.len(),
            builds
                .iter()
                .map(|b| format!("{b:.0}"))
                .collect::<Vec<_>>()
                .join(", "),
            times.len(),
            at(0.5),
            at(0.95),
            times[times.len() - 1],
        );
    }
}
