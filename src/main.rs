//! The `openapi2mcp` command line: a thin layer over the library that turns
//! flags into options, prints results, and maps errors to exit codes.
//! Logs go to stderr; stdout carries only the requested output.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;

#[path = "cli/alloc.rs"]
mod alloc;
#[path = "cli/args.rs"]
mod args;
#[path = "cli/output.rs"]
mod output;

use alloc::tune_allocator;
use args::*;
use openapi2mcp::commands::{
    self, config::ConfigCommand, generate::GenerateCommand, generate::Generated, list::ListOptions,
    report::HasDiagnostics, serve::ServeCommand,
};
use openapi2mcp::document::LoadOptions;
use openapi2mcp::mock::MockOptions;
use openapi2mcp::pipeline;
use openapi2mcp::server::cli::init_logging;
use output::write_stdout;

fn main() -> ExitCode {
    // A selector worker (see `runtime::select`): this process was started
    // to evaluate one jq selector for a server, and does nothing else.
    if let Some(code) = openapi2mcp::runtime::select::serve_as_worker() {
        return ExitCode::from(code);
    }
    openapi2mcp::runtime::program::set(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"));
    tune_allocator();
    openapi2mcp::server::cli::release_memory_when_idle(alloc::collect_idle_thread);
    let cli = Cli::parse();
    init_logging(&cli.log);
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::List(args) => list(args),
        Command::Serve(args) => serve(*args),
        Command::Generate(args) => generate(args),
        Command::Mock(args) => mock(args),
        Command::Config(args) => config(args),
        Command::Lint(args) => lint(args),
        Command::Login(args) => login(args),
        Command::Logout(args) => logout(args),
    }
}

/// Prints what loading found (see [`commands::report`]) and turns a
/// failure into exit code 1.
fn loaded<T: HasDiagnostics>(
    result: Result<T, pipeline::PipelineError>,
    quiet: bool,
) -> Result<T, ExitCode> {
    let report = commands::report::report(result, quiet);
    for line in &report.lines {
        eprintln!("{line}");
    }
    report.loaded.ok_or(ExitCode::FAILURE)
}

/// Loads and builds every tool up front (`list`, `generate`, `lint`, `config`).
fn load_catalog(args: &SpecArgs) -> Result<Result<pipeline::Loaded, ExitCode>> {
    let options = pipeline_options(args, false)?;
    Ok(loaded(
        pipeline::load_catalog(args.location(), &options),
        args.quiet,
    ))
}

