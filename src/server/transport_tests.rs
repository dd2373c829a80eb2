use std::io::{Read as _, Write as _};
use std::os::fd::AsFd;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::nonblocking_unix_socket;

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
