//! `$ref` resolution: JSON pointers (RFC 6901, `~0`/`~1`, percent-decoded
//! fragments), references across the files of a [`Document`], and `$ref`
//! chains among non-schema objects (parameters, responses, path items …)
//! followed with cycle detection, so a loop is a diagnostic, never a stack
//! overflow. Schemas are not inlined here: see the tool builder's `tools::bundle`.

use std::borrow::Cow;

use serde_json::Value;

use super::diag::Diagnostic;
use super::load::Document;
use super::pointer::parse_index;

use super::pointer::tokens;

/// How many `$ref` hops a non-schema chain may take before we call it a loop.
const MAX_CHAIN: usize = 64;

/// A node inside one of the document's files: where it is and what it
/// holds. Raw document access: only the document layer (and its operation
/// model, [`super::model`]) walks these.
#[derive(Debug, Clone)]
pub(crate) struct Located<'a> {
    /// Key of the file (see [`Document::file`]).
    pub(crate) file: &'a str,
    /// JSON pointer to the node inside that file.
    pub(crate) pointer: String,
    /// The node itself.
    pub(crate) value: &'a Value,
}

impl<'a> Located<'a> {
    /// The child `key` of this node (an object member), if present.
    pub(crate) fn child(&self, key: &str) -> Option<Located<'a>> {
        let value = self.value.get(key)?;
        Some(Located {
            file: self.file,
            pointer: super::diag::push_token(&self.pointer, key),
            value,
        })
    }

    /// The element `index` of this node (an array), if present.
    pub(crate) fn index(&self, index: usize) -> Option<Located<'a>> {
        let value = self.value.get(index)?;
        Some(Located {
            file: self.file,
            pointer: format!("{}/{index}", self.pointer),
            value,
        })
    }
}

/// Looks up `pointer` in `value`.
pub(crate) fn get_pointer<'v>(value: &'v Value, pointer: &str) -> Option<&'v Value> {
    let mut cur = value;
    for token in tokens(pointer).ok()? {
        cur = match cur {
            Value::Object(map) => map.get(&*token)?,
            Value::Array(items) => items.get(parse_index(&token)?)?,
            _ => return None,
        };
    }
    Some(cur)
}

