use std::sync::{Arc, Mutex};

use super::*;
use crate::{LoadOptions, load};

/// What a canned client was asked: URL, deadline, limit.
type Asked = Arc<Mutex<Vec<(String, Duration, u64)>>>;

/// A client answering every `GET` with one outcome, recording what it was
/// asked.
#[derive(Debug)]
struct Canned {
    answer: Result<&'static str, FetchError>,
    asked: Asked,
}

impl Http for Canned {
    fn client(&self, _timeout: Duration) -> Result<Box<dyn HttpClient>, String> {
        Ok(Box::new(CannedClient {
            answer: self.answer.clone(),
            asked: self.asked.clone(),
        }))
    }
}

struct CannedClient {
    answer: Result<&'static str, FetchError>,
    asked: Asked,
}

impl HttpClient for CannedClient {
    fn get(&mut self, url: &Url, deadline: Duration, limit: u64) -> Result<Vec<u8>, FetchError> {
        self.asked
            .lock()
            .unwrap()
            .push((url.to_string(), deadline, limit));
        self.answer.clone().map(|text| text.as_bytes().to_vec())
    }
}

fn options(answer: Result<&'static str, FetchError>) -> (LoadOptions, Asked) {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let options = LoadOptions {
        http: Some(Arc::new(Canned {
            answer,
            asked: asked.clone(),
        })),
        http_timeout: Duration::from_secs(7),
        max_document_bytes: 1234,
        ..LoadOptions::default()
    };
    (options, asked)
}

#[test]
fn without_a_client_a_url_is_an_error_saying_so() {
    let error = load(
        "https://user:secret@api.example/openapi.yaml",
        &LoadOptions::default(),
    )
    .unwrap_err();
    assert!(error.message.contains("reads no http(s) URLs"), "{error:?}");
    assert!(!error.file.contains("secret"), "{error:?}");
}

#[test]
fn a_url_is_read_through_the_given_client_with_the_limits() {
    let doc = "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths: {}\n";
    let (options, asked) = options(Ok(doc));
    let (document, _) = load("https://api.example/openapi.yaml", &options).unwrap();
    assert_eq!(document.info().title, Some("T"));
    assert_eq!(
        *asked.lock().unwrap(),
        [(
            "https://api.example/openapi.yaml".to_string(),
            Duration::from_secs(7),
            1234
        )]
    );
}

#[test]
fn each_failure_is_told_in_the_readers_words() {
    for (failure, words) in [
        (
            FetchError::Late,
            "did not finish within the limit of 7 seconds (--fetch-timeout",
        ),
        (
            FetchError::TooLarge,
            "larger than the limit of 1234 bytes (--max-document-bytes)",
        ),
        (
            FetchError::Status("404 Not Found".into()),
            "returned HTTP 404 Not Found",
        ),
        (
            FetchError::Failed("cannot fetch: refused".into()),
            "cannot fetch: refused",
        ),
    ] {
        let (options, _) = options(Err(failure));
        let error = load("https://api.example/openapi.yaml", &options).unwrap_err();
        assert!(error.message.contains(words), "{words}: {error:?}");
        assert_eq!(error.file, "https://api.example/openapi.yaml");
    }
}

#[test]
fn a_body_that_is_not_utf8_is_refused() {
    #[derive(Debug)]
    struct Latin1;
    impl Http for Latin1 {
        fn client(&self, _: Duration) -> Result<Box<dyn HttpClient>, String> {
            Ok(Box::new(Latin1Client))
        }
    }
    struct Latin1Client;
    impl HttpClient for Latin1Client {
        fn get(&mut self, _: &Url, _: Duration, _: u64) -> Result<Vec<u8>, FetchError> {
            Ok(b"openapi: 3.1.0\ninfo: {title: caf\xe9}\n".to_vec())
        }
    }
    let options = LoadOptions {
        http: Some(Arc::new(Latin1)),
        ..LoadOptions::default()
    };
    let error = load("https://api.example/openapi.yaml", &options).unwrap_err();
    assert!(error.message.contains("not UTF-8"), "{error:?}");
}
