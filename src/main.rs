//! The `openapi2mcp` command line: a thin layer over the library that turns
//! flags into options, prints results, and maps errors to exit codes.
//! Logs go to stderr; stdout carries only the requested output.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::builder::RangedU64ValueParser;
use clap::{Args, Parser, Subcommand, ValueEnum};

use openapi2mcp::commands::{
    self, config::ConfigCommand, generate::GenerateCommand, generate::Generated, lint::LintCommand,
    list::ListOptions, report::HasDiagnostics, serve::ServeCommand,
};
use openapi2mcp::document::{DEFAULT_MAX_DOCUMENT_BYTES, LoadOptions};
use openapi2mcp::lint::Level;
use openapi2mcp::mock::MockOptions;
use openapi2mcp::pipeline::{self, PipelineOptions};
use openapi2mcp::server::cli::{DEFAULT_LOG_FILTER, ServeFlags, init_logging, number_in};
use openapi2mcp::tools::descriptions::DescriptionMode;
use openapi2mcp::tools::{
    BuildOptions, McpHeaderMode, OutputSchemaMode, Selection, select::PathGlobs,
};

/// Turn any OpenAPI document into a Model Context Protocol server.
#[derive(Parser)]
#[command(name = "openapi2mcp", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Log filter (e.g. `info`, `openapi2mcp=debug`); also RUST_LOG.
    #[arg(
        long,
        global = true,
        env = "OPENAPI2MCP_LOG",
        default_value = DEFAULT_LOG_FILTER
    )]
    log: String,
}

#[derive(Subcommand)]
enum Command {
    /// List the tools a document yields (a table, or JSON as tools/list carries them).
    List(ListArgs),
    /// Serve the document's operations as an MCP server (stdio or streamable HTTP).
    Serve(Box<ServeArgs>),
    /// Write a standalone Rust crate that serves the document's operations like `serve` does.
    Generate(GenerateArgs),
    /// Serve the REST API the document describes, answering from its examples and schemas.
    Mock(MockArgs),
    /// Print the mcpServers entry for Claude Desktop, Cursor and other MCP clients.
    Config(ConfigArgs),
    /// Check how well the document serves a model: findings with fixes, and the token cost of its tools.
    Lint(LintArgs),
    /// Log in to the API's own OAuth authorization server (from the document's OAuth2 scheme), so that `serve` calls it as you.
    Login(LoginArgs),
    /// Remove the tokens `login` stored, revoking them where the authorization server allows.
    Logout(LogoutArgs),
}

#[derive(Args)]
struct LoginArgs {
    /// OpenAPI document: a file path or an http(s) URL.
    spec: String,
    /// OpenAPI Overlay 1.0 documents applied first, as `serve` does.
    #[arg(long = "overlay", value_name = "FILE")]
    overlays: Vec<String>,
    #[command(flatten)]
    flags: openapi2mcp::server::login::LoginFlags,
}

#[derive(Args)]
struct LogoutArgs {
    /// OpenAPI document: a file path or an http(s) URL.
    spec: String,
    /// OpenAPI Overlay 1.0 documents applied first, as `serve` does.
    #[arg(long = "overlay", value_name = "FILE")]
    overlays: Vec<String>,
    #[command(flatten)]
    flags: openapi2mcp::server::login::LogoutFlags,
}

#[derive(Args)]
struct LintArgs {
    #[command(flatten)]
    spec: SpecArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = LintFormat::Text)]
    format: LintFormat,
    /// Fail (exit 1) when the full tool list takes more tokens than this.
    #[arg(long, value_name = "N",
          value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_TOKENS))]
    max_tokens: Option<usize>,
    /// Fail (exit 1) on findings at or above this level (default: error).
    #[arg(long, value_enum, default_value_t = DenyLevel::Error)]
    deny: DenyLevel,
}

#[derive(Clone, Copy, ValueEnum)]
enum LintFormat {
    Text,
    Json,
    Sarif,
}

