//! `mock`: the REST API a document describes, served over HTTP from its
//! examples and schemas until Ctrl-C (the route table comes from
//! [`crate::pipeline::load_mock`]); stateful with `--stateful` or
//! `--state FILE`. Also the flags and the set-up of `serve --mock`'s
//! in-process mock, which is stateful unless `--mock-stateless`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use super::CommandError;
use crate::document::Document;
use crate::mock::store::{DEFAULT_MAX_ITEMS, Store};
use crate::mock::{self, MockError, MockOptions, MockServer};

/// Largest `--max-items` accepted.
const MAX_ITEMS_LIMIT: u64 = 1_000_000;

/// `mock`'s flags for remembering state.
#[derive(clap::Args, Debug, Clone)]
pub struct StatefulArgs {
    /// Remember what is created, changed and deleted: collections and
    /// items recognized from paths and schemas answer from a store seeded
    /// with the document's examples (POST /__mock/reset restores them).
    #[arg(long)]
    pub stateful: bool,
    /// Keep the state in this JSON file (read at start, rewritten after
    /// each change); implies --stateful.
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// Most items kept per collection (ten times as many in all); more is
    /// refused with 507.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_ITEMS,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_ITEMS_LIMIT))]
    pub max_items: usize,
}

impl StatefulArgs {
    /// The state to keep, or `None` for a stateless mock.
    pub fn state(&self) -> Option<StateOptions> {
        (self.stateful || self.state.is_some()).then(|| StateOptions {
            file: self.state.clone(),
            max_items: self.max_items,
        })
    }
}

/// `serve`'s flags for its `--mock`.
#[derive(clap::Args, Debug, Clone)]
pub struct ServeMockArgs {
    /// With --mock: answer every call from the documented examples, as
    /// `mock` without --stateful does (by default `serve --mock`
    /// remembers what the tools create, change and delete).
    #[arg(long, requires = "mock")]
    pub mock_stateless: bool,
    /// With --mock: keep the mock's state in this JSON file (read at
    /// start, rewritten after each change).
    #[arg(
        long,
        value_name = "FILE",
        requires = "mock",
        conflicts_with = "mock_stateless"
    )]
    pub mock_state: Option<PathBuf>,
    /// With --mock: most items kept per collection (ten times as many in all).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_ITEMS,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_ITEMS_LIMIT))]
    pub mock_max_items: usize,
}

impl ServeMockArgs {
    /// The state `serve --mock` keeps, or `None` for a stateless mock.
    pub fn state(&self) -> Option<StateOptions> {
        (!self.mock_stateless).then(|| StateOptions {
            file: self.mock_state.clone(),
            max_items: self.mock_max_items,
        })
    }
}

/// What a stateful mock keeps, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateOptions {
    /// The state file, if persisted.
    pub file: Option<PathBuf>,
    /// Most items per collection.
    pub max_items: usize,
}

impl StateOptions {
    /// The store: the file's state (a broken file is an error naming it),
    /// or an empty one in memory.
    pub fn open(&self) -> Result<Arc<Store>, MockError> {
        Ok(Arc::new(match &self.file {
            Some(path) => Store::open(path, self.max_items)?,
            None => Store::in_memory(self.max_items),
        }))
    }
}

/// The options of a mock keeping `state` (stateless for `None`).
pub fn options(base: MockOptions, state: Option<&StateOptions>) -> MockOptions {
    MockOptions {
        stateful: state.is_some(),
        ..base
    }
}

/// `server` keeping its items as `state` says.
pub fn with_state(
    server: MockServer,
    state: Option<&StateOptions>,
) -> Result<MockServer, CommandError> {
    Ok(match state {
        Some(state) => server.with_store(state.open()?),
        None => server,
    })
}

/// `serve --mock`'s in-process mock of `doc`.
pub fn in_process(
    doc: &Document,
    state: Option<&StateOptions>,
) -> Result<MockServer, CommandError> {
    // The mock's diagnostics repeat what planning the catalog reported.
    let (server, _) = MockServer::new(doc, options(MockOptions::default(), state));
    with_state(server, state)
}

/// Serves `server` on `listen` until Ctrl-C. Once bound, `announce` gets
/// the number of operations and the base URL (port 0 picks a free port,
/// so the URL is only known then).
pub fn run(
    server: MockServer,
    listen: SocketAddr,
    announce: impl FnOnce(usize, &str),
) -> Result<(), CommandError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(CommandError::Runtime)?;
    runtime.block_on(async move {
        let operations = server.operation_count();
        let bound = mock::bind(Arc::new(server), listen).await?;
        announce(operations, &bound.base_url());
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        bound.run(shutdown).await?;
        Ok(())
    })
}
