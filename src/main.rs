//! The `openapi2mcp` command line: a thin layer over the library that turns
//! flags into options, prints results, and maps errors to exit codes.
//! Logs go to stderr; stdout carries only the requested output.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};

use openapi2mcp::spec::{self, Diagnostic, LoadOptions, Severity};
use openapi2mcp::tools::{
    self, BuildOptions, Catalog, OutputSchemaMode, Selection, select::PathGlobs,
};

/// Turn any OpenAPI document into a Model Context Protocol server.
#[derive(Parser)]
#[command(name = "openapi2mcp", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Log filter (e.g. `info`, `openapi2mcp=debug`); also RUST_LOG.
    #[arg(long, global = true, env = "OPENAPI2MCP_LOG", default_value = "warn")]
    log: String,
}

#[derive(Subcommand)]
enum Command {
    /// List the tools a document yields (a table, or JSON as tools/list carries them).
    List(ListArgs),
}

#[derive(Args)]
struct ListArgs {
    #[command(flatten)]
    spec: SpecArgs,
    /// Print the full tool definitions as JSON, exactly as tools/list carries them.
    #[arg(long)]
    json: bool,
}

/// Which document, and which of its operations.
#[derive(Args)]
struct SpecArgs {
    /// OpenAPI document: a file path or an http(s) URL; JSON or YAML.
    spec: String,
    /// Follow `$ref`s to absolute http(s) URLs.
    #[arg(long)]
    allow_remote_refs: bool,
    /// Output schemas: full (the response schema), loose ({"type":"object"}), or off.
    #[arg(long, value_enum, default_value_t = OutputMode::Full)]
    output_schema: OutputMode,
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

#[derive(Clone, Copy, ValueEnum)]
enum OutputMode {
    Full,
    Loose,
    Off,
}

fn main() -> ExitCode {
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

fn init_logging(filter: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .or_else(|_| tracing_subscriber::EnvFilter::try_new(filter))
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::List(args) => list(args),
    }
}

/// Loads the document and builds the catalog, printing diagnostics to stderr.
/// A fatal diagnostic is printed and turned into exit code 1.
fn load_catalog(args: &SpecArgs) -> Result<Result<Catalog, ExitCode>> {
    let options = LoadOptions {
        allow_remote_refs: args.allow_remote_refs,
        keep_examples: false,
        ..LoadOptions::default()
    };
    let (mut doc, mut diags) = match spec::load(&args.spec, &options) {
        Ok(x) => x,
        Err(fatal) => {
            eprintln!("{fatal}");
            return Ok(Err(ExitCode::FAILURE));
        }
    };
    let build = BuildOptions {
        output_schemas: match args.output_schema {
            OutputMode::Full => OutputSchemaMode::Full,
            OutputMode::Loose => OutputSchemaMode::Loose,
            OutputMode::Off => OutputSchemaMode::Off,
        },
        selection: selection(args)?,
    };
    let (catalog, more) = tools::build(&doc, &build);
    let start = diags.len();
    diags.extend(more);
    doc.locate(&mut diags[start..]);
    doc.drop_sources();
    if !args.quiet {
        print_diagnostics(&diags);
    }
    Ok(Ok(catalog))
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
    }
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
