//! The whole program of a generated server (or a crate built with the
//! `build.rs` API): its command line (serve, `login`, `logout`), logging,
//! and serving its embedded catalog with its hooks. It lives here, not in
//! every generated crate, so a generated crate holds only what is
//! generated from its document.

use std::process::ExitCode;
use std::sync::Arc;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use openapi2mcp_runtime::call::Handlers;
use openapi2mcp_runtime::catalog::Catalog;
use openapi2mcp_runtime::schemas::{EmbeddedSchemas, Schemas};

use crate::Bridge;
use crate::cli::{DEFAULT_LOG_FILTER, ServeFlags, init_logging};
use crate::login::{LoginFlags, LogoutFlags};

/// Who the program is and what it serves: the generated crate's own name,
/// version and API title, and its embedded catalog and schemas (parsed
/// only when needed).
pub struct Embedded {
    /// Package name (`env!("CARGO_PKG_NAME")` of the generated crate).
    pub name: &'static str,
    /// Package version.
    pub version: &'static str,
    /// What `--help` says the program is.
    pub about: &'static str,
    /// The tool catalog (`tools.json`).
    pub catalog: fn() -> Result<Catalog, serde_json::Error>,
    /// The schemas (`schemas.json`, `document.json`).
    pub schemas: fn() -> Result<EmbeddedSchemas, serde_json::Error>,
}

/// The command line of a generated server.
#[derive(Parser)]
struct Cli {
    /// Without a command: serve.
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    flags: ServeFlags,
    /// Log filter (e.g. `info`, `debug`); also RUST_LOG.
    #[arg(long, env = openapi2mcp_runtime::settings::LOG, default_value = DEFAULT_LOG_FILTER)]
    log: String,
}

/// What else the binary does besides serving.
#[derive(Subcommand)]
enum Command {
    /// Log in to the API's own OAuth authorization server, so that serving calls it as you.
    Login(LoginFlags),
    /// Remove the tokens `login` stored, revoking them where the authorization server allows.
    Logout(LogoutFlags),
}

/// Runs the program: a selector worker when started as one, else the
/// command line (serve, or log in or out) with `handlers` running the
/// admitted calls (the generated `Operations` over the user's hooks).
pub fn main(embedded: Embedded, handlers: Arc<dyn Handlers>) -> ExitCode {
    // A selector worker (see `runtime::select`): this process was started
    // to evaluate one jq selector for a server, and does nothing else.
    if let Some(code) = openapi2mcp_runtime::select::serve_as_worker() {
        return ExitCode::from(code);
    }
    // Names this server in User-Agent, serverInfo and telemetry.
    openapi2mcp_runtime::program::set(embedded.name, embedded.version);
    let command = Cli::command()
        .name(embedded.name)
        .version(embedded.version)
        .about(embedded.about);
    let cli = match Cli::from_arg_matches(&command.get_matches()) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    init_logging(&cli.log);
    match run(&cli, &embedded, handlers) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: &Cli, embedded: &Embedded, handlers: Arc<dyn Handlers>) -> Result<(), String> {
    let catalog = (embedded.catalog)()
        .map_err(|e| format!("the embedded tool catalog (tools.json) is invalid: {e}"))?;
    if let Some(command) = &cli.command {
        let said = match command {
            Command::Login(flags) => {
                crate::login::login(&catalog.security_schemes, &flags.command())
            }
            Command::Logout(flags) => flags.run(&catalog.security_schemes),
        }
        .map_err(|e| e.to_string())?;
        eprintln!("{said}");
        return Ok(());
    }
    let mut options = cli.flags.options()?;
    let schemas = (embedded.schemas)()
        .map_err(|e| format!("the embedded schemas (schemas.json) are invalid: {e}"))?;
    options.schemas = Schemas(Arc::new(schemas));
    let runtime = cli
        .flags
        .runtime()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    runtime.block_on(async {
        let bridge =
            Bridge::with_handlers(catalog, options, handlers).map_err(|e| e.to_string())?;
        cli.flags
            .serve(bridge, embedded.name)
            .await
            .map_err(|e| e.to_string())
    })
}

#[cfg(test)]
#[path = "generated_main_tests.rs"]
mod tests;
