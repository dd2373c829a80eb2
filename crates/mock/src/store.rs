//! The stateful mock's store: the items of every collection scope, in
//! memory, optionally persisted to a JSON file (written atomically after
//! each change, read at start), shared by every request (a mutex) and by
//! the mocks of a reloaded document.
//!
//! A scope is a collection path with the values of its slots
//! (`/repos/{owner}/{repo}/issues` for `octo/hello`). A scope nobody has
//! written to reads as its resource's seed (the document's examples), so
//! reads never grow the store; the first write copies the seed in. Bounded:
//! at most `max_items` items per scope, ten times that in all, and
//! [`MAX_SCOPES`] scopes written; beyond, a write is refused with 507.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::validate::Problem;

/// Default cap on the items of one collection scope.
pub const DEFAULT_MAX_ITEMS: usize = 1000;
/// Cap on the scopes written (nested collections under distinct parents).
pub const MAX_SCOPES: usize = 256;
/// What a state file says it is.
const FORMAT: &str = "openapi2mcp-mock-state";

/// Why the store could not be opened or saved.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The state file exists but cannot be read.
    #[error("cannot read the mock state file {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The state file is not a state file this version wrote.
    #[error(
        "the mock state file {path} is not usable: {detail} (fix or delete it; it is rewritten after each change)"
    )]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, with line and column for JSON errors.
        detail: String,
    },
    /// Writing the state file failed.
    #[error("cannot write the mock state file {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// A collection scope: the collection's path template and its slot values.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ScopeKey {
    /// The collection path template.
    pub collection: String,
    /// `(slot, value)` in template order.
    pub scope: Vec<(String, String)>,
}

/// The items of one scope and the next number to give out.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Scope {
    /// Items in creation order.
    pub items: Vec<Value>,
    /// The next number for a server-made id.
    pub next_id: u64,
}

/// One scope as the state file holds it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    collection: String,
    #[serde(default)]
    scope: Map<String, Value>,
    next_id: u64,
    items: Vec<Value>,
}

/// The state file.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: String,
    version: u32,
    collections: Vec<Entry>,
}

/// The stateful mock's items, shared by every request.
#[derive(Debug)]
pub struct Store {
    scopes: Mutex<BTreeMap<ScopeKey, Scope>>,
    file: Option<PathBuf>,
    max_items: usize,
}

impl Store {
    /// An empty store in memory only.
    pub fn in_memory(max_items: usize) -> Self {
        Self {
            scopes: Mutex::new(BTreeMap::new()),
            file: None,
            max_items: max_items.max(1),
        }
    }

