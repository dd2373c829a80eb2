//! One function per tool, grouped by the API's tags, the [`Hooks`] trait
//! that custom code overrides, and the dispatch that routes each admitted
//! call through them.
//!
//! Regenerating rewrites this folder: custom code goes in `src/hooks.rs`,
//! which the generator writes once and never again. A call reaches the
//! hooks after its arguments passed the tool's input schema and the rate
//! limit: [`Hooks::before_call`] sees the arguments as JSON (change them,
//! or answer without calling the API), then the tool's own method gets
//! them as a typed struct and sends them on with [`Call::send`] unless
//! overridden, then [`Hooks::after_call`] sees the [`CallReport`].

#![allow(
    clippy::doc_lazy_continuation,
    clippy::doc_overindented_list_items,
    clippy::tabs_in_doc_comments,
    clippy::empty_docs,
    rustdoc::bare_urls,
    rustdoc::broken_intra_doc_links,
    rustdoc::invalid_html_tags,
    rustdoc::invalid_rust_codeblocks
)]

use serde_json::{Map, Value};
use openapi2mcp_runtime::call::{BoxFuture, Call, CallReport, Handlers};

/// Operations tagged `items`.
pub mod items;

/// Operations tagged `search`.
pub mod search;

/// Operations tagged `admin`.
pub mod admin;

/// Operations tagged `feeds`.
pub mod feeds;

/// Types shared by the tools' arguments (the API's schemas).
pub mod types;

/// Custom behaviour, implemented in `src/hooks.rs`. Every method's default
/// does what `openapi2mcp serve` does, so an empty `impl` changes nothing.
/// One method per tool (named after the tool) gets the tool's typed
/// arguments; when a tool leaves the API description, its method leaves
/// the trait and the compiler names any override of it.
pub trait Hooks: Send + Sync + 'static {
    /// Before any tool's arguments are read into its struct: change them,
    /// or answer without calling the API by returning a report.
    fn before_call(
        &self,
        call: Call<'_>,
        args: &mut Map<String, Value>,
    ) -> Option<CallReport> {
        let _ = (call, args);
        None
    }
    /// After a call (sent, or answered by a hook): change what the model
    /// gets.
    fn after_call(&self, call: Call<'_>, report: &mut CallReport) {
        let _ = (call, report);
    }
    /// Tool `list_items` (GET `/items`): by default
    /// [`items::list_items`], which sends the arguments.
    fn list_items<'a>(
        &'a self,
        call: Call<'a>,
        args: items::ListItemsArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(items::list_items(call, args))
    }
    /// Tool `get_item` (GET `/items/{id}`): by default
    /// [`items::get_item`], which sends the arguments.
    fn get_item<'a>(
        &'a self,
        call: Call<'a>,
        args: items::GetItemArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(items::get_item(call, args))
    }
    /// Tool `search_items` (QUERY `/items/search`): by default
    /// [`search::search_items`], which sends the arguments.
    fn search_items<'a>(
        &'a self,
        call: Call<'a>,
        args: search::SearchItemsArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(search::search_items(call, args))
    }
    /// Tool `lookup_items` (GET `/items/lookup`): by default
    /// [`search::lookup_items`], which sends the arguments.
    fn lookup_items<'a>(
        &'a self,
        call: Call<'a>,
        args: search::LookupItemsArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(search::lookup_items(call, args))
    }
    /// Tool `copy_item` (COPY `/items/{id}`): by default
    /// [`admin::copy_item`], which sends the arguments.
    fn copy_item<'a>(
        &'a self,
        call: Call<'a>,
        args: admin::CopyItemArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(admin::copy_item(call, args))
    }
    /// Tool `watch_item` (GET `/items/{id}/events`): by default
    /// [`feeds::watch_item`], which sends the arguments.
    fn watch_item<'a>(
        &'a self,
        call: Call<'a>,
        args: feeds::WatchItemArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(feeds::watch_item(call, args))
    }
    /// Tool `stream_logs` (GET `/logs`): by default
    /// [`feeds::stream_logs`], which sends the arguments.
    fn stream_logs<'a>(
        &'a self,
        call: Call<'a>,
        args: feeds::StreamLogsArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(feeds::stream_logs(call, args))
    }
}

/// Routes every tool through `hooks`: [`Hooks::before_call`], the tool's
/// method, [`Hooks::after_call`].
#[derive(Debug, Clone, Default)]
pub struct Operations<H> {
    hooks: H,
}

impl<H: Hooks> Operations<H> {
    /// The dispatch over `hooks` (`crate::hooks::hooks()` in `main`).
    pub fn new(hooks: H) -> Self {
        Self { hooks }
    }
}

impl<H: Hooks> Handlers for Operations<H> {
    fn handle<'a>(
        &'a self,
        call: Call<'a>,
        args: Map<String, Value>,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(async move {
            let mut args = args;
            let mut report = match self.hooks.before_call(call, &mut args) {
                Some(report) => report,
                None => {
                    match call.tool_name() {
                        "list_items" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.list_items(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "get_item" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.get_item(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "search_items" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.search_items(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "lookup_items" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.lookup_items(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "copy_item" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.copy_item(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "watch_item" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.watch_item(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "stream_logs" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.stream_logs(call, args).await,
                                Err(report) => report,
                            }
                        }
                        _ => call.send_map(&args).await,
                    }
                }
            };
            self.hooks.after_call(call, &mut report);
            report
        })
    }
}
