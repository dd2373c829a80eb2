#!/usr/bin/env bash
# Checks the documentation (issue #44): README.md, docs/**/*.md,
# crates/README.md and bench/README.md.
#
# - Every relative Markdown link points to a file that exists, and an
#   `#anchor` (in the same file or another Markdown file) to a heading of
#   that file, slugged as GitHub does (lower case, spaces to `-`, other
#   punctuation than `-` and `_` dropped, `-1`, `-2` for repeats), or to an
#   explicit `<a id="...">` / `<a name="...">`.
# - Every documented command still runs: a line in a fenced code block
#   that invokes `openapi2mcp <subcommand>` (also `cargo run [--release] --
#   <subcommand>`) names a subcommand the binary has, and each `--flag`
#   after it appears in `$BIN <subcommand> --help`. Other programs' command
#   lines (`cargo build`, `docker build -t openapi2mcp .`, a generated
#   crate's binary, `cargo run -p other`) are not checked.
#
# Every problem is reported as FILE:LINE: message; the exit status is 1
# when there is any. No network, no cargo: the binary must already exist.
#
#   scripts/check-docs.sh                       # target/debug/openapi2mcp
#   OPENAPI2MCP_BIN=target/release/openapi2mcp scripts/check-docs.sh
#   scripts/check-docs.sh FILE.md ...           # only these files
#   CHECK_DOCS_VERBOSE=1 scripts/check-docs.sh  # print each command checked
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${OPENAPI2MCP_BIN:-target/debug/openapi2mcp}
if [ ! -x "$bin" ]; then
  echo "check-docs: $bin not found or not executable (build it, or set OPENAPI2MCP_BIN)" >&2
  exit 2
fi
exec python3 - "$bin" "$@" <<'PY'
import glob
import os
import re
import shlex
import subprocess
import sys
import urllib.parse

BIN = sys.argv[1]
FILES = sys.argv[2:] or (
    ["README.md"]
    + sorted(glob.glob("docs/**/*.md", recursive=True))
    + ["crates/README.md", "bench/README.md"]
)
VERBOSE = os.environ.get("CHECK_DOCS_VERBOSE") == "1"
problems = []
checked = {"links": 0, "commands": 0}


def problem(path, line, message):
    problems.append(f"{path}:{line}: {message}")


# ---------------------------------------------------------------- Markdown

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def scan(text):
    """(line number, line, in a fenced block) for every line; fence lines
    themselves count as inside."""
    out = []
    fence = None
    for n, line in enumerate(text.split("\n"), 1):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)[0] * len(m.group(1))
            out.append((n, line, True))
        elif fence is not None:
            out.append((n, line, True))
            if m and m.group(1).startswith(fence) and not line.strip()[len(m.group(1)):].strip():
                fence = None
        else:
            out.append((n, line, False))
    return out


def slug(heading):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links: their text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.replace("`", "").replace("*", "")
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)  # \w is Unicode: letters, digits, _
    return text.replace(" ", "-")


anchor_cache = {}


def anchors(path):
    if path not in anchor_cache:
        found = set()
        seen = {}
        try:
            text = open(path, encoding="utf-8").read()
        except OSError:
            text = ""
        for _, line, fenced in scan(text):
            if fenced:
                continue
            m = re.match(r"^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$", line)
            if m:
                base = slug(m.group(2))
                k = seen.get(base, 0)
                seen[base] = k + 1
                found.add(base if k == 0 else f"{base}-{k}")
            for a in re.findall(r'<a\s+(?:id|name)="([^"]+)"', line):
                found.add(a)
        anchor_cache[path] = found
    return anchor_cache[path]


LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+\"[^\"]*\")?\s*\)")
REFDEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")


def strip_code_spans(line):
    return re.sub(r"(`+)(.+?)\1", lambda m: " " * len(m.group(0)), line)


def check_links(path, text):
    for n, line, fenced in scan(text):
        if fenced:
            continue
        visible = strip_code_spans(line)
        targets = [m.group(1) for m in LINK.finditer(visible)]
        m = REFDEF.match(visible)
        if m:
            targets.append(m.group(1))
        for target in targets:
            target = target.strip("<>")
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
                continue  # https:, mailto: ...
            checked["links"] += 1
            file_part, _, anchor = target.partition("#")
            file_part = urllib.parse.unquote(file_part)
            if file_part == "":
                dest = path
            elif file_part.startswith("/"):
                dest = os.path.normpath(file_part.lstrip("/"))
            else:
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
            if not os.path.exists(dest):
                problem(path, n, f"link to {target}: {dest} does not exist")
                continue
            if anchor and dest.endswith(".md") and os.path.isfile(dest):
                if urllib.parse.unquote(anchor) not in anchors(dest):
                    problem(path, n, f"link to {target}: no heading #{anchor} in {dest}")


# ---------------------------------------------------------------- commands

help_cache = {}


