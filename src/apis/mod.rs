//! Several APIs behind one MCP endpoint (`serve --config FILE`): GitHub,
//! Jira and an internal API at once, each with its own document, base URL,
//! credentials, headers, overlays and filters, their tools namespaced by a
//! prefix. The APIs' catalogs are merged into one ([`merge`]), so every
//! listing mode, search and code mode span them all, while each call goes
//! out through its own API ([`crate::runtime::call::ApiMember`]). Each
//! document reloads on its own ([`Apis`] is the reload target of one
//! [`Reloader`] per API).

pub mod config;
pub mod merge;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use crate::commands::CommandError;
use crate::commands::mock::StateOptions;
use crate::document::LoadOptions;
use crate::mock::{self, MockSlot};
use crate::pipeline::{self, PipelineError, PipelineOptions};
use crate::reload::{ReloadTarget, Reloader};
use crate::runtime::auth::Credentials;
use crate::runtime::auth::fixed::FixedHeaders;
use crate::runtime::call::{ApiMember, ApiOptions};
use crate::runtime::catalog::LazyCatalog;
use crate::runtime::schemas::Schemas;
use crate::server::cli::ServeFlags;
use crate::server::{Bridge, ServeOptions};
use crate::tools::descriptions::DescriptionMode;
use crate::tools::live::LiveSchemas;
use crate::tools::select::PathGlobs;
use crate::tools::{BuildOptions, OutputSchemaMode, Selection};
use config::{ApiEntry, Config, ConfigError};
use merge::Part;

/// The APIs being served: what a reload of one of them re-merges with
/// the others.
pub struct Apis {
    bridge: Bridge,
    /// Each API's catalog and how its calls reach it, in tool order.
    loaded: tokio::sync::Mutex<(Vec<Part>, Vec<ApiMember>)>,
}

/// One API's reload target.
struct OneApi {
    apis: Arc<Apis>,
    index: usize,
}

impl ReloadTarget for OneApi {
    fn replace(
        &self,
        catalog: LazyCatalog,
        schemas: Arc<LiveSchemas>,
    ) -> Pin<Box<dyn Future<Output = Result<usize, String>> + Send + '_>> {
        Box::pin(async move {
            let mut loaded = self.apis.loaded.lock().await;
            let (mut parts, mut members) = loaded.clone();
            let member = &mut members[self.index];
            member.security_schemes = catalog.security_schemes.clone();
            member.options.schemas = Schemas(schemas);
            parts[self.index].catalog = catalog;
            let (merged, firsts) = merge::merge(&parts).map_err(|e| e.to_string())?;
            for (member, first) in members.iter_mut().zip(firsts) {
                member.first = first;
            }
            let count = self
                .apis
                .bridge
                .reload_apis(merged, members.clone())
                .await
                .map_err(|e| e.to_string())?;
            *loaded = (parts, members);
            Ok(count)
        })
    }
}

/// Flags that name one API and so belong in each API's entry.
fn refuse_single_api_flags(flags: &ServeFlags) -> Result<(), CommandError> {
    let given = [
        ("--base-url", flags.base_url.is_some()),
        ("--server-var", !flags.server_vars.is_empty()),
        ("--header", !flags.headers.is_empty()),
        ("--ready-check-backend", flags.ready_check_backend),
    ];
    match given.iter().find(|(_, on)| *on) {
        Some((flag, _)) => Err(CommandError::Invalid(format!(
            "{flag} names one API: with --config, give it in that API's entry (base_url, server_variables, headers)"
        ))),
        None => Ok(()),
    }
}

/// The pipeline options of `api`.
fn pipeline_options(api: &ApiEntry, prefix: &str, mock: bool) -> Result<PipelineOptions, String> {
    let budget = api
        .schema_budget
        .unwrap_or(crate::tools::DEFAULT_SCHEMA_BUDGET);
    Ok(PipelineOptions {
        arazzo: Vec::new(),
        load: LoadOptions {
            allow_remote_refs: api.allow_remote_refs,
            keep_examples: mock,
            overlays: api.overlays.clone(),
            ..LoadOptions::default()
        },
        build: BuildOptions {
            output_schemas: match api.output_schema.as_deref() {
                Some("strict") => OutputSchemaMode::Strict,
                Some("loose") => OutputSchemaMode::Loose,
                Some("off") => OutputSchemaMode::Off,
                _ => OutputSchemaMode::Full,
            },
            selection: Selection {
                include_tags: api.tags.clone(),
                exclude_tags: api.exclude_tags.clone(),
                include_operations: api.operations.clone(),
                exclude_operations: api.exclude_operations.clone(),
                methods: api.methods.clone(),
                include_paths: PathGlobs::new(&api.paths)?,
                exclude_paths: PathGlobs::new(&api.exclude_paths)?,
                read_only: api.read_only,
            },
            schema_budget: budget,
            output_schema_budget: crate::tools::default_output_budget(budget),
            descriptions: match api.descriptions.as_deref() {
                Some("short") => DescriptionMode::Short,
                _ => DescriptionMode::Full,
            },
            name_prefix: prefix.to_string(),
            ..BuildOptions::default()
        },
    })
}

