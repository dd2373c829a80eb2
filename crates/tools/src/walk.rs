//! The planning walk over every operation of a document, on every core:
//! the path items are shared out in runs of about [`RUN_BYTES`] of text,
//! each run's items parsed (their outlines: what planning reads, see
//! [`Document::path_outlines`]), its operations drafted, and the items let go
//! of before the next run (see [`openapi2mcp_document::lazy`]): a large
//! document's `paths` is never held as a tree at once. Results come back
//! in document order, whatever thread drafted them.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use openapi2mcp_document::model::Operation;
use openapi2mcp_document::{Diagnostic, Document};

/// Text of path items one run parses at a time: small enough that the
/// items of every thread's run together stay a few megabytes of tree,
/// large enough that a run is worth a trip to the queue.
const RUN_BYTES: usize = 256 << 10;

/// Path items below which the walk stays on one thread.
const PARALLEL_ITEMS: usize = 64;

/// What the walk found.
pub(super) struct Walked<T> {
    /// Diagnostics of the walk (path items and parameters that cannot be
    /// read), in document order.
    pub diagnostics: Vec<Diagnostic>,
    /// Operations found (and drafted).
    pub operations: usize,
    /// Operations declared (see [`Document::declared_operations`]).
    pub declared: usize,
    /// `draft` of every operation found, in document order.
    pub drafts: Vec<T>,
}

/// One run's share of a [`Walked`].
type Run<T> = (Vec<Diagnostic>, usize, usize, Vec<T>);

/// Walks every operation of `doc` and drafts each with `draft`.
pub(super) fn draft_all<T: Send + Sync>(
    doc: &Document,
    draft: impl Fn(&Operation<'_>) -> T + Sync,
) -> Walked<T> {
    let count = doc.path_count();
    let mut runs = Vec::new();
    let (mut start, mut size) = (0, 0);
    for at in 0..count {
        size += doc.path_weight(at);
        if size >= RUN_BYTES {
            runs.push(start..at + 1);
            (start, size) = (at + 1, 0);
        }
    }
    if start < count {
        runs.push(start..count);
    }
    let walk_run = |range: std::ops::Range<usize>| -> Run<T> {
        let items = doc.path_outlines(range.clone());
        let mut diags = Vec::new();
        let ops = doc.operations_in(Some(&items), range.clone(), &mut diags);
        let declared = doc.declared_in(Some(&items), range);
        let drafts = ops.iter().map(&draft).collect();
        (diags, ops.len(), declared, drafts)
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    let done: Vec<Run<T>> = if threads == 1 || count < PARALLEL_ITEMS || runs.len() < 2 {
        runs.into_iter().map(walk_run).collect()
    } else {
        let slots: Vec<OnceLock<Run<T>>> = runs.iter().map(|_| OnceLock::new()).collect();
        let next = AtomicUsize::new(0);
        let work = || {
            loop {
                let at = next.fetch_add(1, Ordering::Relaxed);
                let Some(range) = runs.get(at) else { break };
                let _ = slots[at].set(walk_run(range.clone()));
            }
        };
        std::thread::scope(|scope| {
            let others: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
            work();
            for handle in others {
                if let Err(panic) = handle.join() {
                    std::panic::resume_unwind(panic);
                }
            }
        });
        slots.into_iter().filter_map(OnceLock::into_inner).collect()
    };
    let mut walked = Walked {
        diagnostics: Vec::new(),
        operations: 0,
        declared: 0,
        // Sized once: grown by doubling, the drafts of Graph's 11,000
        // operations were copied about twice over on one core.
        drafts: Vec::with_capacity(done.iter().map(|run| run.3.len()).sum()),
    };
    for (diags, operations, declared, drafts) in done {
        walked.diagnostics.extend(diags);
        walked.operations += operations;
        walked.declared += declared;
        walked.drafts.extend(drafts);
    }
    walked
}

#[cfg(test)]
#[path = "walk_tests.rs"]
mod tests;
