use super::*;

fn limits(max: usize, per_ip: usize, reserve: usize) -> ListenerLimits {
    ListenerLimits {
        max_connections: max,
        max_connections_per_ip: per_ip,
        ops_reserve: reserve,
        ..ListenerLimits::default()
    }
}

#[test]
fn ipv6_addresses_count_per_64_and_mapped_ipv4_as_ipv4() {
    let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
    let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
    let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
    assert_eq!(ip_key(a), ip_key(b));
    assert_ne!(ip_key(a), ip_key(c));
    let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
    assert_eq!(ip_key(mapped), "192.0.2.7".parse::<IpAddr>().unwrap());
}

#[test]
fn past_the_caps_connections_go_to_the_reserve_and_its_oldest_idle_one_makes_room() {
    let gate = Arc::new(Gate::new(limits(3, 2, 2)));
    let one: IpAddr = "192.0.2.1".parse().unwrap();
    let two: IpAddr = "192.0.2.2".parse().unwrap();
    let a = gate.admit(one).unwrap();
    let b = gate.admit(one).unwrap();
    assert!(!a.ops_only && !b.ops_only);
    // The per-IP cap: a third from `one` goes to the reserve…
    let r1 = gate.admit(one).unwrap();
    assert!(r1.ops_only);
    // …while another address is still served as usual, up to the total cap.
    let c = gate.admit(two).unwrap();
    assert!(!c.ops_only);
    let r2 = gate.admit(two).unwrap();
    assert!(r2.ops_only);
    // The reserve is full: its oldest connection without a request makes room.
    let r3 = gate.admit(two).unwrap();
    assert!(r3.ops_only);
    assert!(r1.conn.evict.is_cancelled());
    assert!(!r2.conn.evict.is_cancelled());
    // The address holding the most of the reserve gives way first: a
    // newcomer from `two` evicts `two`'s oldest, not `one`'s newer probe.
    drop(r1);
    let probe = gate.admit(one).unwrap();
    assert!(r2.conn.evict.is_cancelled(), "r2 was the oldest of two's");
    let r4 = gate.admit(two).unwrap();
    assert!(r3.conn.evict.is_cancelled());
    assert!(!probe.conn.evict.is_cancelled());
    drop((probe, r4));
    let r2 = gate.admit(two).unwrap();
    let r3 = gate.admit(two).unwrap();
    // A reserve connection whose request has begun is never evicted; with
    // none left to evict, a newcomer is refused.
    let _busy_r2 = InFlight::begin(&r2.conn);
    let _busy_r3 = InFlight::begin(&r3.conn);
    assert!(gate.admit(two).is_none());
    // Closing a served connection frees its place and its address's count.
    drop(a);
    let d = gate.admit(one).unwrap();
    assert!(!d.ops_only);
    drop((b, c, d));
    let state = gate.state.lock().unwrap();
    assert_eq!(state.open, 0);
    assert!(state.per_ip.is_empty());
}

#[test]
fn a_per_ip_cap_of_zero_is_no_cap_and_a_reserve_of_zero_refuses() {
    let gate = Arc::new(Gate::new(limits(2, 0, 0)));
    let ip: IpAddr = "192.0.2.1".parse().unwrap();
    let _a = gate.admit(ip).unwrap();
    let _b = gate.admit(ip).unwrap();
    assert!(gate.admit(ip).is_none());
}

#[tokio::test]
async fn deadlines_follow_the_connection_state() {
    let limits = ListenerLimits {
        header_timeout: Duration::from_secs(10),
        idle_timeout: Duration::from_secs(60),
        ..ListenerLimits::default()
    };
    let conn = Arc::new(Conn::new());
    // A new connection's head is timed from its accept.
    let first = conn.deadline(&limits).unwrap();
    assert_eq!(first, conn.opened + limits.header_timeout);
    // No deadline while a request is in flight.
    let guard = InFlight::begin(&conn);
    assert!(conn.deadline(&limits).is_none());
    conn.read_some();
    assert!(conn.deadline(&limits).is_none(), "bytes during a request");
    drop(guard);
    // Idle: the idle timeout, until bytes of a next head arrive.
    let idle = conn.deadline(&limits).unwrap();
    assert!(idle >= conn.opened + limits.idle_timeout);
    assert!(conn.expired(&limits).is_none());
    conn.read_some();
    let head = conn.deadline(&limits).unwrap();
    assert!(head < idle);
    assert!(head >= conn.opened + limits.header_timeout);
}

/// More clients than Tokio's default backlog (128) complete their
/// handshake while nothing accepts: the queue is the one asked for, so a
/// probe's connection is not dropped behind a crowd of reconnecting
/// clients. Linux lowers the backlog to `net.core.somaxconn`: with less
/// than the clients here, the machine cannot show it and the test says so.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn the_listen_queue_holds_more_than_tokios_default() {
    const CLIENTS: usize = 1_200;
    let somaxconn: usize = std::fs::read_to_string("/proc/sys/net/core/somaxconn")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0);
    if somaxconn < CLIENTS {
        eprintln!("net.core.somaxconn is {somaxconn}: below {CLIENTS}, nothing to show");
        return;
    }
    raise_open_files(&ListenerLimits::default());
    let listener = bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = listener.local_addr().unwrap();
    let mut held = Vec::with_capacity(CLIENTS);
    for i in 0..CLIENTS {
        // A SYN dropped at a full queue is retried after a second.
        let connected =
            tokio::time::timeout(Duration::from_millis(500), TcpStream::connect(addr)).await;
        match connected {
            Ok(Ok(stream)) => held.push(stream),
            other => panic!("client {i} of {CLIENTS} not queued: {other:?}"),
        }
    }
    drop(listener);
}
