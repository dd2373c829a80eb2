use super::*;
use crate::tests::tool;

#[test]
fn packed_tools_are_each_tools_own_bytes_across_buffers() {
    // Several buffers' worth, with tools larger than the room that
    // starts a new buffer and than a whole buffer.
    let sizes = (0..400).map(|i| match i % 50 {
        7 => PACK_ROOM + 100,
        19 => PACK_CHUNK + 10,
        n => 200 + n * 37,
    });
    let tools: Vec<Tool> = sizes
        .enumerate()
        .map(|(i, pad)| tool(&format!("t{i}"), pad))
        .collect();
    let packed: Vec<Bytes> = tools.iter().map(|t| serialize_packed(t).unwrap()).collect();
    for (t, bytes) in tools.iter().zip(&packed) {
        assert_eq!(
            &bytes[..],
            &serde_json::to_vec(t).unwrap()[..],
            "{}",
            t.name
        );
        assert_eq!(bytes.len(), openapi2mcp_runtime::wire::json_size(t));
    }
    // Dropping some slices leaves the others intact.
    let kept: Vec<Bytes> = packed.into_iter().step_by(3).collect();
    for (t, bytes) in tools.iter().step_by(3).zip(&kept) {
        assert_eq!(&bytes[..], &serde_json::to_vec(t).unwrap()[..]);
    }
}