#[derive(Clone, Copy, ValueEnum)]
enum DenyLevel {
    Note,
    Warning,
    Error,
}

#[derive(Args)]
struct MockArgs {
    /// OpenAPI document: a file path or an http(s) URL; JSON or YAML.
    spec: String,
    /// OpenAPI Overlay 1.0 document applied to the document before anything
    /// else (rename, describe, exclude, annotate); repeatable, in order.
    #[arg(long = "overlay", value_name = "FILE")]
    overlays: Vec<String>,
    /// Follow `$ref`s to absolute http(s) URLs.
    #[arg(long)]
    allow_remote_refs: bool,
    /// The most bytes read from one URL (the document, an overlay, a
    /// remote `$ref`); a longer or endless answer is an error.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_DOCUMENT_BYTES,
          value_parser = clap::value_parser!(u64).range(1..=MAX_DOCUMENT_BYTES_LIMIT))]
    max_document_bytes: u64,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:4010")]
    listen: std::net::SocketAddr,
    /// Seed for synthesized values (the same seed gives the same responses).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Ignore documented examples: always synthesize responses from the schemas.
    #[arg(long)]
    no_examples: bool,
    #[command(flatten)]
    state: commands::mock::StatefulArgs,
    /// Do not print warnings about the document.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Args)]
struct ServeArgs {
    #[command(flatten)]
    spec: SpecArgs,
    #[command(flatten)]
    flags: ServeFlags,
    /// Answer API calls from an in-process mock of the document (see `mock`)
    /// instead of the real API, unless --base-url is given.
    #[arg(long)]
    mock: bool,
    #[command(flatten)]
    mock_state: commands::mock::ServeMockArgs,
    /// Reload the document when it changes (a file: on change; a URL:
    /// polled with If-None-Match/If-Modified-Since). SIGHUP always reloads.
    #[arg(long)]
    watch: bool,
    /// Seconds between polls of a document URL under --watch.
    #[arg(long, value_name = "SECS", default_value_t = 30.0, value_parser = parse_watch_interval)]
    watch_interval: f64,
}

#[derive(Args)]
struct GenerateArgs {
    #[command(flatten)]
    spec: SpecArgs,
    /// Directory of the crate (created if needed).
    #[arg(long, short)]
    out: std::path::PathBuf,
    /// Cargo package name (default: the API title as a slug, plus `-mcp`).
    #[arg(long)]
    name: Option<String>,
    /// Directory of template overrides, named like the files in `templates/`.
    #[arg(long)]
    templates: Option<std::path::PathBuf>,
    /// Compare with the crate in --out instead of writing; exit 1 when it is stale.
    #[arg(long)]
    check: bool,
}

#[derive(Args)]
struct ConfigArgs {
    /// OpenAPI document: a file path or an http(s) URL.
    #[arg(required_unless_present = "config")]
    spec: Option<String>,
    /// The entry for `serve --config FILE` (several APIs) instead of a document.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["spec", "overlays", "mock", "base_url"])]
    config: Option<std::path::PathBuf>,
    /// OpenAPI Overlay 1.0 document applied to the document before anything
    /// else (rename, describe, exclude, annotate); repeatable, in order.
    #[arg(long = "overlay", value_name = "FILE")]
    overlays: Vec<String>,
    /// Key of the entry (default: the API title as a slug).
    #[arg(long)]
    name: Option<String>,
    /// Serve from the built-in mock instead of the real API.
    #[arg(long)]
    mock: bool,
    /// Base URL of the API.
    #[arg(long)]
    base_url: Option<String>,
}

#[derive(Args)]
struct ListArgs {
    #[command(flatten)]
    spec: SpecArgs,
    /// Print the full tool definitions as JSON, exactly as tools/list carries them.
    #[arg(long)]
    json: bool,
    /// Count the tokens (o200k_base) of the tool list in each --tools mode.
    #[arg(long, conflicts_with = "json")]
    footprint: bool,
}

