//! Reloads, each proven end to end: the toolsets a session enabled
//! survive reloads by name, and `--watch` follows a Kubernetes
//! ConfigMap's symlink swap.

use std::time::Duration;

use openapi2mcp::runtime::schemas::Schemas;
use openapi2mcp::server::modes::{ListingOptions, ToolsMode};
use openapi2mcp::server::{Bridge, ServeOptions};
use rmcp::service::{RoleClient, RunningService};
use serde_json::json;

use crate::backend::{Backend, Recorded, Reply};
use crate::support::{call, catalog_of, session, tagged_doc, text_of};

fn ok_reply(_: &Recorded) -> Reply {
    (200, "application/json", br#"{"ok":true}"#.to_vec())
}

async fn listed(client: &RunningService<RoleClient, ()>) -> Vec<String> {
    let tools = tokio::time::timeout(Duration::from_secs(20), client.list_all_tools())
        .await
        .expect("answered in time")
        .expect("tools/list answered (the server did not panic)");
    tools.into_iter().map(|t| t.name.to_string()).collect()
}

/// What toolsets mode lists before any toolset's tools.
const META: [&str; 4] = [
    "list_toolsets",
    "enable_toolset",
    "disable_toolset",
    "get_call_result",
];

// Toolsets are kept by name, so a reload that renumbers them cannot
// mis-index a session's choice.
#[tokio::test]
async fn enabled_toolsets_survive_reloads_that_reorder_or_drop_toolsets() {
    let backend = Backend::start(ok_reply).await;
    let options = ServeOptions {
        base_url: Some(backend.url()),
        listing: ListingOptions {
            mode: ToolsMode::Toolsets,
            ..ListingOptions::default()
        },
        ..ServeOptions::default()
    };
    let first = tagged_doc(&[("get_a1", "alpha"), ("get_b1", "beta"), ("get_b2", "beta")]);
    let bridge = Bridge::new(catalog_of(first), options).unwrap();
    let client = session(&bridge).await;
    let on = call(&client, "enable_toolset", json!({"names": ["beta"]})).await;
    assert_eq!(on.is_error, Some(false), "{}", text_of(&on));
    assert_eq!(listed(&client).await[META.len()..], ["get_b1", "get_b2"]);

    // The toolsets come in another order: `beta` is third now, and the
    // second (its old position) is `alpha`.
    let reordered = tagged_doc(&[
        ("get_g1", "gamma"),
        ("get_a1", "alpha"),
        ("get_b1", "beta"),
        ("get_b3", "beta"),
    ]);
    bridge
        .reload(catalog_of(reordered), Schemas::default())
        .await
        .unwrap();
    let now = listed(&client).await;
    assert_eq!(now[..META.len()], META);
    assert_eq!(
        now[META.len()..],
        ["get_b1", "get_b3"],
        "the session's toolset is beta"
    );
    let sets = call(&client, "list_toolsets", json!({})).await;
    let sets = sets.structured_content.unwrap();
    let enabled: Vec<&str> = sets["toolsets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["enabled"] == true)
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(enabled, ["beta"], "{sets}");
    let got = call(&client, "get_b3", json!({})).await;
    assert_eq!(got.is_error, Some(false), "{}", text_of(&got));
    let refused = call(&client, "get_a1", json!({})).await;
    assert_eq!(refused.is_error, Some(true), "alpha is not enabled");
    assert!(text_of(&refused).contains("alpha"), "{}", text_of(&refused));

    // Fewer toolsets than the old position of `beta`: no index past the end.
    let fewer = tagged_doc(&[("get_b4", "beta")]);
    bridge
        .reload(catalog_of(fewer), Schemas::default())
        .await
        .unwrap();
    assert_eq!(listed(&client).await[META.len()..], ["get_b4"]);
    let got = call(&client, "get_b4", json!({})).await;
    assert_eq!(got.is_error, Some(false), "{}", text_of(&got));

    // A reload without the toolset: nothing listed, nothing panics; when
    // it comes back, the session's choice holds again.
    bridge
        .reload(
            catalog_of(tagged_doc(&[("get_g2", "gamma")])),
            Schemas::default(),
        )
        .await
        .unwrap();
    assert_eq!(listed(&client).await, META);
    let sets = call(&client, "list_toolsets", json!({})).await;
    assert_eq!(sets.is_error, Some(false), "{}", text_of(&sets));
    bridge
        .reload(
            catalog_of(tagged_doc(&[("get_b5", "beta")])),
            Schemas::default(),
        )
        .await
        .unwrap();
    assert_eq!(listed(&client).await[META.len()..], ["get_b5"]);
    let off = call(&client, "disable_toolset", json!({"names": ["beta"]})).await;
    assert_eq!(off.structured_content.unwrap()["changed"], true);
    assert_eq!(listed(&client).await, META);
    client.cancel().await.unwrap();
}

/// A Kubernetes ConfigMap volume as kubelet lays it out: the document's
/// path `dir/spec.json` links to `..data/spec.json`, and `..data` links
/// to a timestamped directory holding the data.
struct ConfigMapVolume {
    dir: tempfile::TempDir,
    current: String,
}

impl ConfigMapVolume {
    fn new(text: &str) -> Self {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let current = "..2026_11_24_10_00_00.000000001".to_string();
        std::fs::create_dir(dir.path().join(&current)).unwrap();
        std::fs::write(dir.path().join(&current).join("spec.json"), text).unwrap();
        symlink(&current, dir.path().join("..data")).unwrap();
        symlink("..data/spec.json", dir.path().join("spec.json")).unwrap();
        Self { dir, current }
    }

    fn path(&self) -> std::path::PathBuf {
        self.dir.path().join("spec.json")
    }

    /// An update the way kubelet's atomic writer makes it: the new data
    /// in a new timestamped directory, a `..data_tmp` symlink to it
    /// renamed over `..data`, then the old directory removed. The file
    /// at `path()` is never written, renamed or removed.
    fn update(&mut self, text: &str, stamp: &str) {
        use std::os::unix::fs::symlink;
        let next = format!("..2026_11_24_10_{stamp}.000000002");
        let base = self.dir.path();
        std::fs::create_dir(base.join(&next)).unwrap();
        std::fs::write(base.join(&next).join("spec.json"), text).unwrap();
        symlink(&next, base.join("..data_tmp")).unwrap();
        std::fs::rename(base.join("..data_tmp"), base.join("..data")).unwrap();
        std::fs::remove_dir_all(base.join(&self.current)).unwrap();
        self.current = next;
    }
}

// `--watch` follows a ConfigMap update (a `..data` symlink swap).
#[tokio::test]
async fn watch_reloads_on_a_configmap_symlink_swap() {
    use openapi2mcp::pipeline::{self, PipelineOptions};
    use openapi2mcp::reload::Reloader;
    let backend = Backend::start(ok_reply).await;
    let mut volume = ConfigMapVolume::new(&tagged_doc(&[("get_first", "all")]).to_string());
    let path = volume.path();
    let location = path.to_str().unwrap();
    let loaded = pipeline::load_catalog(location, &PipelineOptions::default()).unwrap();
    let options = ServeOptions {
        base_url: Some(backend.url()),
        listing: ListingOptions {
            mode: ToolsMode::Full,
            ..ListingOptions::default()
        },
        ..ServeOptions::default()
    };
    let bridge = Bridge::new(loaded.catalog, options).unwrap();
    let reloader = Reloader::new(location, PipelineOptions::default(), bridge.clone());
    reloader.spawn_watch(Duration::from_secs(1)).unwrap();
    let client = session(&bridge).await;
    assert_eq!(listed(&client).await, ["get_first", "get_call_result"]);

    for (round, stamp) in [("get_second", "01_00"), ("get_third", "02_00")] {
        volume.update(&tagged_doc(&[(round, "all")]).to_string(), stamp);
        let mut now = Vec::new();
        for _ in 0..100 {
            now = listed(&client).await;
            if now == [round, "get_call_result"] {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(
            now,
            [round, "get_call_result"],
            "the ConfigMap update was not picked up"
        );
        let got = call(&client, round, json!({})).await;
        assert_eq!(got.is_error, Some(false), "{}", text_of(&got));
    }
    client.cancel().await.unwrap();
}
