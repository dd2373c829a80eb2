//! The process's allocator: mimalloc, tuned before anything allocates.

/// mimalloc instead of glibc's allocator: parsing a document and planning
/// its tools is millions of small allocations (a `serde_json::Value` per
/// node), where glibc spends a third of start-up (see bench/README.md,
/// "Scale"). Tuned by [`tune_allocator`] to give memory back at once.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's option numbers (`mi_option_e` in the `mimalloc.h` that
/// libmimalloc-sys 0.1.49 bundles, pinned in Cargo.toml); the test
/// `cli::the_allocator_is_tuned` reads mimalloc's own report of its
/// options, so a version bump cannot silently set other options.
const MI_OPTION_ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Memory freed is returned to the OS after 1 ms (mimalloc's default is
/// 10 ms) and arenas are committed as they fill, not up front: measured on
/// GitHub's and Microsoft Graph's documents, this keeps the peak RSS below
/// glibc's (67 vs 75 MB, 209 vs 230 MB) while start-up stays faster
/// (bench/README). Returning memory at once (no delay) cost a system call
/// and a flush of both cores' TLBs per page freed while planning (8 % of
/// Graph's start-up CPU); 1 ms batches them at the same peak RSS
/// (bench/README, "Round 3").
pub(crate) fn tune_allocator() {
    // SAFETY: plain setters of mimalloc's global options, called before
    // any thread is started (from the ELF constructor, and again from
    // `main` where there is none).
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 1);
        libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_EAGER_COMMIT, 0);
    }
}

/// Runs [`tune_allocator`] before anything allocates (the first arena is
/// committed by the first allocation, before `main`): an ELF constructor.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static TUNE_ALLOCATOR_EARLY: extern "C" fn() = {
    extern "C" fn tune() {
        tune_allocator();
    }
    tune
};

/// What an idle runtime thread runs before it sleeps (registered with
/// `openapi2mcp_server::cli::release_memory_when_idle`): mimalloc frees a
/// page only when the thread owning it next allocates or collects, so
/// memory freed on another thread (a session's worker ending on another
/// core) stayed resident on a thread that went to sleep: 1,000 closed
/// sessions kept 100 MB of RSS with two worker threads and gave it back
/// with one (bench/README, "Idle sessions"). A collection without `force`
/// frees the thread's empty pages, which mimalloc then purges after
/// `MI_OPTION_PURGE_DELAY`.
pub(crate) fn collect_idle_thread() {
    // SAFETY: mimalloc's collection of the calling thread's heap, callable
    // at any time from any thread that allocates with it.
    unsafe { libmimalloc_sys::mi_collect(false) }
}
