//! The command line's flags (clap): which command, which document, and
//! how it is read, turned into tools and served; and the pipeline options
//! they ask for.

use anyhow::Result;
use clap::builder::RangedU64ValueParser;
use clap::{ArgGroup, Args, Parser, Subcommand, ValueEnum};

use openapi2mcp::commands;
use openapi2mcp::document::{DEFAULT_FETCH_TIMEOUT, DEFAULT_MAX_DOCUMENT_BYTES, LoadOptions};
use openapi2mcp::pipeline::PipelineOptions;
use openapi2mcp::server::cli::{DEFAULT_LOG_FILTER, ServeFlags, number_in};
use openapi2mcp::tools::descriptions::DescriptionMode;
use openapi2mcp::tools::{
    BuildOptions, McpHeaderMode, OutputSchemaMode, Selection, select::PathGlobs,
};

/// Turn any OpenAPI document into a Model Context Protocol server.
#[derive(Parser)]
#[command(name = "openapi2mcp", version, about)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
    /// Log filter (e.g. `info`, `openapi2mcp=debug`); also RUST_LOG.
    #[arg(
        long,
        global = true,
        env = openapi2mcp::runtime::settings::LOG,
        default_value = DEFAULT_LOG_FILTER
    )]
    pub(crate) log: String,
}

#[derive(Subcommand)]
pub(crate) enum Command {
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
pub(crate) struct LoginArgs {
    /// OpenAPI document: a file path or an http(s) URL.
    pub(crate) spec: String,
    #[command(flatten)]
    pub(crate) overlay: OverlayArgs,
    #[command(flatten)]
    pub(crate) flags: openapi2mcp::server::login::LoginFlags,
}

#[derive(Args)]
pub(crate) struct LogoutArgs {
    /// OpenAPI document: a file path or an http(s) URL.
    pub(crate) spec: String,
    #[command(flatten)]
    pub(crate) overlay: OverlayArgs,
    #[command(flatten)]
    pub(crate) flags: openapi2mcp::server::login::LogoutFlags,
}

#[derive(Args)]
#[command(group(ArgGroup::new("document").required(true).args(["spec"])))]
pub(crate) struct LintArgs {
    #[command(flatten)]
    pub(crate) spec: SpecArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = LintFormat::Text)]
    pub(crate) format: LintFormat,
    /// Fail (exit 1) when the full tool list takes more tokens than this.
    #[arg(long, value_name = "N",
          value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_TOKENS))]
    pub(crate) max_tokens: Option<usize>,
    /// Fail (exit 1) on findings at or above this level (default: error).
    #[arg(long, value_enum, default_value_t = DenyLevel::Error)]
    pub(crate) deny: DenyLevel,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum LintFormat {
    Text,
    Json,
    Sarif,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum DenyLevel {
    Note,
    Warning,
    Error,
}

#[derive(Args)]
pub(crate) struct MockArgs {
    /// OpenAPI document: a file path or an http(s) URL; JSON or YAML.
    pub(crate) spec: String,
    #[command(flatten)]
    pub(crate) overlay: OverlayArgs,
    /// Follow `$ref`s to absolute http(s) URLs.
    #[arg(help_heading = "Document", long)]
    pub(crate) allow_remote_refs: bool,
    /// The most bytes read from one URL (the document, an overlay, a
    /// remote `$ref`); a longer or endless answer is an error.
    #[arg(help_heading = "Document", long, value_name = "BYTES", default_value_t = DEFAULT_MAX_DOCUMENT_BYTES,
          value_parser = clap::value_parser!(u64).range(1..=MAX_DOCUMENT_BYTES_LIMIT))]
    pub(crate) max_document_bytes: u64,
    /// The longest one fetch of a URL (the document, an overlay, a remote
    /// `$ref`, a --watch poll) may take, whole: from sending the request to
    /// the last byte of the body.
    #[arg(help_heading = "Document", long, value_name = "SECS", env = openapi2mcp::runtime::settings::FETCH_TIMEOUT,
          default_value_t = DEFAULT_FETCH_TIMEOUT.as_secs_f64(), value_parser = parse_fetch_timeout)]
    pub(crate) fetch_timeout: f64,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:4010")]
    pub(crate) listen: std::net::SocketAddr,
    /// Seed for synthesized values (the same seed gives the same responses).
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// Ignore documented examples: always synthesize responses from the schemas.
    #[arg(long)]
    pub(crate) no_examples: bool,
    #[command(flatten)]
    pub(crate) state: commands::mock::StatefulArgs,
    /// Do not print warnings about the document.
    #[arg(long, short)]
    pub(crate) quiet: bool,
}

