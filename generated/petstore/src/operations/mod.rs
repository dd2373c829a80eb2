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

/// Operations tagged `pets`.
pub mod pets;

/// Operations tagged `photos`.
pub mod photos;

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
    /// Tool `list_pets` (GET `/pets`): by default
    /// [`pets::list_pets`], which sends the arguments.
    fn list_pets<'a>(
        &'a self,
        call: Call<'a>,
        args: pets::ListPetsArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(pets::list_pets(call, args))
    }
    /// Tool `create_pet` (POST `/pets`): by default
    /// [`pets::create_pet`], which sends the arguments.
    fn create_pet<'a>(
        &'a self,
        call: Call<'a>,
        args: pets::CreatePetArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(pets::create_pet(call, args))
    }
    /// Tool `get_pet` (GET `/pets/{petId}`): by default
    /// [`pets::get_pet`], which sends the arguments.
    fn get_pet<'a>(
        &'a self,
        call: Call<'a>,
        args: pets::GetPetArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(pets::get_pet(call, args))
    }
    /// Tool `update_pet` (PATCH `/pets/{petId}`): by default
    /// [`pets::update_pet`], which sends the arguments.
    fn update_pet<'a>(
        &'a self,
        call: Call<'a>,
        args: pets::UpdatePetArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(pets::update_pet(call, args))
    }
    /// Tool `delete_pet` (DELETE `/pets/{petId}`): by default
    /// [`pets::delete_pet`], which sends the arguments.
    fn delete_pet<'a>(
        &'a self,
        call: Call<'a>,
        args: pets::DeletePetArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(pets::delete_pet(call, args))
    }
    /// Tool `get_pet_photo` (GET `/pets/{petId}/photo`): by default
    /// [`photos::get_pet_photo`], which sends the arguments.
    fn get_pet_photo<'a>(
        &'a self,
        call: Call<'a>,
        args: photos::GetPetPhotoArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(photos::get_pet_photo(call, args))
    }
    /// Tool `upload_pet_photo` (PUT `/pets/{petId}/photo`): by default
    /// [`photos::upload_pet_photo`], which sends the arguments.
    fn upload_pet_photo<'a>(
        &'a self,
        call: Call<'a>,
        args: photos::UploadPetPhotoArgs,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(photos::upload_pet_photo(call, args))
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
                        "list_pets" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.list_pets(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "create_pet" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.create_pet(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "get_pet" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.get_pet(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "update_pet" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.update_pet(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "delete_pet" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.delete_pet(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "get_pet_photo" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.get_pet_photo(call, args).await,
                                Err(report) => report,
                            }
                        }
                        "upload_pet_photo" => {
                            match call.parse(args) {
                                Ok(args) => self.hooks.upload_pet_photo(call, args).await,
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
