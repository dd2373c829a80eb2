//! placeholder: authentication (being written)
