//! `list`: the tools a document yields, as a table for people (with the
//! listing mode `serve --tools auto` would pick and, on request, the
//! token footprint) or as the JSON `tools/list` carries.

use std::io::Write;

use super::CommandError;
use crate::footprint;
use crate::server::modes::AUTO_TOKEN_BUDGET;
use crate::tools::Catalog;

/// What `list` prints.
#[derive(Debug, Clone, Copy, Default)]
pub struct ListOptions {
    /// The full tool definitions as JSON instead of the table.
    pub json: bool,
    /// Below the table, the tokens of the tool list in each listing mode.
    pub footprint: bool,
}

/// Writes `catalog` to `out` as `options` ask, and flushes.
pub fn write(
    out: &mut impl Write,
    catalog: &Catalog,
    options: ListOptions,
) -> Result<(), CommandError> {
    if options.json {
        serde_json::to_writer_pretty(&mut *out, &catalog.to_mcp_json())
            .map_err(CommandError::Json)?;
        writeln!(out)?;
    } else {
        write_table(out, catalog)?;
        let auto = footprint::auto_mode(catalog);
        writeln!(
            out,
            "serve --tools auto lists {}: the full list is about {} tokens (budget {})",
            auto.as_str(),
            footprint::estimate_full(catalog),
            AUTO_TOKEN_BUDGET
        )?;
        if options.footprint {
            let f = footprint::measure(catalog)?;
            writeln!(
                out,
                "tokens of tools/list (o200k_base): full {}; discovery {} (4 meta-tools); toolsets {} (3 meta-tools, plus each enabled toolset's tools); code {} (search_api, execute_read_only, execute)",
                f.full, f.discovery, f.toolsets, f.code
            )?;
            if let Some(largest) = f.largest() {
                writeln!(
                    out,
                    "largest tool: {}, {} tokens",
                    largest.name, largest.tokens
                )?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

/// One line per tool: name, method, path, hints (R read-only, D
/// destructive, I idempotent) and argument count; then the total and the
/// API's title and version.
pub fn write_table(out: &mut impl Write, catalog: &Catalog) -> std::io::Result<()> {
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

#[cfg(test)]
#[path = "list_tests.rs"]
mod tests;
