//! [`super::os_keyring`] in a build without the `keyring` feature: no
//! keyring is reachable, so `--token-store keyring:` is refused with the
//! reason and the default store on stdio is the encrypted file.

use super::store::{StoreError, StoreFuture, StoredTokens, TokenStore};

/// The `--token-store` value naming the OS keyring.
pub const LOCATION: &str = "keyring:";

/// The service name entries would have.
pub const SERVICE: &str = "openapi2mcp";

/// Why the keyring cannot be used in this build.
pub fn probe() -> Result<(), String> {
    Err("this program was built without the `keyring` feature".into())
}

/// What the keyring would be, for messages.
pub fn describe() -> &'static str {
    "the OS keyring"
}

/// No keyring store can exist in this build ([`KeyringStore::open`]
/// always refuses).
#[derive(Debug)]
pub struct KeyringStore(std::convert::Infallible);

impl KeyringStore {
    /// Refuses: this build has no keyring.
    pub fn open() -> Result<Self, StoreError> {
        Err(StoreError::Keyring(format!(
            "{} cannot be used: {}. Give --token-store FILE (encrypted with {}) instead",
            describe(),
            probe().err().unwrap_or_default(),
            super::store::TOKEN_KEY_ENV
        )))
    }
}

impl TokenStore for KeyringStore {
    fn get<'a>(&'a self, _key: &'a str) -> StoreFuture<'a, Option<StoredTokens>> {
        match self.0 {}
    }

    fn put<'a>(&'a self, _key: &'a str, _tokens: &'a StoredTokens) -> StoreFuture<'a, ()> {
        match self.0 {}
    }

    fn remove<'a>(&'a self, _key: &'a str) -> StoreFuture<'a, Option<StoredTokens>> {
        match self.0 {}
    }
}
