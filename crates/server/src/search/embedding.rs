//! What a request means beyond its words: a static text embedding
//! (WordLlama's `l2_supercat`, MIT licence), the average of the vectors of
//! a text's tokens, so that "move an issue to done" lands near Jira's
//! transitions and "send money to a connected account" near Stripe's
//! transfers although they share no telling word. The search adds the
//! cosine between a request's vector and each tool's to its lexical score
//! (see `search.rs`).
//!
//! `tokens.txt` holds the model's token vectors (128 of its 256
//! Matryoshka dimensions, quantized to 93 levels, one printable character
//! each) for the pieces of its Llama 2 tokenizer that lower-case English
//! words use; `scripts/search-embeddings.sh` makes it from pinned registry
//! packages. Words are tokenized as the model's tokenizer does it
//! (SentencePiece BPE: merge the adjacent pair whose join ranks first);
//! characters no piece holds are left out. Parsed once, on first use (the
//! search index's own thread).

use std::collections::HashMap;
use std::sync::OnceLock;

/// The token table, as `scripts/search-embeddings.sh` writes it.
const TOKENS: &str = include_str!("tokens.txt");

/// Quantization levels each side of zero (`'!' + LEVELS` is zero).
const LEVELS: i32 = 46;

/// The word-start mark of the table's pieces (the tokenizer's `▁`).
const WORD_START: char = '_';

/// Longest word tokenized whole; English words are far shorter.
const MAX_WORD_CHARS: usize = 40;

/// Token vectors, quantized: each row one byte a dimension and a scale.
pub(super) struct Model {
    /// Piece to row; a lower row merges first.
    pieces: HashMap<&'static str, u32>,
    dims: usize,
    scales: Vec<f32>,
    values: Vec<i8>,
}

/// The model, parsed once on first use (about 12,000 rows).
pub(super) fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| Model::parse(TOKENS))
}

impl Model {
    /// Reads the table: comment lines, `dims N`, then `piece scale chars`
    /// lines. A malformed line is skipped (the file is checked in and
    /// tested, so none is expected).
    fn parse(text: &'static str) -> Self {
        let mut dims = 0;
        let mut pieces = HashMap::new();
        let mut scales = Vec::new();
        let mut values = Vec::new();
        for line in text.lines() {
            if line.starts_with('#') {
                continue;
            }
            if let Some(n) = line.strip_prefix("dims ") {
                dims = n.trim().parse().unwrap_or(0);
                continue;
            }
            let mut parts = line.splitn(3, ' ');
            let (Some(piece), Some(scale), Some(chars)) =
                (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            let Ok(scale) = scale.parse::<f32>() else {
                continue;
            };
            if dims == 0 || chars.len() != dims {
                continue;
            }
            pieces.insert(piece, scales.len() as u32);
            scales.push(scale);
            values.extend(
                chars
                    .bytes()
                    .map(|b| (i32::from(b) - 0x21 - LEVELS).clamp(-LEVELS, LEVELS) as i8),
            );
        }
        Self {
            pieces,
            dims,
            scales,
            values,
        }
    }

    /// Number of dimensions of a vector.
    pub(super) fn dims(&self) -> usize {
        self.dims
    }

    /// The rows of `word`'s tokens (a lower-case word, as `split_words`
    /// gives it), appended to `out`. Only the first [`MAX_WORD_CHARS`]
    /// characters count: merging is quadratic in a word's length, and a
    /// request may hold anything.
    pub(super) fn tokenize(&self, word: &str, out: &mut Vec<u32>) {
        let word = word
            .char_indices()
            .nth(MAX_WORD_CHARS)
            .map_or(word, |(end, _)| &word[..end]);
        let marked = format!("{WORD_START}{word}");
        // Symbols as byte ranges of `marked`, from its characters up.
        let mut symbols: Vec<(usize, usize)> = marked
            .char_indices()
            .map(|(i, c)| (i, i + c.len_utf8()))
            .collect();
        loop {
            let mut best: Option<(u32, usize)> = None;
            for (i, pair) in symbols.windows(2).enumerate() {
                if let Some(&rank) = self.pieces.get(&marked[pair[0].0..pair[1].1])
                    && best.is_none_or(|(r, _)| rank < r)
                {
                    best = Some((rank, i));
                }
            }
            let Some((_, i)) = best else { break };
            symbols[i].1 = symbols[i + 1].1;
            symbols.remove(i + 1);
        }
        out.extend(
            symbols
                .iter()
                .filter_map(|&(from, to)| self.pieces.get(&marked[from..to]).copied()),
        );
    }

    /// Adds the vectors of `rows` to `sum`.
    pub(super) fn add(&self, rows: &[u32], sum: &mut [f32]) {
        for &row in rows {
            let row = row as usize;
            let scale = self.scales[row];
            let values = &self.values[row * self.dims..(row + 1) * self.dims];
            for (s, v) in sum.iter_mut().zip(values) {
                *s += scale * f32::from(*v);
            }
        }
    }
}

/// Turns texts into unit vectors, remembering each word's tokens (an
/// API's texts repeat their words a great deal).
pub(super) struct Embedder {
    model: &'static Model,
    words: HashMap<String, Vec<u32>>,
    rows: Vec<u32>,
}

impl Embedder {
    /// An embedder over the shared [`model`].
    pub(super) fn new() -> Self {
        Self {
            model: model(),
            words: HashMap::new(),
            rows: Vec::new(),
        }
    }

