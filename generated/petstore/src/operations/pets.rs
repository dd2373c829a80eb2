//! Operations tagged `pets`.

#![allow(unused_imports)]

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Number, Value};
use super::types::*;
use openapi2mcp_runtime::call::{Call, CallReport};
use openapi2mcp_runtime::typed::{self, MemberOrder};

/// Arguments of `list_pets` (GET `/pets`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListPetsArgs {
    /// `limit` query parameter.
    ///
    /// How many pets to return at most.
    #[serde(
        default,
        deserialize_with = "openapi2mcp_runtime::typed::present_integers",
        skip_serializing_if = "Option::is_none"
    )]
    pub limit: Option<i64>,
    /// `tags` query parameter.
    ///
    /// Only pets with all of these tags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    /// `status` query parameter.
    ///
    /// Where the pet is in the sales process.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
}

/// List pets
///
/// Returns the pets in the shop, newest first, optionally filtered by tag.
///
/// Tool `list_pets`: GET `/pets` (operationId `listPets`).
pub async fn list_pets(call: Call<'_>, args: ListPetsArgs) -> CallReport {
    call.send(&args).await
}

/// Arguments of `create_pet` (POST `/pets`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CreatePetArgs {
    /// `name` in the request body (`application/json`).
    pub name: String,
    /// `status` in the request body (`application/json`).
    ///
    /// Where the pet is in the sales process.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    /// `tags` in the request body (`application/json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
}

/// Add a pet
///
/// Tool `create_pet`: POST `/pets` (operationId `createPet`).
pub async fn create_pet(call: Call<'_>, args: CreatePetArgs) -> CallReport {
    call.send(&args).await
}

/// Arguments of `get_pet` (GET `/pets/{petId}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GetPetArgs {
    /// `petId` path parameter.
    ///
    /// The pet's id.
    #[serde(rename = "petId", deserialize_with = "openapi2mcp_runtime::typed::integers")]
    pub pet_id: i64,
}

/// Get a pet by id
///
/// Tool `get_pet`: GET `/pets/{petId}` (operationId `getPet`).
pub async fn get_pet(call: Call<'_>, args: GetPetArgs) -> CallReport {
    call.send(&args).await
}

/// Arguments of `update_pet` (PATCH `/pets/{petId}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UpdatePetArgs {
    /// `petId` path parameter.
    ///
    /// The pet's id.
    #[serde(rename = "petId", deserialize_with = "openapi2mcp_runtime::typed::integers")]
    pub pet_id: i64,
    /// `name` in the request body (`application/json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `status` in the request body (`application/json`).
    ///
    /// Where the pet is in the sales process.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    /// `tags` in the request body (`application/json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
}

/// Update a pet
///
/// Changes only the fields given.
///
/// Tool `update_pet`: PATCH `/pets/{petId}` (operationId `updatePet`).
pub async fn update_pet(call: Call<'_>, args: UpdatePetArgs) -> CallReport {
    call.send(&args).await
}

/// Arguments of `delete_pet` (DELETE `/pets/{petId}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeletePetArgs {
    /// `petId` path parameter.
    ///
    /// The pet's id.
    #[serde(rename = "petId", deserialize_with = "openapi2mcp_runtime::typed::integers")]
    pub pet_id: i64,
}

/// Delete a pet
///
/// Tool `delete_pet`: DELETE `/pets/{petId}` (operationId `deletePet`).
pub async fn delete_pet(call: Call<'_>, args: DeletePetArgs) -> CallReport {
    call.send(&args).await
}