/// How `api`'s calls reach it: the server's options, with what its entry
/// says instead.
fn api_options(
    config: &Config,
    index: usize,
    global: &ServeOptions,
    schemas: Arc<LiveSchemas>,
) -> Result<ApiOptions, ConfigError> {
    let api = &config.apis[index];
    let mut http = global.http.clone();
    if let Some(t) = api.timeout {
        if !(t.is_finite() && (0.001..=86_400.0).contains(&t)) {
            return Err(config.error(
                index,
                Some("timeout"),
                "give seconds from 0.001 to 86400".into(),
            ));
        }
        http.timeout = Duration::from_secs_f64(t);
    }
    if let Some(r) = api.retries {
        http.retries = r.min(100);
    }
    if let Some(m) = api.max_response_bytes {
        http.limits.max_body_bytes = m;
    }
    let rate_limit = match api.rate_limit {
        Some(r) if !(r.is_finite() && r > 0.0) => {
            return Err(config.error(
                index,
                Some("rate_limit"),
                "give calls per second above 0".into(),
            ));
        }
        Some(r) => Some((r, api.rate_burst.unwrap_or(1).max(1))),
        None => global.rate_limit,
    };
    let credentials = config.credentials(index, |var| std::env::var(var).ok())?;
    let headers = FixedHeaders::from_env(&api.headers)
        .map_err(|e| config.error(index, Some("headers"), e.to_string()))?;
    Ok(ApiOptions {
        base_url: api.base_url.clone(),
        server_variables: api.server_variables.clone(),
        http,
        rate_limit,
        credentials: Credentials::from_pairs(credentials),
        forward_authorization: global.forward_authorization,
        forward_headers: global.forward_headers.clone(),
        schemas: Schemas(schemas),
        token_store: None,
        headers: Arc::new(headers),
    })
}

