//! The one integration-test binary (one link step keeps CI fast on 2 cores).

mod cli;
mod corpus;
mod github;
mod model;
mod snapshots;
mod support;
