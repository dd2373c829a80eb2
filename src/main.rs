//! The `openapi2mcp` command line: a thin layer over the library that turns
//! flags into options, prints results, and maps errors to exit codes.
//! Logs go to stderr; stdout carries only the requested output.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};

use openapi2mcp::document::{self, Diagnostic, LoadOptions, Severity};
use openapi2mcp::pipeline::{self, PipelineError, PipelineOptions};
use openapi2mcp::server::cli::{DEFAULT_LOG_FILTER, ServeFlags, init_logging};
use openapi2mcp::tools::descriptions::DescriptionMode;
use openapi2mcp::tools::{BuildOptions, Catalog, OutputSchemaMode, Selection, select::PathGlobs};

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
}

#[derive(Args)]
struct LintArgs {
    #[command(flatten)]
    spec: SpecArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = LintFormat::Text)]
    format: LintFormat,
    /// Fail (exit 1) when the full tool list takes more tokens than this.
    #[arg(long, value_name = "N")]
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
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:4010")]
    listen: std::net::SocketAddr,
    /// Seed for synthesized values (the same seed gives the same responses).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Ignore documented examples: always synthesize responses from the schemas.
    #[arg(long)]
    no_examples: bool,
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
    /// Reload the document when it changes (a file: on change; a URL:
    /// polled with If-None-Match/If-Modified-Since). SIGHUP always reloads.
    #[arg(long)]
    watch: bool,
    /// Seconds between polls of a document URL under --watch.
    #[arg(long, value_name = "SECS", default_value_t = 30.0)]
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
    spec: String,
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
    spec: String,
    /// OpenAPI Overlay 1.0 document applied to the document before anything
    /// else (rename, describe, exclude, annotate); repeatable, in order.
    #[arg(long = "overlay", value_name = "FILE")]
    overlays: Vec<String>,
    /// Follow `$ref`s to absolute http(s) URLs.
    #[arg(long)]
    allow_remote_refs: bool,
    /// Output schemas: full (the response schema), loose ({"type":"object"}), or off.
    #[arg(long, value_enum, default_value_t = OutputMode::Full)]
    output_schema: OutputMode,
    /// Size budget of each tool's inputSchema and outputSchema, in bytes of
    /// compact JSON (about 4 bytes a token); past it, nested objects are
    /// summarized and point at a resource with the full schema. 0 = no limit.
    #[arg(long, value_name = "BYTES", default_value_t = openapi2mcp::tools::DEFAULT_SCHEMA_BUDGET)]
    schema_budget: usize,
    /// Size budget of each tool's outputSchema, in bytes (default: half of
    /// --schema-budget). 0 = no limit.
    #[arg(long, value_name = "BYTES")]
    output_schema_budget: Option<usize>,
    /// Tool descriptions: full (as written) or short (first paragraph,
    /// without links, URLs or sentences the document repeats everywhere).
    #[arg(long, value_enum, default_value_t = DescriptionMode::Full)]
    descriptions: DescriptionMode,
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
    /// Defaults for a document, as if given alone on the command line.
    fn for_document(spec: &str) -> Self {
        Self {
            spec: spec.to_string(),
            overlays: Vec::new(),
            allow_remote_refs: false,
            output_schema: OutputMode::Off,
            schema_budget: openapi2mcp::tools::DEFAULT_SCHEMA_BUDGET,
            output_schema_budget: None,
            descriptions: DescriptionMode::Full,
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

#[derive(Clone, Copy, ValueEnum)]
enum OutputMode {
    Full,
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
    match cli.command {
        Command::List(args) => list(args),
        Command::Serve(args) => serve(*args),
        Command::Generate(args) => generate(args),
        Command::Mock(args) => mock(args),
        Command::Config(args) => config(args),
        Command::Lint(args) => lint(args),
    }
}

/// Loads the document and builds the catalog, printing diagnostics to stderr.
/// A fatal diagnostic is printed and turned into exit code 1.
fn load_catalog(args: &SpecArgs) -> Result<Result<Catalog, ExitCode>> {
    Ok(
        load_catalog_and_document(args, false)?.map(|(catalog, live)| {
            // The commands using this print and exit: freeing the document
            // (a Value tree of up to hundreds of MB) would only delay that.
            std::mem::forget(live);
            catalog
        }),
    )
}

/// The live schema source of a loaded document.
type Live = std::sync::Arc<openapi2mcp::tools::live::LiveSchemas>;

/// [`load_catalog`], also handing back the document (with
/// `components.examples` when `keep_examples`, as the mock needs them).
/// A document that yields no tools is an error (exit 1), printed with the
/// diagnostics that say why each operation was dropped, even with --quiet.
fn load_catalog_and_document(
    args: &SpecArgs,
    keep_examples: bool,
) -> Result<Result<(Catalog, Live), ExitCode>> {
    let options = pipeline_options(args, keep_examples)?;
    Ok(report(args, pipeline::load_catalog(&args.spec, &options))
        .map(|loaded| (loaded.catalog, loaded.schemas)))
}

/// The catalog `serve` serves: every tool planned, each built when a
/// client first needs it (see [`pipeline::load_served`]).
fn load_served(args: &SpecArgs, keep_examples: bool) -> Result<Result<pipeline::Served, ExitCode>> {
    let options = pipeline_options(args, keep_examples)?;
    Ok(report(args, pipeline::load_served(&args.spec, &options)))
}

/// Prints what loading found (warnings unless --quiet; a fatal error, or
/// why no operation became a tool, always) and turns a failure into exit
/// code 1.
fn report<T: HasDiagnostics>(
    args: &SpecArgs,
    loaded: Result<T, PipelineError>,
) -> Result<T, ExitCode> {
    match loaded {
        Ok(loaded) => {
            if !args.quiet {
                print_diagnostics(loaded.diagnostics());
            }
            Ok(loaded)
        }
        Err(PipelineError::Load(fatal)) => {
            eprintln!("{fatal}");
            Err(ExitCode::FAILURE)
        }
        Err(PipelineError::NoTools {
            summary,
            diagnostics,
            ..
        }) => {
            let errors: Vec<Diagnostic> = diagnostics
                .into_iter()
                .filter(|d| !args.quiet || d.severity == Severity::Error)
                .collect();
            print_diagnostics(&errors);
            eprintln!("{summary}");
            Err(ExitCode::FAILURE)
        }
    }
}

/// What a pipeline result carries that [`report`] prints.
trait HasDiagnostics {
    fn diagnostics(&self) -> &[Diagnostic];
}

impl HasDiagnostics for pipeline::Loaded {
    fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }
}

impl HasDiagnostics for pipeline::Served {
    fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }
}