impl Document {
    /// The root document as a [`Located`] node.
    pub(crate) fn root_node(&self) -> Located<'_> {
        Located {
            file: self.root_key(),
            pointer: String::new(),
            value: self.root(),
        }
    }

    /// Where `reference` (as written in file `base`) points: file key and
    /// decoded JSON pointer.
    pub(crate) fn ref_target(
        &self,
        base: &str,
        reference: &str,
    ) -> Result<(String, String), String> {
        let (file_part, fragment) = match reference.split_once('#') {
            Some((f, frag)) => (f, frag),
            None => (reference, ""),
        };
        let fragment: Cow<'_, str> = percent_encoding::percent_decode_str(fragment)
            .decode_utf8()
            .map_err(|_| format!("reference `{reference}` is not valid UTF-8 once decoded"))?;
        if file_part.is_empty() {
            return Ok((base.to_string(), fragment.into_owned()));
        }
        let join = |from: &str| -> Result<String, String> {
            let base_url = url::Url::parse(from)
                .map_err(|_| format!("cannot resolve `{reference}` relative to `{from}`"))?;
            let mut url = base_url
                .join(file_part)
                .map_err(|e| format!("cannot resolve `{reference}`: {e}"))?;
            url.set_fragment(None);
            Ok(url.to_string())
        };
        // OpenAPI 3.2: the file's `$self` is its base URI, and a file is
        // found by its `$self`; where the URI names no file we have, the
        // reference is read relative to where the file was read (which
        // the specification allows, for documents that declare a public
        // `$self` but are read from disk).
        if let Some(self_uri) = self.self_uri(base) {
            let target = join(self_uri)?;
            if let Some(file) = self.file_called(&target) {
                return Ok((file.to_string(), fragment.into_owned()));
            }
            if self.file_key(&target).is_some() {
                return Ok((target, fragment.into_owned()));
            }
        }
        let target = join(base)?;
        let file = self
            .file_called(&target)
            .map_or(target.clone(), str::to_string);
        Ok((file, fragment.into_owned()))
    }

    /// Resolves one `$ref` string written in file `base`.
    pub(crate) fn resolve_ref<'a>(
        &'a self,
        base: &str,
        reference: &str,
    ) -> Result<Located<'a>, String> {
        let (file, pointer) = self.ref_target(base, reference)?;
        self.file_entry(&file)
            .ok_or_else(|| format!("`{reference}` points into a file that could not be loaded"))?;
        let (file_key, value) = self
            .value_at(&file, &pointer)
            .ok_or_else(|| format!("`{reference}` points at nothing"))?;
        Ok(Located {
            file: file_key,
            pointer,
            value,
        })
    }

    /// Follows a chain of `$ref`s starting at `node` (for non-schema objects:
    /// parameters, request bodies, responses, headers, path items, security
    /// schemes) until a node without `$ref`. A loop or a dangling reference is
    /// a diagnostic naming the chain.
    pub(crate) fn deref<'a>(&'a self, node: Located<'a>) -> Result<Located<'a>, Diagnostic> {
        let mut cur = node;
        let mut chain: Vec<String> = Vec::new();
        while let Some(reference) = cur.value.get("$ref").and_then(Value::as_str) {
            let here = format!("{}#{}", self.display_name(cur.file), cur.pointer);
            if chain.contains(&here) || chain.len() >= MAX_CHAIN {
                chain.push(here);
                return Err(Diagnostic::error(
                    self.display_name(cur.file),
                    cur.pointer.clone(),
                    format!("circular $ref: {}", chain.join(" -> ")),
                ));
            }
            chain.push(here);
            cur = self.resolve_ref(cur.file, reference).map_err(|msg| {
                Diagnostic::error(
                    self.display_name(cur.file),
                    super::diag::push_token(&cur.pointer, "$ref"),
                    msg,
                )
            })?;
        }
        Ok(cur)
    }

    /// The node at `pointer` in the file `key`, with the file's key as the
    /// document holds it. A pointer into what the root keeps as text (its
    /// `paths`, the kinds of its `components`) reads the member it names,
    /// kept (see [`super::lazy::LazyMap::kept`]).
    pub(crate) fn value_at(&self, key: &str, pointer: &str) -> Option<(&str, &Value)> {
        let (file_key, value) = self.file_entry(key)?;
        if file_key == self.root_key()
            && let Some(found) = self.lazy_value_at(pointer)
        {
            return found.map(|v| (file_key, v));
        }
        Some((file_key, get_pointer(value, pointer)?))
    }

    /// [`Document::value_at`] in the root when `pointer` goes into a
    /// member kept as text (`Some` of what is there), else `None`.
    fn lazy_value_at(&self, pointer: &str) -> Option<Option<&Value>> {
        let (lazy, skip) = if pointer.starts_with("/paths/") {
            (self.lazy_paths()?, 1)
        } else if let Some(rest) = pointer.strip_prefix("/components/") {
            let kind = rest.split('/').next()?;
            // A kind's name needs no escaping (`schemas`, `requestBodies`).
            (self.lazy_components(kind)?, 2)
        } else {
            return None;
        };
        let Ok(mut tokens) = tokens(pointer) else {
            return Some(None);
        };
        // No member named (the kind itself): read from the tree.
        let member = tokens.nth(skip)?;
        let mut cur = match lazy.find(&member) {
            Some(at) => lazy.kept(at),
            None => return Some(None),
        };
        for token in tokens {
            let next = match cur {
                Value::Object(map) => map.get(&*token),
                Value::Array(items) => parse_index(&token).and_then(|i| items.get(i)),
                _ => None,
            };
            match next {
                Some(next) => cur = next,
                None => return Some(None),
            }
        }
        Some(Some(cur))
    }

    pub(crate) fn file_entry(&self, key: &str) -> Option<(&str, &Value)> {
        // `file` hands out the value; we also need a key borrowed from self.
        let value = self.file(key)?;
        let key = self.file_key(key)?;
        Some((key, value))
    }
}

#[cfg(test)]
#[path = "refs_tests.rs"]
mod tests;
