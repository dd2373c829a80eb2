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

/// Operations tagged `items`.
pub mod items;

/// Operations tagged `search`.
pub mod search;

/// Operations tagged `admin`.
pub mod admin;

/// Operations tagged `feeds`.
pub mod feeds;

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
                "list_items" => {
                    match call.parse(args) {
                        Ok(args) => items::list_items(call, args).await,
                        Err(report) => report,
                    }
                }
                "get_item" => {
                    match call.parse(args) {
                        Ok(args) => items::get_item(call, args).await,
                        Err(report) => report,
                    }
                }
                "search_items" => {
                    match call.parse(args) {
                        Ok(args) => search::search_items(call, args).await,
                        Err(report) => report,
                    }
                }
                "lookup_items" => {
                    match call.parse(args) {
                        Ok(args) => search::lookup_items(call, args).await,
                        Err(report) => report,
                    }
                }
                "copy_item" => {
                    match call.parse(args) {
                        Ok(args) => admin::copy_item(call, args).await,
                        Err(report) => report,
                    }
                }
                "watch_item" => {
                    match call.parse(args) {
                        Ok(args) => feeds::watch_item(call, args).await,
                        Err(report) => report,
                    }
                }
                "stream_logs" => {
                    match call.parse(args) {
                        Ok(args) => feeds::stream_logs(call, args).await,
                        Err(report) => report,
                    }
                }
                _ => call.send_map(&args).await,
            }
        })
    }
}
