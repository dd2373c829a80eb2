use super::*;
use crate::pipeline::{PipelineOptions, load_catalog};

#[test]
fn paths_become_absolute_and_urls_stay() {
    let loaded = load_catalog("specs/petstore.yaml", &PipelineOptions::default()).expect("loads");
    let command = ConfigCommand {
        location: "specs/petstore.yaml".into(),
        overlays: vec!["https://example.test/o.yaml".into()],
        name: Some("pets".into()),
        mock: true,
        base_url: None,
    };
    let entry = entry(&loaded.catalog, &command).unwrap();
    let args = entry["mcpServers"]["pets"]["args"].as_array().unwrap();
    let document = args[1].as_str().unwrap();
    assert!(
        std::path::Path::new(document).is_absolute() && document.ends_with("specs/petstore.yaml"),
        "{entry}"
    );
    assert_eq!(args[0], "serve");
    assert_eq!(
        args[2..],
        ["--overlay", "https://example.test/o.yaml", "--mock"]
    );
}