#[derive(Args)]
#[command(group(ArgGroup::new("document").required(true).args(["spec", "config"])))]
pub(crate) struct ServeArgs {
    #[command(flatten)]
    pub(crate) spec: SpecArgs,
    /// Several APIs through one endpoint, from a YAML or TOML file
    /// (documents, base URLs, credentials, headers, overlays, filters and a
    /// tool-name prefix per API; see docs/reference/configuration-file.md).
    #[arg(
        help_heading = "Document",
        long,
        value_name = "FILE",
        conflicts_with = "spec"
    )]
    pub(crate) config: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub(crate) flags: ServeFlags,
    /// Answer API calls from an in-process mock of the document (see `mock`)
    /// instead of the real API, unless --base-url is given.
    #[arg(help_heading = "Mock backend", long)]
    pub(crate) mock: bool,
    #[command(flatten, next_help_heading = "Mock backend")]
    pub(crate) mock_state: commands::mock::ServeMockArgs,
    /// Reload the document when it changes (a file: on change; a URL:
    /// polled with If-None-Match/If-Modified-Since). SIGHUP always reloads.
    #[arg(help_heading = "Document", long)]
    pub(crate) watch: bool,
    /// Seconds between polls of a document URL under --watch.
    #[arg(help_heading = "Document", long, value_name = "SECS", default_value_t = 30.0, value_parser = parse_watch_interval)]
    pub(crate) watch_interval: f64,
}

#[derive(Args)]
#[command(group(ArgGroup::new("document").required(true).args(["spec"])))]
pub(crate) struct GenerateArgs {
    #[command(flatten)]
    pub(crate) spec: SpecArgs,
    /// Directory of the crate (created if needed).
    #[arg(long, short)]
    pub(crate) out: std::path::PathBuf,
    /// Cargo package name (default: the API title as a slug, plus `-mcp`).
    #[arg(long)]
    pub(crate) name: Option<String>,
    /// Directory of template overrides, named like the files in `templates/`.
    #[arg(long)]
    pub(crate) templates: Option<std::path::PathBuf>,
    /// Compare with the crate in --out instead of writing; exit 1 when it is stale.
    #[arg(long)]
    pub(crate) check: bool,
    /// Copy the runtime and server crates (and the model crate they depend
    /// on) whole under vendor/ (the default): the crate builds with no
    /// registry access.
    #[arg(long, conflicts_with_all = ["runtime_path", "runtime_registry"])]
    pub(crate) vendor: bool,
    /// Depend on the runtime and server crates by path: DIR/runtime and
    /// DIR/server, which find DIR/model themselves (DIR is openapi2mcp's
    /// crates/ folder; relative to --out).
    #[arg(long, value_name = "DIR", conflicts_with = "runtime_registry")]
    pub(crate) runtime_path: Option<std::path::PathBuf>,
    /// Depend on the runtime and server crates by version only, from a
    /// registry that has them.
    #[arg(long)]
    pub(crate) runtime_registry: bool,
}

impl GenerateArgs {
    /// Where the generated crate gets the runtime crates from.
    pub(crate) fn runtime_source(&self) -> openapi2mcp::codegen::RuntimeSource {
        use openapi2mcp::codegen::RuntimeSource;
        match (&self.runtime_path, self.runtime_registry) {
            (Some(dir), _) => RuntimeSource::Path(dir.clone()),
            (None, true) => RuntimeSource::Registry,
            (None, false) => RuntimeSource::Vendor,
        }
    }
}

#[derive(Args)]
pub(crate) struct ConfigArgs {
    /// OpenAPI document: a file path or an http(s) URL.
    #[arg(required_unless_present = "config")]
    pub(crate) spec: Option<String>,
    /// The entry for `serve --config FILE` (several APIs) instead of a document.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["spec", "overlays", "mock", "base_url"])]
    pub(crate) config: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub(crate) overlay: OverlayArgs,
    /// Key of the entry (default: the API title as a slug).
    #[arg(long)]
    pub(crate) name: Option<String>,
    /// Serve from the built-in mock instead of the real API.
    #[arg(long)]
    pub(crate) mock: bool,
    /// Base URL of the API.
    #[arg(long)]
    pub(crate) base_url: Option<String>,
}