/// The pipeline options the flags ask for (the first load and every reload use them).
fn pipeline_options(args: &SpecArgs, keep_examples: bool) -> Result<PipelineOptions> {
    Ok(PipelineOptions {
        load: LoadOptions {
            allow_remote_refs: args.allow_remote_refs,
            keep_examples,
            overlays: args.overlays.clone(),
            ..LoadOptions::default()
        },
        build: BuildOptions {
            output_schemas: match args.output_schema {
                OutputMode::Full => OutputSchemaMode::Full,
                OutputMode::Loose => OutputSchemaMode::Loose,
                OutputMode::Off => OutputSchemaMode::Off,
            },
            selection: selection(args)?,
            schema_budget: args.schema_budget,
            output_schema_budget: args.output_schema_budget.unwrap_or(
                openapi2mcp::tools::default_output_budget(args.schema_budget),
            ),
            descriptions: args.descriptions,
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

fn print_diagnostics(diags: &[Diagnostic]) {
    const SHOWN: usize = 20;
    for d in diags.iter().take(SHOWN) {
        eprintln!("{d}");
    }
    if diags.len() > SHOWN {
        let errors = diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        eprintln!(
            "... and {} more ({} errors); use --quiet to hide warnings",
            diags.len() - SHOWN,
            errors
        );
    }
}

fn serve(args: ServeArgs) -> Result<ExitCode> {
    use openapi2mcp::server::Bridge;

    let (catalog, live) = match load_served(&args.spec, args.mock)? {
        Ok(served) => (served.catalog, served.schemas),
        Err(code) => return Ok(code),
    };
    // The mock's diagnostics repeat what building the catalog reported.
    let mock = args.mock.then(|| {
        let (server, _) = openapi2mcp::mock::MockServer::new(
            live.document(),
            openapi2mcp::mock::MockOptions::default(),
        );
        std::sync::Arc::new(server)
    });
    let mut options = args.flags.options().map_err(anyhow::Error::msg)?;
    options.schemas = openapi2mcp::runtime::schemas::Schemas(live);
    let runtime = args.flags.runtime().context("starting the async runtime")?;
    runtime.block_on(async move {
        if let Some(server) = mock {
            let bound = openapi2mcp::mock::bind(server, ([127, 0, 0, 1], 0).into()).await?;
            if options.base_url.is_none() {
                options.base_url = Some(bound.base_url());
            }
            tracing::info!(url = %bound.base_url(), "mock API serving");
            tokio::spawn(async move {
                if let Err(e) = bound.run(std::future::pending()).await {
                    tracing::error!("mock API stopped: {e}");
                }
            });
        }
        let bridge = Bridge::new(catalog, options)?;
        let reloader = openapi2mcp::reload::Reloader::new(
            &args.spec.spec,
            pipeline_options(&args.spec, args.mock)?,
            bridge.clone(),
        );
        reloader.spawn_on_sighup();
        if args.watch {
            if !(args.watch_interval.is_finite() && args.watch_interval > 0.0) {
                anyhow::bail!("--watch-interval must be a positive number of seconds");
            }
            reloader
                .spawn_watch(std::time::Duration::from_secs_f64(args.watch_interval))
                .map_err(anyhow::Error::msg)?;
        }
        args.flags.serve(bridge, "openapi2mcp").await?;
        Ok::<_, anyhow::Error>(())
    })?;
    Ok(ExitCode::SUCCESS)
}

fn generate(args: GenerateArgs) -> Result<ExitCode> {
    use openapi2mcp::codegen::{self, GenerateOptions};

    let (catalog, live) = match load_catalog_and_document(&args.spec, false)? {
        Ok(c) => c,
        Err(code) => return Ok(code),
    };
    let options = GenerateOptions {
        package: args.name.clone(),
        templates: args.templates.clone(),
        schemas: openapi2mcp::runtime::schemas::Schemas(live),
    };
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
    let generated = codegen::generate(&catalog, &options, &mut progress)?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let out = args.out.display();
    if args.check {
        let differences = generated.compare_with(&args.out)?;
        if differences.is_empty() {
            eprintln!("openapi2mcp: {out} is up to date");
            return Ok(ExitCode::SUCCESS);
        }
        for d in &differences {
            eprintln!("  {d}");
        }
        eprintln!(
            "openapi2mcp: {out} is stale ({} of {} files differ); regenerate with `openapi2mcp generate {} --out {out}` and the same options",
            differences.len(),
            generated.files.len(),
            args.spec.spec
        );
        return Ok(ExitCode::FAILURE);
    }
    let changed = generated.write_to(&args.out)?;
    eprintln!(
        "openapi2mcp: {} tools in {out} ({} files, {} changed); build with `cargo build --release --manifest-path {out}/Cargo.toml`",
        catalog.tools.len(),
        generated.files.len(),
        changed.len()
    );
    Ok(ExitCode::SUCCESS)
}

fn mock(args: MockArgs) -> Result<ExitCode> {
    use openapi2mcp::mock::{self, MockOptions, MockServer};

    let options = LoadOptions {
        allow_remote_refs: args.allow_remote_refs,
        keep_examples: true,
        overlays: args.overlays.clone(),
        ..LoadOptions::default()
    };
    let (doc, mut diags) = match document::load(&args.spec, &options) {
        Ok(x) => x,
        Err(fatal) => {
            eprintln!("{fatal}");
            return Ok(ExitCode::FAILURE);
        }
    };
    let (server, more) = MockServer::new(
        &doc,
        MockOptions {
            seed: args.seed,
            examples: !args.no_examples,
        },
    );
    let start = diags.len();
    diags.extend(more);
    doc.locate(&mut diags[start..]);
    drop(doc);
    if !args.quiet {
        print_diagnostics(&diags);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async move {
        let operations = server.operation_count();
        let bound = mock::bind(std::sync::Arc::new(server), args.listen).await?;
        eprintln!(
            "openapi2mcp: mock of {operations} operations at {}",
            bound.base_url()
        );
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        bound.run(shutdown).await?;
        Ok::<_, anyhow::Error>(())
    })?;
    Ok(ExitCode::SUCCESS)
}

fn config(args: ConfigArgs) -> Result<ExitCode> {
    let spec_args = SpecArgs {
        overlays: args.overlays.clone(),
        ..SpecArgs::for_document(&args.spec)
    };
    let catalog = match load_catalog(&spec_args)? {
        Ok(c) => c,
        Err(code) => return Ok(code),
    };
    // Clients start the server from elsewhere: absolute paths for all.
    let absolute = |location: &String| -> Result<String> {
        Ok(if location.contains("://") {
            location.clone()
        } else {
            std::path::absolute(location)
                .with_context(|| format!("resolving {location}"))?
                .display()
                .to_string()
        })
    };
    let document = absolute(&args.spec)?;
    let command = std::env::current_exe()
        .ok()
        .and_then(|p| p.canonicalize().ok())
        .map_or_else(|| "openapi2mcp".to_string(), |p| p.display().to_string());
    let mut serve_args = vec![document];
    for overlay in &args.overlays {
        serve_args.extend(["--overlay".to_string(), absolute(overlay)?]);
    }
    if args.mock {
        serve_args.push("--mock".into());
    }
    if let Some(url) = &args.base_url {
        serve_args.extend(["--base-url".to_string(), url.clone()]);
    }
    let snippet =
        openapi2mcp::client_config::snippet(&catalog, &command, &serve_args, args.name.as_deref());
    println!("{}", serde_json::to_string_pretty(&snippet)?);
    Ok(ExitCode::SUCCESS)
}

fn lint(args: LintArgs) -> Result<ExitCode> {
    use openapi2mcp::lint::{self, Level, LintOptions, report};
    let (catalog, live) = match load_catalog_and_document(&args.spec, false)? {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    let options = LintOptions {
        schema_budget: args.spec.schema_budget,
        ..LintOptions::default()
    };
    let found = lint::lint(&catalog, live.document(), &args.spec.spec, &options);
    match args.format {
        LintFormat::Text => print!("{}", report::text(&found, 10)),
        LintFormat::Json => println!("{}", serde_json::to_string_pretty(&report::json(&found))?),
        LintFormat::Sarif => println!("{}", serde_json::to_string_pretty(&report::sarif(&found))?),
    }
    let deny = match args.deny {
        DenyLevel::Note => Level::Note,
        DenyLevel::Warning => Level::Warning,
        DenyLevel::Error => Level::Error,
    };
    let mut failed = false;
    if let Some(worst) = found.worst().filter(|w| *w >= deny) {
        eprintln!(
            "lint: failed: findings at level {} (--deny {})",
            worst.as_str(),
            deny.as_str()
        );
        failed = true;
    }
    if let Some(max) = args.max_tokens.filter(|m| found.footprint.full > *m) {
        eprintln!(
            "lint: failed: the tool list takes {} tokens, over --max-tokens {max}",
            found.footprint.full
        );
        failed = true;
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn list(args: ListArgs) -> Result<ExitCode> {
    let catalog = match load_catalog(&args.spec)? {
        Ok(c) => c,
        Err(code) => return Ok(code),
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &catalog.to_mcp_json())
            .context("writing JSON to stdout")?;
        writeln!(out)?;
    } else {
        write_table(&mut out, &catalog)?;
        let auto = openapi2mcp::footprint::auto_mode(&catalog);
        writeln!(
            out,
            "serve --tools auto lists {}: the full list is about {} tokens (budget {})",
            auto.as_str(),
            openapi2mcp::footprint::estimate_full(&catalog),
            openapi2mcp::server::listing::AUTO_TOKEN_BUDGET
        )?;
        if args.footprint {
            let f = openapi2mcp::footprint::measure(&catalog)?;
            writeln!(
                out,
                "tokens of tools/list (o200k_base): full {}; discovery {} (4 meta-tools); toolsets {} (3 meta-tools, plus each enabled toolset's tools)",
                f.full, f.discovery, f.toolsets
            )?;
            if let Some((name, n)) = f.largest {
                writeln!(out, "largest tool: {name}, {n} tokens")?;
            }
        }
    }
    out.flush()?;
    // The process exits next; freeing every tool first only costs time
    // (a tenth of a Graph run).
    std::mem::forget(catalog);
    Ok(ExitCode::SUCCESS)
}

/// name, method, path, hints (R read-only, D destructive, I idempotent), args.
fn write_table(out: &mut impl Write, catalog: &Catalog) -> std::io::Result<()> {
    let name_w = catalog
        .tools
        .iter()
        .map(|t| t.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let path_w = catalog
        .tools
        .iter()
        .map(|t| t.http.path.len())
        .max()
        .unwrap_or(4)
        .clamp(4, 60);
    writeln!(
        out,
        "{:<name_w$}  {:<7} {:<path_w$}  HINTS  ARGS",
        "NAME", "METHOD", "PATH"
    )?;
    for t in &catalog.tools {
        let a = &t.annotations;
        let hints: String = [
            (a.read_only_hint, 'R'),
            (a.destructive_hint, 'D'),
            (a.idempotent_hint, 'I'),
        ]
        .iter()
        .map(|&(on, c)| if on { c } else { '-' })
        .collect();
        let args = t.input_schema["properties"]
            .as_object()
            .map_or(0, |p| p.len());
        writeln!(
            out,
            "{:<name_w$}  {:<7} {:<path_w$}  {hints}    {args}",
            t.name, t.http.method, t.http.path
        )?;
    }
    writeln!(
        out,
        "\n{} tools from {} {}",
        catalog.tools.len(),
        catalog.title,
        catalog.version
    )
}
