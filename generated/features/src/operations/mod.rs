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

/// Operations without a tag.
pub mod other;

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
    /// Tool `search_items` (GET `/search`): by default
    /// [`other::search_items`], which sends the arguments.
    fn search_items<'a>(
        &'a self,
        call: Call<'a>,
        args: other::SearchItemsArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(other::search_items(call, args))
    }
    /// Tool `list_items` (GET `/items`): by default
    /// [`other::list_items`], which sends the arguments.
    fn list_items<'a>(
        &'a self,
        call: Call<'a>,
        args: other::ListItemsArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(other::list_items(call, args))
    }
    /// Tool `patch_item` (PATCH `/items/{id}`): by default
    /// [`other::patch_item`], which sends the arguments.
    fn patch_item<'a>(
        &'a self,
        call: Call<'a>,
        args: other::PatchItemArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(other::patch_item(call, args))
    }
    /// Tool `delete_item` (DELETE `/items/{id}`): by default
    /// [`other::delete_item`], which sends the arguments.
    fn delete_item<'a>(
        &'a self,
        call: Call<'a>,
        args: other::DeleteItemArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(other::delete_item(call, args))
    }
    /// Tool `get_colors` (GET `/colors/{color}`): by default
    /// [`other::get_colors`], which sends the arguments.
    fn get_colors<'a>(
        &'a self,
        call: Call<'a>,
        args: other::GetColorsArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(other::get_colors(call, args))
    }
    /// Tool `send_contact` (POST `/forms/contact`): by default
    /// [`other::send_contact`], which sends the arguments.
    fn send_contact<'a>(
        &'a self,
        call: Call<'a>,
        args: other::SendContactArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(other::send_contact(call, args))
    }
    /// Tool `put_note` (PUT `/notes/{noteId}`): by default
    /// [`other::put_note`], which sends the arguments.
    fn put_note<'a>(
        &'a self,
        call: Call<'a>,
        args: other::PutNoteArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(other::put_note(call, args))
    }
    /// Tool `upload_file` (POST `/files`): by default
    /// [`other::upload_file`], which sends the arguments.
    fn upload_file<'a>(
        &'a self,
        call: Call<'a>,
        args: other::UploadFileArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(other::upload_file(call, args))
    }
    /// Tool `put_blob` (PUT `/blobs/{name}`): by default
    /// [`other::put_blob`], which sends the arguments.
    fn put_blob<'a>(
        &'a self,
        call: Call<'a>,
        args: other::PutBlobArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(other::put_blob(call, args))
    }
    /// Tool `get_report` (GET `/reports/{year}`): by default
    /// [`other::get_report`], which sends the arguments.
    fn get_report<'a>(
        &'a self,
        call: Call<'a>,
        args: other::GetReportArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(other::get_report(call, args))
    }
    /// Tool `put_settings` (PUT `/settings/{org}`): by default
    /// [`other::put_settings`], which sends the arguments.
    fn put_settings<'a>(
        &'a self,
        call: Call<'a>,
        args: other::PutSettingsArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(other::put_settings(call, args))
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
                        "search_items" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.search_items(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "list_items" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.list_items(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "patch_item" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.patch_item(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "delete_item" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.delete_item(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "get_colors" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.get_colors(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "send_contact" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.send_contact(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "put_note" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.put_note(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "upload_file" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.upload_file(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "put_blob" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.put_blob(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "get_report" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.get_report(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "put_settings" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.put_settings(call, args).await,
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
