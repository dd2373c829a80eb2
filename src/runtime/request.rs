//! placeholder: request building (being written)
