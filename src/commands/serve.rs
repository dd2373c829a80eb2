//! `serve`: a planned catalog served over MCP, optionally against an
//! in-process mock of the API, reloaded on SIGHUP and (with `--watch`)
//! when the document changes (the mock with it).

use std::sync::Arc;
use std::time::Duration;

use super::CommandError;
use crate::mock;
use crate::pipeline::{PipelineOptions, Served};
use crate::reload::Reloader;
use crate::runtime::schemas::Schemas;
use crate::server::Bridge;
use crate::server::cli::ServeFlags;

/// Everything `serve` needs besides the planned catalog.
#[derive(Debug, Clone)]
pub struct ServeCommand {
    /// Where the document came from (path or URL): what reloads read.
    pub location: String,
    /// The options the catalog was loaded with; every reload uses them.
    pub pipeline: PipelineOptions,
    /// How to serve (transport, credentials, limits, listing mode).
    pub flags: ServeFlags,
    /// Answer API calls from an in-process mock of the document, unless
    /// the flags name a base URL.
    pub mock: bool,
    /// What the mock remembers (`None`: stateless; see `commands::mock`).
    pub mock_state: Option<super::mock::StateOptions>,
    /// Reload when the document changes: a file on change, a URL polled
    /// every this many seconds. `None`: only on SIGHUP.
    pub watch: Option<f64>,
}

/// Serves `served` until the client leaves (stdio) or a signal stops the
/// server (HTTP).
pub fn run(served: Served, command: ServeCommand) -> Result<(), CommandError> {
    if let Some(interval) = command.watch
        && !(interval.is_finite() && interval > 0.0)
    {
        return Err(CommandError::Invalid(
            "--watch-interval must be a positive number of seconds".into(),
        ));
    }
    let live = served.schemas;
    let mock = match command.mock {
        true => Some(Arc::new(super::mock::in_process(
            live.document(),
            command.mock_state.as_ref(),
        )?)),
        false => None,
    };
    let mut options = command.flags.options().map_err(CommandError::Invalid)?;
    options.schemas = Schemas(live);
    let runtime = command.flags.runtime().map_err(CommandError::Runtime)?;
    let catalog = served.catalog;
    runtime.block_on(async move {
        let mut mock_slot = None;
        if let Some(server) = mock {
            let bound = mock::bind(server, ([127, 0, 0, 1], 0).into()).await?;
            mock_slot = Some(bound.slot());
            if options.base_url.is_none() {
                options.base_url = Some(bound.base_url());
                // The mock answers from the document: nothing real can be
                // destroyed, so nothing is asked unless --confirm says so.
                if command.flags.confirm.is_none() {
                    options.confirm = crate::server::confirm::ConfirmPolicy::None;
                }
            }
            // Under the mock's target, shown by default: the address is
            // where `POST /__mock/reset` goes.
            tracing::info!(target: "openapi2mcp::mock", url = %bound.base_url(), "mock API serving");
            tokio::spawn(async move {
                if let Err(e) = bound.run(std::future::pending()).await {
                    tracing::error!("mock API stopped: {e}");
                }
            });
        }
        let bridge = Bridge::new(catalog, options)?;
        let reloader = match mock_slot {
            Some(slot) => {
                Reloader::with_mock(&command.location, command.pipeline, bridge.clone(), slot)
            }
            None => Reloader::new(&command.location, command.pipeline, bridge.clone()),
        };
        reloader.spawn_on_sighup();
        if let Some(interval) = command.watch {
            reloader
                .spawn_watch(Duration::from_secs_f64(interval))
                .map_err(CommandError::Invalid)?;
        }
        command.flags.serve(bridge, "openapi2mcp").await?;
        Ok(())
    })
}