#[derive(Args)]
#[command(group(ArgGroup::new("document").required(true).args(["spec"])))]
pub(crate) struct ListArgs {
    #[command(flatten)]
    pub(crate) spec: SpecArgs,
    /// Print the full tool definitions as JSON, exactly as tools/list carries them.
    #[arg(long)]
    pub(crate) json: bool,
    /// Count the tokens (o200k_base) of the tool list in each --tools mode.
    #[arg(long, conflicts_with = "json")]
    pub(crate) footprint: bool,
}

/// `--overlay`, declared once for every command that reads a document.
#[derive(Args, Clone, Default)]
pub(crate) struct OverlayArgs {
    /// OpenAPI Overlay 1.0 document applied to the document before anything
    /// else (rename, describe, exclude, annotate); repeatable, in order.
    #[arg(help_heading = "Document", long = "overlay", value_name = "FILE")]
    pub(crate) overlays: Vec<String>,
}

/// Which document, and which of its operations.
#[derive(Args)]
pub(crate) struct SpecArgs {
    /// OpenAPI document: a file path or an http(s) URL; JSON or YAML.
    pub(crate) spec: Option<String>,
    #[command(flatten)]
    pub(crate) overlay: OverlayArgs,
    /// Arazzo 1.x document whose workflows become tools too (each runs its
    /// steps through the document's operations); repeatable.
    #[arg(help_heading = "Document", long = "arazzo", value_name = "FILE")]
    pub(crate) arazzo: Vec<String>,
    /// Follow `$ref`s to absolute http(s) URLs.
    #[arg(help_heading = "Document", long)]
    pub(crate) allow_remote_refs: bool,
    /// The most bytes read from one URL (the document, an overlay, a
    /// remote `$ref`, a --watch poll); a longer or endless answer is an error.
    #[arg(help_heading = "Document", long, value_name = "BYTES", default_value_t = DEFAULT_MAX_DOCUMENT_BYTES,
          value_parser = clap::value_parser!(u64).range(1..=MAX_DOCUMENT_BYTES_LIMIT))]
    pub(crate) max_document_bytes: u64,
    /// The longest one fetch of a URL (the document, an overlay, a remote
    /// `$ref`, a --watch poll) may take, whole: from sending the request to
    /// the last byte of the body.
    #[arg(help_heading = "Document", long, value_name = "SECS", env = openapi2mcp::runtime::settings::FETCH_TIMEOUT,
          default_value_t = DEFAULT_FETCH_TIMEOUT.as_secs_f64(), value_parser = parse_fetch_timeout)]
    pub(crate) fetch_timeout: f64,
    /// Output schemas: full (the response schema, admitting the nulls and
    /// loose oneOfs real APIs send), strict (the response schema's types as
    /// written), loose ({"type":"object"}), or off.
    #[arg(help_heading = "Tool shape", long, value_enum, default_value_t = OutputMode::Full)]
    pub(crate) output_schema: OutputMode,
    /// Size budget of each tool's inputSchema and outputSchema, in bytes of
    /// compact JSON (about 4 bytes a token); past it, nested objects are
    /// summarized and point at a resource with the full schema. 0 = no limit.
    #[arg(help_heading = "Tool shape", long, value_name = "BYTES", default_value_t = openapi2mcp::tools::DEFAULT_SCHEMA_BUDGET,
          value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_SCHEMA_BUDGET))]
    pub(crate) schema_budget: usize,
    /// Size budget of each tool's outputSchema, in bytes (default: half of
    /// --schema-budget). 0 = no limit.
    #[arg(help_heading = "Tool shape", long, value_name = "BYTES",
          value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_SCHEMA_BUDGET))]
    pub(crate) output_schema_budget: Option<usize>,
    /// Tool descriptions: full (as written) or short (first paragraph,
    /// without links, URLs or sentences the document repeats everywhere).
    #[arg(help_heading = "Tool shape", long, value_enum, default_value_t = DescriptionMode::Full)]
    pub(crate) descriptions: DescriptionMode,
    /// Which tool arguments MCP clients (2026-07-28, over HTTP) mirror into
    /// Mcp-Param-* headers for load balancers to route on (x-mcp-header):
    /// auto (the document's x-mcp-header extensions, and header parameters
    /// of string, integer or boolean type that carry no credential), explicit
    /// (only the document's), or none.
    #[arg(help_heading = "Tool shape", long, value_enum, default_value_t = McpHeaderMode::Auto)]
    pub(crate) mcp_headers: McpHeaderMode,
    /// Keep only operations with one of these tags (repeatable or comma-separated).
    #[arg(help_heading = "Selection", long = "tag", value_delimiter = ',')]
    pub(crate) tags: Vec<String>,
    /// Drop operations with one of these tags.
    #[arg(
        help_heading = "Selection",
        long = "exclude-tag",
        value_delimiter = ','
    )]
    pub(crate) exclude_tags: Vec<String>,
    /// Keep only these operations (operationId or tool name).
    #[arg(help_heading = "Selection", long = "operation", value_delimiter = ',')]
    pub(crate) operations: Vec<String>,
    /// Drop these operations (operationId or tool name).
    #[arg(
        help_heading = "Selection",
        long = "exclude-operation",
        value_delimiter = ','
    )]
    pub(crate) exclude_operations: Vec<String>,
    /// Keep only these HTTP methods.
    #[arg(help_heading = "Selection", long = "method", value_delimiter = ',')]
    pub(crate) methods: Vec<String>,
    /// Keep only paths matching these globs (`*` within a segment, `**` across).
    #[arg(help_heading = "Selection", long = "path")]
    pub(crate) paths: Vec<String>,
    /// Drop paths matching these globs.
    #[arg(help_heading = "Selection", long = "exclude-path")]
    pub(crate) exclude_paths: Vec<String>,
    /// Keep only read-only tools (GET, HEAD, OPTIONS, or x-mcp readOnlyHint).
    #[arg(help_heading = "Selection", long)]
    pub(crate) read_only: bool,
    /// Do not print warnings about the document.
    #[arg(long, short)]
    pub(crate) quiet: bool,
}

