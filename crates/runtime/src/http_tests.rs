//! Unit tests of `http.rs`: the backoff and `Retry-After` arithmetic, the
//! client built on first use.

use super::*;

#[test]
fn backoff_doubles_up_to_the_cap_and_never_overflows() {
    let base = Duration::from_millis(200);
    assert_eq!(backoff(base, 1), Duration::from_millis(200));
    assert_eq!(backoff(base, 2), Duration::from_millis(400));
    assert_eq!(backoff(base, 3), Duration::from_millis(800));
    assert_eq!(backoff(base, 9), MAX_BACKOFF);
    for attempt in [0, 31, 32, 33, 64, 1000, u32::MAX] {
        assert!(backoff(base, attempt) <= MAX_BACKOFF, "attempt {attempt}");
    }
    assert_eq!(backoff(Duration::MAX, 1), MAX_BACKOFF);
    assert_eq!(backoff(Duration::ZERO, u32::MAX), Duration::ZERO);
}

fn header(value: &str) -> Vec<(String, String)> {
    vec![("Retry-After".to_string(), value.to_string())]
}

#[test]
fn retry_after_reads_seconds_and_http_dates() {
    let now = httpdate::parse_http_date("Wed, 21 Oct 2015 07:28:00 GMT").unwrap();
    assert_eq!(
        retry_after(&header(" 30 "), now),
        Some(Duration::from_secs(30))
    );
    assert_eq!(retry_after(&header("0"), now), Some(Duration::ZERO));
    assert_eq!(
        retry_after(&header("99999999999999999999999999"), now),
        Some(Duration::from_secs(u64::MAX)),
        "absurd values saturate"
    );
    assert_eq!(
        retry_after(&header("Wed, 21 Oct 2015 07:28:42 GMT"), now),
        Some(Duration::from_secs(42))
    );
    // RFC 850 and asctime dates are HTTP dates too.
    assert_eq!(
        retry_after(&header("Wednesday, 21-Oct-15 07:29:00 GMT"), now),
        Some(Duration::from_secs(60))
    );
    assert_eq!(
        retry_after(&header("Wed Oct 21 07:28:05 2015"), now),
        Some(Duration::from_secs(5))
    );
    assert_eq!(
        retry_after(&header("Tue, 20 Oct 2015 07:28:00 GMT"), now),
        Some(Duration::ZERO),
        "a date in the past asks for no wait"
    );
    for bad in ["", "-5", "1.5", "soon", "Wed, 99 Oct 2015 07:28:00 GMT"] {
        assert_eq!(retry_after(&header(bad), now), None, "{bad:?}");
    }
    assert_eq!(retry_after(&[], now), None);
}

#[test]
fn the_client_is_built_once_when_first_needed_and_shared_by_clones() {
    let client = HttpClient::new(HttpOptions::default());
    let shared = client.reqwest().clone();
    assert!(client.reqwest().cell.get().is_none(), "built before use");
    let first: *const reqwest::Client = shared.get().unwrap();
    // The clone made before the client was built sees the same client.
    let again: *const reqwest::Client = client.reqwest().get().unwrap();
    assert_eq!(first, again);
    // A client built already is used as it is.
    let own = reqwest::Client::new();
    let given = LazyClient::from(own);
    assert!(given.cell.get().is_some());
}

#[test]
fn only_accept_encodings_the_client_decodes_are_passed_on() {
    for ok in [
        "gzip",
        "gzip, deflate, br, zstd",
        "identity",
        "GZIP;q=1.0, identity;q=0.5",
        "compress;q=0, gzip",
    ] {
        assert!(decodable_codings(ok), "{ok}");
    }
    for refused in ["compress", "*", "gzip, x-custom", "", " , ", "identity;q=0"] {
        assert!(!decodable_codings(refused), "{refused}");
    }
}
