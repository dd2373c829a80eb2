//! The one integration-test binary (one link step keeps CI fast on 2 cores).

mod authz;
mod backend;
mod budget;
mod cli;
mod corpus;
mod discovery;
mod generate;
mod github;
mod hardening;
mod lazy;
mod lint;
mod lro;
mod mock;
mod model;
mod naming;
mod overlay;
mod parity;
mod production;
mod props;
mod requests;
mod review;
mod selectors;
mod serve;
mod snapshots;
mod support;
mod tolerance;