/// Which document, and which of its operations.
#[derive(Args)]
struct SpecArgs {
    /// OpenAPI document: a file path or an http(s) URL; JSON or YAML.
    #[arg(required_unless_present = "config")]
    spec: Option<String>,
    /// `serve` only: several APIs through one endpoint, from a YAML or
    /// TOML file (documents, base URLs, credentials, headers, overlays,
    /// filters and a tool-name prefix per API; see README).
    #[arg(long, value_name = "FILE", conflicts_with = "spec")]
    config: Option<std::path::PathBuf>,
    /// OpenAPI Overlay 1.0 document applied to the document before anything
    /// else (rename, describe, exclude, annotate); repeatable, in order.
    #[arg(long = "overlay", value_name = "FILE")]
    overlays: Vec<String>,
    /// Arazzo 1.x document whose workflows become tools too (each runs its
    /// steps through the document's operations); repeatable.
    #[arg(long = "arazzo", value_name = "FILE")]
    arazzo: Vec<String>,
    /// Follow `$ref`s to absolute http(s) URLs.
    #[arg(long)]
    allow_remote_refs: bool,
    /// The most bytes read from one URL (the document, an overlay, a
    /// remote `$ref`, a --watch poll); a longer or endless answer is an error.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_DOCUMENT_BYTES,
          value_parser = clap::value_parser!(u64).range(1..=MAX_DOCUMENT_BYTES_LIMIT))]
    max_document_bytes: u64,
    /// Output schemas: full (the response schema, admitting the nulls and
    /// loose oneOfs real APIs send), strict (the response schema's types as
    /// written), loose ({"type":"object"}), or off.
    #[arg(long, value_enum, default_value_t = OutputMode::Full)]
    output_schema: OutputMode,
    /// Size budget of each tool's inputSchema and outputSchema, in bytes of
    /// compact JSON (about 4 bytes a token); past it, nested objects are
    /// summarized and point at a resource with the full schema. 0 = no limit.
    #[arg(long, value_name = "BYTES", default_value_t = openapi2mcp::tools::DEFAULT_SCHEMA_BUDGET,
          value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_SCHEMA_BUDGET))]
    schema_budget: usize,
    /// Size budget of each tool's outputSchema, in bytes (default: half of
    /// --schema-budget). 0 = no limit.
    #[arg(long, value_name = "BYTES",
          value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_SCHEMA_BUDGET))]
    output_schema_budget: Option<usize>,
    /// Tool descriptions: full (as written) or short (first paragraph,
    /// without links, URLs or sentences the document repeats everywhere).
    #[arg(long, value_enum, default_value_t = DescriptionMode::Full)]
    descriptions: DescriptionMode,
    /// Which tool arguments MCP clients (2026-07-28, over HTTP) mirror into
    /// Mcp-Param-* headers for load balancers to route on (x-mcp-header):
    /// auto (the document's x-mcp-header extensions, and header parameters
    /// of string, integer or boolean type that carry no credential), explicit
    /// (only the document's), or none.
    #[arg(long, value_enum, default_value_t = McpHeaderMode::Auto)]
    mcp_headers: McpHeaderMode,
    /// Keep only operations with one of these tags (repeatable or comma-separated).
    #[arg(long = "tag", value_delimiter = ',')]
    tags: Vec<String>,
    /// Drop operations with one of these tags.
    #[arg(long = "exclude-tag", value_delimiter = ',')]
    exclude_tags: Vec<String>,
    /// Keep only these operations (operationId or tool name).
    #[arg(long = "operation", value_delimiter = ',')]
    operations: Vec<String>,
    /// Drop these operations (operationId or tool name).
    #[arg(long = "exclude-operation", value_delimiter = ',')]
    exclude_operations: Vec<String>,
    /// Keep only these HTTP methods.
    #[arg(long = "method", value_delimiter = ',')]
    methods: Vec<String>,
    /// Keep only paths matching these globs (`*` within a segment, `**` across).
    #[arg(long = "path")]
    paths: Vec<String>,
    /// Drop paths matching these globs.
    #[arg(long = "exclude-path")]
    exclude_paths: Vec<String>,
    /// Keep only read-only tools (GET, HEAD, OPTIONS, or x-mcp readOnlyHint).
    #[arg(long)]
    read_only: bool,
    /// Do not print warnings about the document.
    #[arg(long, short)]
    quiet: bool,
}