/// People's logins are stored and looked up by security scheme name: two
/// APIs offering logins under one name would share them, so that is
/// refused (an overlay can rename a scheme).
fn distinct_login_schemes<'a>(
    config: &Config,
    catalogs: impl Iterator<Item = &'a LazyCatalog>,
) -> Result<(), ConfigError> {
    let mut seen: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for (index, catalog) in catalogs.enumerate() {
        for (name, scheme) in &catalog.security_schemes {
            let logs_in = matches!(
                scheme,
                crate::runtime::binding::SecurityScheme::OAuth2 { login: Some(_), .. }
            );
            if !logs_in {
                continue;
            }
            if let Some(first) = seen.insert(name, index) {
                return Err(config.error(
                    index,
                    Some("spec"),
                    format!(
                        "security scheme `{name}` offers people's logins here and in apis[{first}] (`{}`): logins are kept by scheme name, so rename one of them with an overlay",
                        config.apis[first].name
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Why an API's document cannot be served, located at its `spec` key.
fn load_error(config: &Config, index: usize, e: PipelineError) -> ConfigError {
    let message = match e {
        PipelineError::Load(d) => d.to_string(),
        PipelineError::NoTools { summary, .. } => summary.to_string(),
    };
    config.error(index, Some("spec"), message)
}

/// Serves the APIs of `config` with `flags` until the client leaves
/// (stdio) or a signal stops the server (HTTP). `watch`: reload an API
/// whose document changes (a file on change, a URL polled this often).
pub fn run(config: Config, flags: ServeFlags, watch: Option<f64>) -> Result<(), CommandError> {
    refuse_single_api_flags(&flags)?;
    if let Some(interval) = watch
        && !(interval.is_finite() && interval > 0.0)
    {
        return Err(CommandError::Invalid(
            "--watch-interval must be a positive number of seconds".into(),
        ));
    }
    let invalid = |e: ConfigError| CommandError::Invalid(e.to_string());
    let mut global = flags.options().map_err(CommandError::Invalid)?;
    let mut planned = Vec::with_capacity(config.apis.len());
    for (i, api) in config.apis.iter().enumerate() {
        let mock = api.mock && api.base_url.is_none();
        let options = pipeline_options(api, config.prefix(i), mock)
            .map_err(|e| invalid(config.error(i, Some("paths"), e)))?;
        let served = pipeline::load_served(&api.spec, &options)
            .map_err(|e| invalid(load_error(&config, i, e)))?;
        for d in served
            .diagnostics
            .iter()
            .filter(|d| d.severity == crate::document::Severity::Error)
            .take(20)
        {
            tracing::warn!("{}: {d}", api.name);
        }
        let member_options =
            api_options(&config, i, &global, Arc::clone(&served.schemas)).map_err(invalid)?;
        planned.push((served, options, member_options, mock));
    }
    if global.token_store.is_some() {
        distinct_login_schemes(&config, planned.iter().map(|p| &p.0.catalog)).map_err(invalid)?;
    }
    if planned.iter().any(|p| p.3) && flags.confirm.is_none() {
        // As `serve --mock`: nothing real can be destroyed on a mock, but
        // the other APIs are real, so only an all-mock server asks nothing.
        if planned.iter().all(|p| p.3) {
            global.confirm = crate::server::confirm::ConfirmPolicy::None;
        }
    }
    let runtime = flags.runtime().map_err(CommandError::Runtime)?;
    runtime.block_on(async move {
        let mut parts = Vec::with_capacity(planned.len());
        let mut members = Vec::with_capacity(planned.len());
        let mut reload_with = Vec::with_capacity(planned.len());
        for (i, (served, options, mut member_options, mock)) in planned.into_iter().enumerate() {
            let api = &config.apis[i];
            let mut slot: Option<MockSlot> = None;
            if mock {
                let state = StateOptions {
                    file: api.mock_state.as_ref().map(std::path::PathBuf::from),
                    max_items: crate::mock::store::DEFAULT_MAX_ITEMS,
                };
                let server = crate::commands::mock::in_process(served.schemas.document(), Some(&state))?;
                let bound = mock::bind(Arc::new(server), ([127, 0, 0, 1], 0).into()).await?;
                member_options.base_url = Some(bound.base_url());
                tracing::info!(target: "openapi2mcp::mock", api = %api.name, url = %bound.base_url(), "mock API serving");
                slot = Some(bound.slot());
                tokio::spawn(async move {
                    if let Err(e) = bound.run(std::future::pending()).await {
                        tracing::error!("mock API stopped: {e}");
                    }
                });
            }
            members.push(ApiMember {
                label: api.name.clone(),
                first: 0,
                security_schemes: served.catalog.security_schemes.clone(),
                options: member_options,
            });
            parts.push(Part {
                label: api.name.clone(),
                catalog: served.catalog,
            });
            reload_with.push((api.spec.clone(), options, slot));
        }
        let (merged, firsts) = merge::merge(&parts)
            .map_err(|e| CommandError::Invalid(format!("{}: {e}", config.file)))?;
        for (member, first) in members.iter_mut().zip(firsts) {
            member.first = first;
        }
        global.members = members.clone();
        let bridge = Bridge::new(merged, global)?;
        let apis = Arc::new(Apis {
            bridge: bridge.clone(),
            loaded: tokio::sync::Mutex::new((parts, members)),
        });
        for (index, (spec, options, slot)) in reload_with.into_iter().enumerate() {
            let target = Arc::new(OneApi {
                apis: Arc::clone(&apis),
                index,
            });
            let reloader = Reloader::with(&spec, options, target, slot);
            reloader.spawn_on_sighup();
            if let Some(interval) = watch {
                reloader
                    .spawn_watch(Duration::from_secs_f64(interval))
                    .map_err(CommandError::Invalid)?;
            }
        }
        flags.serve(bridge, "openapi2mcp").await?;
        Ok(())
    })
}

/// Reads `path` as a configuration (an error names the file and line).
pub fn load(path: &std::path::Path) -> Result<Config, CommandError> {
    Config::load(path).map_err(|e| CommandError::Invalid(e.to_string()))
}

/// The `mcpServers` entry that starts `serve --config FILE` (the file
/// made absolute), with a placeholder for every environment variable the
/// file's credentials and headers read (`${VAR}`). `name` is the entry's
/// key (default: the APIs' names joined with `-`).
pub fn client_entry(
    config: &Config,
    file: &std::path::Path,
    name: Option<&str>,
) -> Result<serde_json::Value, CommandError> {
    let program = std::env::current_exe()
        .ok()
        .and_then(|p| p.canonicalize().ok())
        .map_or_else(|| "openapi2mcp".to_string(), |p| p.display().to_string());
    let file = std::path::absolute(file).map_err(|source| CommandError::Resolve {
        location: file.display().to_string(),
        source,
    })?;
    let mut env = serde_json::Map::new();
    for api in &config.apis {
        let values = api.credentials.values().chain(api.headers.iter());
        for value in values {
            for var in variables(value) {
                env.entry(var).or_insert_with(|| {
                    serde_json::Value::String(format!("<read by the `{}` API>", api.name))
                });
            }
        }
    }
    let key = name.map_or_else(
        || {
            config
                .apis
                .iter()
                .map(|a| a.name.as_str())
                .collect::<Vec<_>>()
                .join("-")
        },
        str::to_string,
    );
    let mut server = serde_json::Map::new();
    server.insert("command".into(), program.into());
    server.insert(
        "args".into(),
        serde_json::json!(["serve", "--config", file.display().to_string()]),
    );
    if !env.is_empty() {
        server.insert("env".into(), serde_json::Value::Object(env));
    }
    Ok(serde_json::json!({ "mcpServers": { key: server } }))
}

/// The `${VAR}` names in `value`, as expanding it would read them.
fn variables(value: &str) -> Vec<String> {
    let seen = std::cell::RefCell::new(Vec::new());
    let _ = crate::runtime::auth::fixed::expand_vars("", value, &|var: &str| {
        seen.borrow_mut().push(var.to_string());
        Some("x".to_string())
    });
    seen.into_inner()
}