    /// Number of dimensions of a vector.
    pub(super) fn dims(&self) -> usize {
        self.model.dims()
    }

    /// The unit vector of `words` (the average of their tokens' vectors,
    /// normalized), written to `out`; all zeros when no word has a token.
    pub(super) fn embed<'w>(&mut self, words: impl IntoIterator<Item = &'w str>, out: &mut [f32]) {
        out.fill(0.0);
        self.rows.clear();
        for word in words {
            if !self.words.contains_key(word) {
                let mut rows = Vec::new();
                self.model.tokenize(word, &mut rows);
                self.words.insert(word.to_string(), rows);
            }
            self.rows.extend_from_slice(&self.words[word]);
        }
        self.model.add(&self.rows, out);
        normalize(out);
    }
}

/// Scales `v` to length 1 (the average's scale does not matter for a
/// cosine); a zero vector stays zero.
fn normalize(v: &mut [f32]) {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
}

/// Unit vectors stored a byte a dimension with a scale each: what the
/// index keeps of its tools' embeddings (the cosine moves by well under
/// 0.01).
pub(super) struct Quantized {
    dims: usize,
    scales: Vec<f32>,
    values: Vec<i8>,
}

impl Quantized {
    /// No vector yet, each to have `dims` dimensions.
    pub(super) fn new(dims: usize) -> Self {
        Self {
            dims,
            scales: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Number of dimensions of a vector.
    pub(super) fn dims(&self) -> usize {
        self.dims
    }

    /// Appends `vector` (of [`Self::dims`] values).
    pub(super) fn push(&mut self, vector: &[f32]) {
        let max = vector.iter().fold(0.0f32, |m, x| m.max(x.abs()));
        let scale = if max > 0.0 { max / 127.0 } else { 1.0 };
        self.scales.push(scale);
        self.values.extend(
            vector
                .iter()
                .map(|x| (x / scale).round().clamp(-127.0, 127.0) as i8),
        );
    }

    /// The dot product of vector `i` with `other`.
    pub(super) fn dot(&self, i: usize, other: &[f32]) -> f32 {
        let values = &self.values[i * self.dims..(i + 1) * self.dims];
        let sum: f32 = values
            .iter()
            .zip(other)
            .map(|(v, x)| f32::from(*v) * x)
            .sum();
        sum * self.scales[i]
    }
}

#[cfg(test)]
#[path = "embedding_tests.rs"]
mod tests;