fn serve(args: ServeArgs) -> Result<ExitCode> {
    if let Some(file) = &args.config {
        let per_api = [
            ("--mock", args.mock),
            ("--overlay", !args.spec.overlay.overlays.is_empty()),
            ("--arazzo", !args.spec.arazzo.is_empty()),
            (
                "--tag/--exclude-tag",
                !(args.spec.tags.is_empty() && args.spec.exclude_tags.is_empty()),
            ),
            (
                "--operation/--exclude-operation",
                !(args.spec.operations.is_empty() && args.spec.exclude_operations.is_empty()),
            ),
            (
                "--path/--exclude-path/--method",
                !(args.spec.paths.is_empty()
                    && args.spec.exclude_paths.is_empty()
                    && args.spec.methods.is_empty()),
            ),
            ("--read-only", args.spec.read_only),
        ];
        if let Some((flag, _)) = per_api.iter().find(|(_, on)| *on) {
            anyhow::bail!("{flag} applies to one API: with --config, give it in that API's entry");
        }
        let config = openapi2mcp::apis::load(file)?;
        openapi2mcp::apis::run(
            config,
            args.flags,
            args.watch.then_some(args.watch_interval),
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let options = pipeline_options(&args.spec, args.mock)?;
    let served = match loaded(
        pipeline::load_served(args.spec.location(), &options),
        args.spec.quiet,
    ) {
        Ok(served) => served,
        Err(code) => return Ok(code),
    };
    let command = ServeCommand {
        location: args.spec.location().to_string(),
        pipeline: options,
        flags: args.flags,
        mock: args.mock,
        mock_state: args.mock_state.state(),
        watch: args.watch.then_some(args.watch_interval),
    };
    commands::serve::run(served, command)?;
    Ok(ExitCode::SUCCESS)
}

fn generate(args: GenerateArgs) -> Result<ExitCode> {
    let loaded = match load_catalog(&args.spec)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let catalog = loaded.catalog;
    let bar = output::generating_bar(catalog.tools.len());
    let mut progress = |done: usize, total: usize| output::advance(bar.as_ref(), done, total);
    let runtime = args.runtime_source();
    let command = GenerateCommand {
        runtime,
        out: args.out,
        package: args.name,
        templates: args.templates,
        check: args.check,
    };
    let generated = commands::generate::run(&catalog, loaded.schemas, &command, &mut progress)?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let out = command.out.display();
    Ok(match generated {
        Generated::UpToDate => {
            eprintln!("openapi2mcp: {out} is up to date");
            ExitCode::SUCCESS
        }
        Generated::Stale { differences, files } => {
            for d in &differences {
                eprintln!("  {d}");
            }
            eprintln!(
                "openapi2mcp: {out} is stale ({} of {files} files differ); regenerate with `openapi2mcp generate {} --out {out}` and the same options",
                differences.len(),
                openapi2mcp::document::shown_location(args.spec.location())
            );
            ExitCode::FAILURE
        }
        Generated::Written {
            tools,
            files,
            changed,
        } => {
            eprintln!(
                "openapi2mcp: {tools} tools in {out} ({files} files, {changed} changed); build with `cargo build --release --manifest-path {out}/Cargo.toml`"
            );
            ExitCode::SUCCESS
        }
    })
}

fn mock(args: MockArgs) -> Result<ExitCode> {
    let load = LoadOptions {
        allow_remote_refs: args.allow_remote_refs,
        max_document_bytes: args.max_document_bytes,
        http_timeout: std::time::Duration::from_secs_f64(args.fetch_timeout),
        overlays: args.overlay.overlays,
        ..LoadOptions::default()
    };
    let state = args.state.state();
    let options = commands::mock::options(
        MockOptions {
            seed: args.seed,
            examples: !args.no_examples,
            ..MockOptions::default()
        },
        state.as_ref(),
    );
    let mocked = match loaded(pipeline::load_mock(&args.spec, &load, options), args.quiet) {
        Ok(mocked) => mocked,
        Err(code) => return Ok(code),
    };
    let server = commands::mock::with_state(mocked.server, state.as_ref())?;
    let collections = server.resources().len();
    commands::mock::run(server, args.listen, |operations, url| {
        eprintln!("openapi2mcp: mock of {operations} operations at {url}");
        if let Some(state) = &state {
            let kept = match &state.file {
                Some(f) => format!("kept in {}", f.display()),
                None => "kept in memory".into(),
            };
            eprintln!(
                "openapi2mcp: stateful: {collections} collections, {kept}; POST {}{}/reset restores the examples",
                url::Url::parse(url)
                    .map(|u| u.origin().ascii_serialization())
                    .unwrap_or_default(),
                openapi2mcp::mock::CONTROL_PREFIX
            );
        }
    })?;
    Ok(ExitCode::SUCCESS)
}

fn config(args: ConfigArgs) -> Result<ExitCode> {
    if let Some(file) = &args.config {
        let config = openapi2mcp::apis::load(file)?;
        let entry = openapi2mcp::apis::client_entry(&config, file, args.name.as_deref())?;
        let entry = serde_json::to_string_pretty(&entry)?;
        write_stdout(|out| writeln!(out, "{entry}"))?;
        return Ok(ExitCode::SUCCESS);
    }
    let spec = args.spec.clone().unwrap_or_default();
    let spec_args = SpecArgs {
        overlay: args.overlay.clone(),
        ..SpecArgs::for_document(&spec)
    };
    let loaded = match load_catalog(&spec_args)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let command = ConfigCommand {
        location: spec,
        overlays: args.overlay.overlays,
        name: args.name,
        mock: args.mock,
        base_url: args.base_url,
    };
    let entry = commands::config::entry(&loaded.catalog, &command)?;
    let entry = serde_json::to_string_pretty(&entry)?;
    write_stdout(|out| writeln!(out, "{entry}"))?;
    // The process exits next: freeing the document would only delay that.
    std::mem::forget(loaded);
    Ok(ExitCode::SUCCESS)
}

/// The security schemes of `spec` (with `overlays`), for `login`/`logout`.
fn schemes_of(
    spec: &str,
    overlays: &[String],
) -> Result<
    Result<
        std::collections::BTreeMap<String, openapi2mcp::runtime::binding::SecurityScheme>,
        ExitCode,
    >,
> {
    let spec_args = SpecArgs {
        overlay: OverlayArgs {
            overlays: overlays.to_vec(),
        },
        ..SpecArgs::for_document(spec)
    };
    Ok(load_catalog(&spec_args)?.map(|loaded| loaded.catalog.security_schemes))
}

fn login(args: LoginArgs) -> Result<ExitCode> {
    let schemes = match schemes_of(&args.spec, &args.overlay.overlays)? {
        Ok(schemes) => schemes,
        Err(code) => return Ok(code),
    };
    eprintln!(
        "{}",
        openapi2mcp::server::login::login(&schemes, &args.flags.command())?
    );
    Ok(ExitCode::SUCCESS)
}

fn logout(args: LogoutArgs) -> Result<ExitCode> {
    let schemes = match schemes_of(&args.spec, &args.overlay.overlays)? {
        Ok(schemes) => schemes,
        Err(code) => return Ok(code),
    };
    eprintln!("{}", args.flags.run(&schemes)?);
    Ok(ExitCode::SUCCESS)
}

fn lint(args: LintArgs) -> Result<ExitCode> {
    let loaded = match load_catalog(&args.spec)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let linted = commands::lint::run(&loaded, args.spec.location(), &args.command())?;
    write_stdout(|out| out.write_all(linted.output.as_bytes()))?;
    for failure in &linted.failures {
        eprintln!("{failure}");
    }
    Ok(if linted.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn list(args: ListArgs) -> Result<ExitCode> {
    let loaded = match load_catalog(&args.spec)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let options = ListOptions {
        json: args.json,
        footprint: args.footprint,
    };
    write_stdout(|out| commands::list::write(out, &loaded.catalog, options))?;
    // The process exits next; freeing every tool first only costs time
    // (a tenth of a Graph run).
    std::mem::forget(loaded);
    Ok(ExitCode::SUCCESS)
}
