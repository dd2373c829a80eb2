use super::*;
use crate::pipeline::{PipelineOptions, load_catalog};

fn petstore() -> Catalog {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/specs/petstore.yaml");
    load_catalog(path, &PipelineOptions::default())
        .unwrap()
        .catalog
}

#[test]
fn token_estimate_is_close() {
    let catalog = petstore();
    let real = measure(&catalog).unwrap();
    let estimate = estimate_full(&catalog);
    // The estimate errs towards more tokens, by at most a third.
    assert!(
        estimate >= real.full && estimate <= real.full * 4 / 3,
        "estimate {estimate}, real {}",
        real.full
    );
    assert_eq!(auto_mode(&catalog), ToolsMode::Full);
    assert!(real.discovery > 0 && real.discovery <= 1000, "{real:?}");
    assert!(
        real.toolsets > 0 && real.toolsets < real.discovery,
        "{real:?}"
    );
    assert_eq!(real.tools.len(), catalog.tools.len());
    assert!(real.tools.windows(2).all(|w| w[0].tokens >= w[1].tokens));
    assert_eq!(real.largest(), real.tools.first());
    assert_eq!(
        real.tools.iter().map(|t| t.tokens).sum::<usize>(),
        real.full
    );
}
