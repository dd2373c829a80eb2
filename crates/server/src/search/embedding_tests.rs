use super::*;

/// Dot product (the cosine of two unit vectors).
fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[test]
fn the_table_parses_whole() {
    let m = model();
    assert_eq!(m.dims(), 128);
    // Every line past the header is a row: none was skipped as malformed.
    let rows = TOKENS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("dims "))
        .count();
    assert!(rows > 10_000, "{rows}");
    assert_eq!(m.pieces.len(), rows);
    assert_eq!(m.scales.len(), rows);
    assert_eq!(m.values.len(), rows * m.dims());
}

/// The tokenizer reproduces the Llama 2 tokenizer's pieces (checked
/// against Hugging Face `tokenizers` with WordLlama's configuration when
/// the table was made).
#[test]
fn words_tokenize_as_the_model_tokenizer_does() {
    let m = model();
    let pieces = |word: &str| {
        let mut rows = Vec::new();
        m.tokenize(word, &mut rows);
        let names: HashMap<u32, &str> = m.pieces.iter().map(|(p, r)| (*r, *p)).collect();
        rows.iter().map(|r| names[r]).collect::<Vec<_>>()
    };
    assert_eq!(pieces("the"), ["_the"]);
    assert_eq!(pieces("chargebacks"), ["_charge", "back", "s"]);
    assert_eq!(pieces("stargazers"), ["_st", "arg", "az", "ers"]);
    // A word is read up to its 40th character: a request may hold a
    // megabyte without a space.
    let long = "ab".repeat(500_000);
    assert_eq!(pieces(&long), pieces(&"ab".repeat(20)));
    // A character no piece holds is left out.
    assert_eq!(pieces("caf\u{e9}"), ["_c", "af"]);
}

#[test]
fn close_meanings_are_closer_than_unrelated_ones() {
    let mut e = Embedder::new();
    let mut vector = |text: &str| {
        let mut v = vec![0.0; e.dims()];
        e.embed(text.split(' '), &mut v);
        v
    };
    let meeting = vector("schedule a meeting");
    let event = vector("create event");
    let repository = vector("delete repository");
    assert!(dot(&meeting, &event) > dot(&meeting, &repository));
    let norm = dot(&meeting, &meeting);
    assert!((norm - 1.0).abs() < 1e-4, "{norm}");
    // No word: the zero vector, whose cosine with anything is 0.
    let mut none = vec![1.0; e.dims()];
    e.embed([], &mut none);
    assert!(none.iter().all(|x| *x == 0.0));
}

#[test]
fn quantized_vectors_keep_their_cosines() {
    let mut e = Embedder::new();
    let mut a = vec![0.0; e.dims()];
    let mut b = vec![0.0; e.dims()];
    e.embed(["list", "my", "calendar", "events"], &mut a);
    e.embed(["create", "event"], &mut b);
    let mut q = Quantized::new(e.dims());
    q.push(&a);
    q.push(&vec![0.0; e.dims()]);
    assert!((q.dot(0, &b) - dot(&a, &b)).abs() < 0.01);
    assert!((q.dot(0, &a) - 1.0).abs() < 0.01);
    assert_eq!(q.dot(1, &a), 0.0);
}