def help_of(sub):
    """(exists, set of long flags) of `BIN sub --help` (sub may be '')."""
    if sub not in help_cache:
        args = [BIN] + ([sub] if sub else []) + ["--help"]
        r = subprocess.run(args, capture_output=True, text=True)
        flags = set(re.findall(r"(?<![\w-])--[a-z0-9][a-z0-9-]*", r.stdout))
        help_cache[sub] = (r.returncode == 0, flags)
    return help_cache[sub]


def subcommands():
    out = subprocess.run([BIN, "--help"], capture_output=True, text=True).stdout
    names, inside = set(), False
    for line in out.split("\n"):
        if line.startswith("Commands:"):
            inside = True
            continue
        if inside:
            m = re.match(r"^  ([a-z][a-z0-9-]*)\s", line)
            if m:
                names.add(m.group(1))
            elif line.strip() and not line.startswith(" "):
                inside = False
    return names


SUBCOMMANDS = subcommands()
if not SUBCOMMANDS:
    sys.exit(f"check-docs: `{BIN} --help` lists no subcommands")


def without_comment(command):
    """The command without a shell comment (`#` after a blank, outside quotes)."""
    quote = None
    for i, c in enumerate(command):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or command[i - 1] in " \t"):
            return command[:i]
    return command


PUNCTUATION = ";&|<>()"


def tokens(command):
    lexer = shlex.shlex(without_comment(command), posix=True, punctuation_chars=PUNCTUATION)
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        return list(lexer)
    except ValueError:  # an unbalanced quote: split on blanks instead
        return command.split()


def is_separator(token):
    return token != "" and all(c in PUNCTUATION for c in token)


def invocations(toks):
    """(subcommand, [args]) for each call of this binary in the tokens."""
    out = []
    i = 0
    while i < len(toks):
        t = toks[i]
        start = None
        if t == "openapi2mcp" or t.endswith("/openapi2mcp"):
            start = i + 1
        elif t == "cargo" and i + 1 < len(toks) and toks[i + 1] == "run":
            # cargo run [cargo flags] -- ARGS; only for the root package.
            j = i + 2
            ours = True
            while j < len(toks) and toks[j] != "--" and not is_separator(toks[j]):
                if toks[j] in ("-p", "--package", "--manifest-path", "--bin", "--example") or toks[j].startswith(
                    ("--package=", "--manifest-path=", "--bin=", "--example=")
                ):
                    ours = toks[j : j + 2] in (["--bin", "openapi2mcp"],) or toks[j] == "--bin=openapi2mcp"
                j += 1
            if ours and j < len(toks) and toks[j] == "--":
                start = j + 1
        if start is not None:
            end = start
            while end < len(toks) and not is_separator(toks[end]):
                end += 1
            args = toks[start:end]
            if args:
                out.append((args[0], args[1:]))
            i = end
        else:
            i += 1
    return out


def check_commands(path, text):
    rows = scan(text)
    k = 0
    while k < len(rows):
        n, line, fenced = rows[k]
        k += 1
        if not fenced or FENCE.match(line):
            continue
        # Join continuation lines (a trailing backslash).
        command = line
        while command.rstrip().endswith("\\") and k < len(rows) and rows[k][2] and not FENCE.match(rows[k][1]):
            command = command.rstrip()[:-1] + " " + rows[k][1]
            k += 1
        if "openapi2mcp" not in command and "cargo run" not in command:
            continue
        for sub, args in invocations(tokens(command)):
            if not re.fullmatch(r"-.*|[a-z][a-z0-9-]*", sub):
                continue  # `docker build -t openapi2mcp .`, `openapi2mcp::audit`, ...
            checked["commands"] += 1
            if VERBOSE:
                print(f"{path}:{n}: openapi2mcp {sub} {' '.join(args)}", file=sys.stderr)
            if sub.startswith("-"):
                sub_name, flags = "", [sub] + args
            else:
                if sub not in SUBCOMMANDS:
                    problem(path, n, f"`openapi2mcp {sub}`: no such subcommand (the binary has {', '.join(sorted(SUBCOMMANDS))})")
                    continue
                sub_name, flags = sub, args
            known = help_of(sub_name)[1]
            for flag in flags:
                # `[--scheme oauth]`: an optional flag in a synopsis.
                m = re.match(r"^\[?(--[a-z0-9][a-z0-9-]*)(=.*)?\]?$", flag)
                if m and m.group(1) not in known:
                    where = f"openapi2mcp {sub_name} --help" if sub_name else "openapi2mcp --help"
                    problem(path, n, f"`{m.group(1)}` is not in `{where}`")


for path in FILES:
    try:
        text = open(path, encoding="utf-8").read()
    except OSError as e:
        problem(path, 0, f"cannot read: {e}")
        continue
    check_links(path, text)
    check_commands(path, text)

for p in problems:
    print(p)
if problems:
    print(f"check-docs: {len(problems)} problem(s) in {len(FILES)} files", file=sys.stderr)
    sys.exit(1)
print(f"check-docs: {len(FILES)} files, {checked['links']} links, {checked['commands']} commands: OK")
PY
