//! Where a command's output goes: stdout, where a reader that has gone
//! (`| head`) is not an error.

use std::io::Write;

use anyhow::{Context, Result};
use openapi2mcp::commands;

/// Writes a command's output to stdout. A reader that has gone (`| head`)
/// is not an error: the output was wanted only that far.
pub(crate) fn write_stdout<E>(
    write: impl FnOnce(&mut std::io::StdoutLock<'static>) -> std::result::Result<(), E>,
) -> Result<()>
where
    E: Into<anyhow::Error>,
{
    let mut out = std::io::stdout().lock();
    let written = write(&mut out)
        .map_err(Into::into)
        .and_then(|()| Ok(out.flush()?));
    match written {
        Err(e) if closed_pipe(&e) => Ok(()),
        other => other.context("writing to standard output"),
    }
}

/// Whether `e` comes from writing to a pipe nobody reads any more.
fn closed_pipe(e: &anyhow::Error) -> bool {
    let broken = Some(std::io::ErrorKind::BrokenPipe);
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .map(std::io::Error::kind)
            == broken
            || matches!(
                cause.downcast_ref::<commands::CommandError>(),
                Some(commands::CommandError::Io(io)) if Some(io.kind()) == broken
            )
            || cause
                .downcast_ref::<serde_json::Error>()
                .and_then(serde_json::Error::io_error_kind)
                == broken
    })
}

/// The bar `generate` draws on stderr, only where it helps: big documents
/// (`tools` of them), and stderr a terminal (indicatif draws nothing
/// otherwise).
pub(crate) fn generating_bar(tools: usize) -> Option<indicatif::ProgressBar> {
    (tools >= 200).then(|| {
        let bar =
            indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr());
        bar.set_style(
            indicatif::ProgressStyle::with_template("generating {bar:30} {pos}/{len} modules")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    })
}

/// Moves `bar` (if any) to `done` of `total`.
pub(crate) fn advance(bar: Option<&indicatif::ProgressBar>, done: usize, total: usize) {
    if let Some(bar) = bar {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    }
}
