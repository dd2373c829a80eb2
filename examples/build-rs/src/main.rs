//! The Petstore API as an MCP server, its tools generated at build time by
//! `build.rs`; this file holds only what is custom: every result of
//! `delete_pet` says the pet is gone, and `list_pets` asks for 20 pets
//! when the model gave no limit.

// The whole API's module: this binary does not use every item of it.
#[allow(dead_code)]
mod petstore {
    include!(concat!(env!("OUT_DIR"), "/petstore/mod.rs"));
}

use openapi2mcp_runtime::call::{BoxFuture, Call, CallReport};
use openapi2mcp_runtime::response::Content;
use petstore::operations::{Hooks, pets};

/// This server's custom behaviour.
struct Custom;

impl Hooks for Custom {
    fn list_pets<'a>(
        &'a self,
        call: Call<'a>,
        mut args: pets::ListPetsArgs,
    ) -> BoxFuture<'a, CallReport> {
        if args.limit.is_none() {
            args.limit = Some(20.into());
        }
        Box::pin(async move { call.send(&args).await })
    }

    fn after_call(&self, call: Call<'_>, report: &mut CallReport) {
        if call.tool_name() == "delete_pet" && !report.outcome.is_error {
            report
                .outcome
                .content
                .push(Content::Text("the pet is gone".into()));
        }
    }
}

fn main() -> std::process::ExitCode {
    petstore::main_with(Custom)
}
