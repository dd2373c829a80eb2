//! `mock`: the REST API a document describes, served over HTTP from its
//! examples and schemas until Ctrl-C (the route table comes from
//! [`crate::pipeline::load_mock`]).

use std::net::SocketAddr;
use std::sync::Arc;

use super::CommandError;
use crate::mock::{self, MockServer};

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