impl SpecArgs {
    /// The document (clap requires it unless `--config` is given, which
    /// only `serve` reads).
    fn location(&self) -> &str {
        self.spec.as_deref().unwrap_or_default()
    }

    /// Defaults for a document, as if given alone on the command line.
    fn for_document(spec: &str) -> Self {
        Self {
            spec: Some(spec.to_string()),
            config: None,
            overlays: Vec::new(),
            arazzo: Vec::new(),
            allow_remote_refs: false,
            max_document_bytes: DEFAULT_MAX_DOCUMENT_BYTES,
            output_schema: OutputMode::Off,
            schema_budget: openapi2mcp::tools::DEFAULT_SCHEMA_BUDGET,
            output_schema_budget: None,
            descriptions: DescriptionMode::Full,
            mcp_headers: McpHeaderMode::Auto,
            tags: Vec::new(),
            exclude_tags: Vec::new(),
            operations: Vec::new(),
            exclude_operations: Vec::new(),
            methods: Vec::new(),
            paths: Vec::new(),
            exclude_paths: Vec::new(),
            read_only: false,
            quiet: true,
        }
    }
}

/// The largest --max-document-bytes accepted: 1 TiB.
const MAX_DOCUMENT_BYTES_LIMIT: u64 = 1 << 40;

/// The largest --schema-budget and --output-schema-budget: 1 GiB.
const MAX_SCHEMA_BUDGET: u64 = 1 << 30;

/// The largest --max-tokens: far past any context window.
const MAX_TOKENS: u64 = 1 << 40;

/// The --watch-interval range: a tenth of a second to a day.
fn parse_watch_interval(s: &str) -> Result<f64, String> {
    number_in(s, 0.1, 86_400.0, "seconds")
}

#[derive(Clone, Copy, ValueEnum)]
enum OutputMode {
    Full,
    Strict,
    Loose,
    Off,
}

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

/// Memory freed is returned to the OS at once (no purge delay) and arenas
/// are committed as they fill, not up front: measured on GitHub's and
/// Microsoft Graph's documents, this keeps the peak RSS below glibc's
/// (67 vs 75 MB, 209 vs 230 MB) while start-up stays faster (bench/README).
fn tune_allocator() {
    // SAFETY: plain setters of mimalloc's global options, called before
    // any thread is started (from the ELF constructor, and again from
    // `main` where there is none).
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0);
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

