use std::io::{Read as _, Write as _};
use std::os::fd::AsFd;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::super::stdio::nonblocking_unix_socket;

#[tokio::test]
async fn a_unix_socket_is_driven_by_the_reactor() {
    let (ours, theirs) = std::os::unix::net::UnixStream::pair().unwrap();
    let mut stream = nonblocking_unix_socket(ours.as_fd()).expect("a Unix stream socket");
    // The copy shares the open file description: the original turned
    // non-blocking too, the peer did not.
    let mut buf = [0u8; 8];
    assert_eq!(
        (&ours).read(&mut buf).unwrap_err().kind(),
        std::io::ErrorKind::WouldBlock
    );
    (&theirs).write_all(b"ping\n").unwrap();
    let n = stream.read(&mut buf).await.unwrap();
    assert_eq!(&buf[..n], b"ping\n");
    stream.write_all(b"pong\n").await.unwrap();
    let n = (&theirs).read(&mut buf).unwrap();
    assert_eq!(&buf[..n], b"pong\n");
}

#[tokio::test]
async fn pipes_files_and_tcp_sockets_are_left_alone() {
    let file = tempfile::tempfile().unwrap();
    assert!(nonblocking_unix_socket(file.as_fd()).is_none());

    let (reader, _writer) = std::io::pipe().unwrap();
    assert!(nonblocking_unix_socket(reader.as_fd()).is_none());

    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let tcp = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
    assert!(nonblocking_unix_socket(tcp.as_fd()).is_none());
}

/// What rmcp's own decoder makes of `line`.
fn rmcp_decode(line: &str) -> Option<rmcp::service::RxJsonRpcMessage<rmcp::service::RoleServer>> {
    use tokio_util::codec::Decoder as _;
    let mut buf = tokio_util::bytes::BytesMut::from(format!("{line}\n").as_bytes());
    rmcp::transport::async_rw::JsonRpcMessageCodec::default()
        .decode(&mut buf)
        .ok()
        .flatten()
}

fn decode_call_str(line: &str) -> Option<serde_json::Value> {
    super::super::stdio::decode_call(line.as_bytes()).map(|m| serde_json::to_value(m).unwrap())
}

#[test]
fn a_tools_call_decodes_as_rmcp_decodes_it() {
    let lines = [
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_repo","arguments":{"owner":"octocat","repo":"hello-world"}}}"#,
        r#"{"method":"tools/call","params":{"name":"t"},"id":"a-string","jsonrpc":"2.0"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{},"_meta":{"progressToken":"p1","x":[1,2]}}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":null,"requestState":"s"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","extra":{"k":true},"params":{"name":"t","unknown":1}}"#,
        " {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"\\u00e9t\\u00e9\"}} ",
    ];
    for line in lines {
        let ours = decode_call_str(line).unwrap_or_else(|| panic!("not decoded directly: {line}"));
        let theirs = serde_json::to_value(rmcp_decode(line).expect("rmcp decodes it")).unwrap();
        assert_eq!(ours, theirs, "{line}");
    }
    // The progress token reaches the request's extensions, where the
    // server reads it.
    let meta = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"progressToken":"p1"}}}"#;
    let Some(rmcp::model::JsonRpcMessage::Request(request)) =
        super::super::stdio::decode_call(meta.as_bytes())
    else {
        panic!("not a request")
    };
    let rmcp::model::ClientRequest::CallToolRequest(call) = request.request else {
        panic!("not a tools/call")
    };
    assert!(call.params.meta.is_none());
    let token = call
        .extensions
        .get::<rmcp::model::RequestMetaObject>()
        .and_then(|m| m.get_progress_token());
    assert_eq!(
        token,
        Some(rmcp::model::ProgressToken(
            rmcp::model::NumberOrString::String("p1".into())
        ))
    );
}

#[test]
fn anything_else_is_left_to_rmcp() {
    let lines = [
        // other methods
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"t"}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        // a tools/call rmcp refuses or reads its own way
        r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"t"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#,
        r#"{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"t"}}"#,
        r#"{"id":1,"method":"tools/call","params":{"name":"t"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"},"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"},"error":null}"#,
        r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{"name":"t"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}} trailing"#,
        r#"[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}]"#,
        "not json",
    ];
    for line in lines {
        assert!(decode_call_str(line).is_none(), "decoded directly: {line}");
    }
}