    /// A store persisted to `path`: read when it exists (a file that is
    /// not a state file is an error naming it), else created empty.
    pub fn open(path: &Path, max_items: usize) -> Result<Self, StoreError> {
        let mut store = Self::in_memory(max_items);
        store.file = Some(path.to_path_buf());
        let text = match std::fs::read(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                // Written now, so a path that cannot be written is an
                // error at start rather than at the first change.
                store.save(&BTreeMap::new())?;
                return Ok(store);
            }
            Err(source) => {
                return Err(StoreError::Read {
                    path: path.to_path_buf(),
                    source,
                });
            }
        };
        let invalid = |detail: String| StoreError::Invalid {
            path: path.to_path_buf(),
            detail,
        };
        let file: File = serde_json::from_slice(&text).map_err(|e| invalid(e.to_string()))?;
        if file.format != FORMAT || file.version != 1 {
            return Err(invalid(format!(
                "format `{}` version {} (expected `{FORMAT}` version 1)",
                file.format, file.version
            )));
        }
        let mut scopes = BTreeMap::new();
        for (i, entry) in file.collections.into_iter().enumerate() {
            let mut scope = Vec::new();
            for (k, v) in entry.scope {
                let Value::String(v) = v else {
                    return Err(invalid(format!(
                        "collections[{i}].scope.{k} is not a string"
                    )));
                };
                scope.push((k, v));
            }
            if entry.items.len() > store.max_items {
                return Err(invalid(format!(
                    "collections[{i}] ({}) holds {} items, more than the cap of {}",
                    entry.collection,
                    entry.items.len(),
                    store.max_items
                )));
            }
            let key = ScopeKey {
                collection: entry.collection,
                scope,
            };
            scopes.insert(
                key,
                Scope {
                    items: entry.items,
                    next_id: entry.next_id,
                },
            );
        }
        store.scopes = Mutex::new(scopes);
        Ok(store)
    }

    /// The state file, if the store persists.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The cap on the items of one scope.
    pub fn max_items(&self) -> usize {
        self.max_items
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<ScopeKey, Scope>> {
        // A panic while the lock was held leaves whole values behind: every
        // change is made on a copy and put back at once.
        self.scopes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Reads a scope (its seed when never written).
    pub fn read<R>(&self, key: &ScopeKey, seed: &Scope, f: impl FnOnce(&Scope) -> R) -> R {
        let scopes = self.lock();
        f(scopes.get(key).unwrap_or(seed))
    }

    /// Changes a scope (starting from its seed when never written), then
    /// saves. A change that breaks a cap, or that cannot be saved, is undone.
    pub fn write<R>(
        &self,
        key: &ScopeKey,
        seed: &Scope,
        f: impl FnOnce(&mut Scope) -> Result<R, Problem>,
    ) -> Result<R, Problem> {
        let mut scopes = self.lock();
        let existed = scopes.contains_key(key);
        if !existed && scopes.len() >= MAX_SCOPES {
            return Err(insufficient(format!(
                "the mock holds {MAX_SCOPES} collection scopes already; POST /__mock/reset to start again"
            )));
        }
        let mut scope = scopes.get(key).cloned().unwrap_or_else(|| seed.clone());
        let out = f(&mut scope)?;
        if scope.items.len() > self.max_items {
            return Err(insufficient(format!(
                "{} holds {} items, the most this mock keeps (--max-items); delete some or POST /__mock/reset",
                key.collection, self.max_items
            )));
        }
        let others: usize = scopes
            .iter()
            .filter(|(k, _)| *k != key)
            .map(|(_, s)| s.items.len())
            .sum();
        let total_cap = self.max_items.saturating_mul(10);
        if others + scope.items.len() > total_cap {
            return Err(insufficient(format!(
                "the mock holds {total_cap} items in all, its cap (ten times --max-items); POST /__mock/reset to start again"
            )));
        }
        let previous = scopes.insert(key.clone(), scope);
        if let Err(e) = self.save(&scopes) {
            match previous {
                Some(p) => scopes.insert(key.clone(), p),
                None => scopes.remove(key),
            };
            tracing::error!(target: "openapi2mcp::mock", "{e}");
            return Err(Problem {
                status: 500,
                detail: format!("{e}; the change was not made"),
            });
        }
        Ok(out)
    }

    /// Forgets every change: each scope reads as its seed again.
    pub fn reset(&self) -> Result<(), StoreError> {
        let mut scopes = self.lock();
        let before = std::mem::take(&mut *scopes);
        if let Err(e) = self.save(&scopes) {
            *scopes = before;
            return Err(e);
        }
        Ok(())
    }

    /// Every written scope, as the state file holds them.
    pub fn snapshot(&self) -> Value {
        serde_json::to_value(file_of(&self.lock())).unwrap_or(Value::Null)
    }

    fn save(&self, scopes: &BTreeMap<ScopeKey, Scope>) -> Result<(), StoreError> {
        let Some(path) = &self.file else {
            return Ok(());
        };
        let write = |source| StoreError::Write {
            path: path.clone(),
            source,
        };
        let text = serde_json::to_vec_pretty(&file_of(scopes)).map_err(std::io::Error::other);
        let text = text.map_err(write)?;
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        // tempfile: a uniquely named file beside the target, renamed over
        // it, so a crash leaves the old file or the new one, never half.
        let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(write)?;
        use std::io::Write;
        tmp.write_all(&text).map_err(write)?;
        tmp.as_file().sync_all().map_err(write)?;
        tmp.persist(path).map_err(|e| write(e.error))?;
        Ok(())
    }
}

fn file_of(scopes: &BTreeMap<ScopeKey, Scope>) -> File {
    File {
        format: FORMAT.into(),
        version: 1,
        collections: scopes
            .iter()
            .map(|(k, s)| Entry {
                collection: k.collection.clone(),
                scope: k
                    .scope
                    .iter()
                    .map(|(n, v)| (n.clone(), Value::String(v.clone())))
                    .collect(),
                next_id: s.next_id,
                items: s.items.clone(),
            })
            .collect(),
    }
}

fn insufficient(detail: String) -> Problem {
    Problem {
        status: 507,
        detail,
    }
}

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
