//! The one integration-test binary (one link step keeps CI fast on 2 cores).

mod backend;
mod cli;
mod corpus;
mod github;
mod mock;
mod model;
mod serve;
mod snapshots;
mod support;