impl SpecArgs {
    /// The document (each command's `document` group requires it; only
    /// `serve` takes `--config` instead).
    pub(crate) fn location(&self) -> &str {
        self.spec.as_deref().unwrap_or_default()
    }

    /// Defaults for a document, as if given alone on the command line.
    pub(crate) fn for_document(spec: &str) -> Self {
        Self {
            spec: Some(spec.to_string()),
            overlay: OverlayArgs::default(),
            arazzo: Vec::new(),
            allow_remote_refs: false,
            max_document_bytes: DEFAULT_MAX_DOCUMENT_BYTES,
            fetch_timeout: DEFAULT_FETCH_TIMEOUT.as_secs_f64(),
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
pub(crate) const MAX_DOCUMENT_BYTES_LIMIT: u64 = 1 << 40;

/// The largest --schema-budget and --output-schema-budget: 1 GiB.
pub(crate) const MAX_SCHEMA_BUDGET: u64 = 1 << 30;

/// The largest --max-tokens: far past any context window.
pub(crate) const MAX_TOKENS: u64 = 1 << 40;

/// The --fetch-timeout range: a tenth of a second to an hour.
pub(crate) fn parse_fetch_timeout(s: &str) -> Result<f64, String> {
    number_in(s, 0.1, 3_600.0, "seconds")
}

/// The --watch-interval range: a tenth of a second to a day.
pub(crate) fn parse_watch_interval(s: &str) -> Result<f64, String> {
    number_in(s, 0.1, 86_400.0, "seconds")
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum OutputMode {
    Full,
    Strict,
    Loose,
    Off,
}

/// The pipeline options the flags ask for (the first load and every reload use them).
pub(crate) fn pipeline_options(args: &SpecArgs, keep_examples: bool) -> Result<PipelineOptions> {
    Ok(PipelineOptions {
        arazzo: args.arazzo.clone(),
        load: LoadOptions {
            allow_remote_refs: args.allow_remote_refs,
            max_document_bytes: args.max_document_bytes,
            http_timeout: std::time::Duration::from_secs_f64(args.fetch_timeout),
            keep_examples,
            overlays: args.overlay.overlays.clone(),
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

pub(crate) fn selection(args: &SpecArgs) -> Result<Selection> {
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

impl LintArgs {
    /// What `lint` does, from its flags.
    pub(crate) fn command(&self) -> openapi2mcp::commands::lint::LintCommand {
        use openapi2mcp::commands::lint::LintFormat as Format;
        use openapi2mcp::lint::Level;
        openapi2mcp::commands::lint::LintCommand {
            format: match self.format {
                LintFormat::Text => Format::Text,
                LintFormat::Json => Format::Json,
                LintFormat::Sarif => Format::Sarif,
            },
            max_tokens: self.max_tokens,
            deny: match self.deny {
                DenyLevel::Note => Level::Note,
                DenyLevel::Warning => Level::Warning,
                DenyLevel::Error => Level::Error,
            },
            schema_budget: self.spec.schema_budget,
        }
    }
}