fn main() -> ExitCode {
    // A selector worker (see `runtime::select`): this process was started
    // to evaluate one jq selector for a server, and does nothing else.
    if let Some(code) = openapi2mcp::runtime::select::serve_as_worker() {
        return ExitCode::from(code);
    }
    tune_allocator();
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
    let config_given = match &cli.command {
        Command::List(a) => a.spec.config.is_some(),
        Command::Generate(a) => a.spec.config.is_some(),
        Command::Lint(a) => a.spec.config.is_some(),
        _ => false,
    };
    if config_given {
        anyhow::bail!("--config applies to `serve` only; give this command one document");
    }
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

/// The pipeline options the flags ask for (the first load and every reload use them).
fn pipeline_options(args: &SpecArgs, keep_examples: bool) -> Result<PipelineOptions> {
    Ok(PipelineOptions {
        arazzo: args.arazzo.clone(),
        load: LoadOptions {
            allow_remote_refs: args.allow_remote_refs,
            max_document_bytes: args.max_document_bytes,
            keep_examples,
            overlays: args.overlays.clone(),
            ..LoadOptions::default()
        },
        build: BuildOptions {
            output_schemas: match args.output_schema {
                OutputMode::Full => OutputSchemaMode::Full,
                OutputMode::Strict => OutputSchemaMode::Strict,
                OutputMode::Loose => OutputSchemaMode::Loose,
                OutputMode::Off => OutputSchemaMode::Off,
            },
            selection: selection(args)?,
            schema_budget: args.schema_budget,
            output_schema_budget: args.output_schema_budget.unwrap_or(
                openapi2mcp::tools::default_output_budget(args.schema_budget),
            ),
            descriptions: args.descriptions,
            mcp_headers: args.mcp_headers,
            name_prefix: String::new(),
        },
    })
}

fn selection(args: &SpecArgs) -> Result<Selection> {
    Ok(Selection {
        include_tags: args.tags.clone(),
        exclude_tags: args.exclude_tags.clone(),
        include_operations: args.operations.clone(),
        exclude_operations: args.exclude_operations.clone(),
        methods: args.methods.clone(),
        include_paths: PathGlobs::new(&args.paths).map_err(anyhow::Error::msg)?,
        exclude_paths: PathGlobs::new(&args.exclude_paths).map_err(anyhow::Error::msg)?,
        read_only: args.read_only,
    })
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
    if let Some(file) = &args.spec.config {
        let per_api = [
            ("--mock", args.mock),
            ("--overlay", !args.spec.overlays.is_empty()),
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
    // A bar only where it helps: big documents, and stderr a terminal
    // (indicatif draws nothing otherwise).
    let bar = (catalog.tools.len() >= 200).then(|| {
        let bar =
            indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr());
        bar.set_style(
            indicatif::ProgressStyle::with_template("generating {bar:30} {pos}/{len} modules")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let mut progress = |done: usize, total: usize| {
        if let Some(bar) = &bar {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        }
    };
    let command = GenerateCommand {
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
        overlays: args.overlays,
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

/// Writes a command's output to stdout. A reader that has gone (`| head`)
/// is not an error: the output was wanted only that far.
fn write_stdout<E>(
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
        overlays: args.overlays.clone(),
        ..SpecArgs::for_document(&spec)
    };
    let loaded = match load_catalog(&spec_args)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let command = ConfigCommand {
        location: spec,
        overlays: args.overlays,
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

fn login(args: LoginArgs) -> Result<ExitCode> {
    let spec_args = SpecArgs {
        overlays: args.overlays.clone(),
        ..SpecArgs::for_document(&args.spec)
    };
    let loaded = match load_catalog(&spec_args)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let said =
        openapi2mcp::server::login::login(&loaded.catalog.security_schemes, &args.flags.command())?;
    eprintln!("{said}");
    Ok(ExitCode::SUCCESS)
}

fn logout(args: LogoutArgs) -> Result<ExitCode> {
    let spec_args = SpecArgs {
        overlays: args.overlays.clone(),
        ..SpecArgs::for_document(&args.spec)
    };
    let loaded = match load_catalog(&spec_args)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let said = args.flags.run(&loaded.catalog.security_schemes)?;
    eprintln!("{said}");
    Ok(ExitCode::SUCCESS)
}

fn lint(args: LintArgs) -> Result<ExitCode> {
    let loaded = match load_catalog(&args.spec)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let command = LintCommand {
        format: match args.format {
            LintFormat::Text => commands::lint::LintFormat::Text,
            LintFormat::Json => commands::lint::LintFormat::Json,
            LintFormat::Sarif => commands::lint::LintFormat::Sarif,
        },
        max_tokens: args.max_tokens,
        deny: match args.deny {
            DenyLevel::Note => Level::Note,
            DenyLevel::Warning => Level::Warning,
            DenyLevel::Error => Level::Error,
        },
        schema_budget: args.spec.schema_budget,
    };
    let linted = commands::lint::run(&loaded, args.spec.location(), &command)?;
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
