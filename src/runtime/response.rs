//! placeholder: response mapping (being written)
