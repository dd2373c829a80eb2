//! One function per tool, grouped by the API's tags, and the dispatch that
//! routes each admitted call to its function.
//!
//! A call reaches these functions after its arguments passed the tool's
//! input schema and the rate limit. Each function gets them as a typed
//! struct and sends them on with [`Call::send`]; change what it sends,
//! answer without calling the API, or post-process the [`CallReport`].

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
use crate::runtime::call::{BoxFuture, Call, CallReport, Handlers};

/// Operations tagged `pets`.
pub mod pets;

/// Operations tagged `photos`.
pub mod photos;

/// Routes every tool to its function in this module's submodules.
#[derive(Debug, Clone, Copy, Default)]
pub struct Operations;

impl Handlers for Operations {
    fn handle<'a>(
        &'a self,
        call: Call<'a>,
        args: Map<String, Value>,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(async move {
            match call.tool_name() {
                "list_pets" => {
                    match call.parse(args) {
                        Ok(args) => pets::list_pets(call, args).await,
                        Err(report) => report,
                    }
                }
                "create_pet" => {
                    match call.parse(args) {
                        Ok(args) => pets::create_pet(call, args).await,
                        Err(report) => report,
                    }
                }
                "get_pet" => {
                    match call.parse(args) {
                        Ok(args) => pets::get_pet(call, args).await,
                        Err(report) => report,
                    }
                }
                "update_pet" => {
                    match call.parse(args) {
                        Ok(args) => pets::update_pet(call, args).await,
                        Err(report) => report,
                    }
                }
                "delete_pet" => {
                    match call.parse(args) {
                        Ok(args) => pets::delete_pet(call, args).await,
                        Err(report) => report,
                    }
                }
                "get_pet_photo" => {
                    match call.parse(args) {
                        Ok(args) => photos::get_pet_photo(call, args).await,
                        Err(report) => report,
                    }
                }
                "upload_pet_photo" => {
                    match call.parse(args) {
                        Ok(args) => photos::upload_pet_photo(call, args).await,
                        Err(report) => report,
                    }
                }
                _ => call.send_map(&args).await,
            }
        })
    }
}
