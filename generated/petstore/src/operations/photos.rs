//! Operations tagged `photos`.

#![allow(unused_imports)]

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Number, Value};
use super::types::*;
use openapi2mcp_runtime::call::{Call, CallReport};
use openapi2mcp_runtime::typed::{self, MemberOrder};

/// Arguments of `get_pet_photo` (GET `/pets/{petId}/photo`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GetPetPhotoArgs {
    /// `petId` path parameter.
    ///
    /// The pet's id.
    #[serde(rename = "petId", deserialize_with = "openapi2mcp_runtime::typed::integers")]
    pub pet_id: i64,
}

/// Get a pet's photo
///
/// Tool `get_pet_photo`: GET `/pets/{petId}/photo` (operationId `getPetPhoto`).
pub async fn get_pet_photo(call: Call<'_>, args: GetPetPhotoArgs) -> CallReport {
    call.send(&args).await
}

/// Arguments of `upload_pet_photo` (PUT `/pets/{petId}/photo`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UploadPetPhotoArgs {
    /// `petId` path parameter.
    ///
    /// The pet's id.
    #[serde(rename = "petId", deserialize_with = "openapi2mcp_runtime::typed::integers")]
    pub pet_id: i64,
    /// `photo` in the request body (`multipart/form-data`).
    ///
    /// The image. File content: base64, or a data: URI (data:<type>;base64,<data>).
    pub photo: String,
    /// `caption` in the request body (`multipart/form-data`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caption: Option<String>,
}

/// Upload a pet's photo
///
/// Tool `upload_pet_photo`: PUT `/pets/{petId}/photo` (operationId `uploadPetPhoto`).
pub async fn upload_pet_photo(call: Call<'_>, args: UploadPetPhotoArgs) -> CallReport {
    call.send(&args).await
}
