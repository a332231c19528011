#!/usr/bin/env python3
"""Regenerates src/main/resources/io/fulcrum/cfg/haproxy-keywords.txt from HAProxy 2.6's documentation.

Only keyword names are extracted (one line per keyword: "<context> <keyword>"), never HAProxy's prose.
Besides the configuration keywords and flags, the converters of 7.3.1 are listed (context "converter").

Usage:
    tools/gen-haproxy-keywords.py [--doc-dir DIR] [--output FILE] [--check]

DIR holds configuration.txt and management.txt, gzipped or not; the default is
/usr/share/doc/haproxy (Debian/Ubuntu package "haproxy"), then /tmp. --check writes nothing
and exits 1 when the committed file differs from what the documentation gives.
"""

import argparse
import gzip
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, "src/main/resources/io/fulcrum/cfg/haproxy-keywords.txt")
DOC_DIRS = ["/usr/share/doc/haproxy", "/tmp"]

# Every section keyword that opens a section in a configuration file; each must be documented
# as such in configuration.txt (checked below), so that a name 2.6 does not know fails the run.
SECTIONS = ["global", "defaults", "frontend", "backend", "listen", "userlist", "peers", "mailers",
            "program", "http-errors", "ring", "log-forward", "resolvers", "cache", "fcgi-app"]

# Keyword lists of the sections other than global and the proxies: context -> documentation chapter.
SECTION_CHAPTERS = {
    "userlist": "3.4", "peers": "3.5", "mailers": "3.6", "program": "3.7", "http-errors": "3.8",
    "ring": "3.9", "log-forward": "3.10", "resolvers": "5.3.2", "cache": "6.2.1", "fcgi-app": "10.1.1",
}

# Chapters documenting the sample fetches: 7.3.2 (internal states) to 7.3.7 (for developers).
FETCH_CHAPTERS = ["7.3.2", "7.3.3", "7.3.4", "7.3.5", "7.3.6", "7.3.7"]

# Words that head a definition in the documentation but are misspellings, not keywords.
TYPOS = {"tcp-resposne"}

HEADING = re.compile(r"^(\d+(?:\.\d+)*)\.\s+\S")
WORD = re.compile(r"^[a-z0-9][a-z0-9._-]*")


def read_doc(doc_dir, name):
    dirs = [doc_dir] if doc_dir else DOC_DIRS
    for d in dirs:
        for path in (os.path.join(d, name + ".gz"), os.path.join(d, name)):
            if os.path.exists(path):
                opener = gzip.open if path.endswith(".gz") else open
                with opener(path, "rt", encoding="utf-8", errors="replace") as f:
                    return f.read().splitlines()
    sys.exit("cannot find %s in %s" % (name, ", ".join(dirs)))


def chapters(lines):
    """Chapter number -> (first line, end line) of its body; a heading is underlined by dashes."""
    starts = []
    for i, line in enumerate(lines[:-1]):
        m = HEADING.match(line)
        if m and re.match(r"^-{3,}\s*$", lines[i + 1]):
            starts.append((m.group(1), i))
    result = {}
    for k, (num, start) in enumerate(starts):
        end = starts[k + 1][1] if k + 1 < len(starts) else len(lines)
        result[num] = (start + 2, end)
    return result


def span(chaps, num, deep=True):
    """Lines of a chapter; with deep, including its sub-chapters."""
    start, end = chaps[num]
    if deep:
        for other, (s, e) in chaps.items():
            if other.startswith(num + ".") and s > start:
                end = max(end, e)
    return start, end


def definitions(lines, start, end):
    """The definition headers of a range: runs of lines at column 0 starting with a keyword, after
    a blank line and followed by their description indented by at least two spaces (several
    headers may share a description, a long header may continue on an indented line). Prose
    paragraphs at column 0 start with a capital letter or end on a blank line."""
    def candidate(i):
        return WORD.match(lines[i]) is not None and not HEADING.match(lines[i])

    result = []
    i = start
    while i < end:
        if not candidate(i) or (i > 0 and lines[i - 1].strip() != ""):
            i += 1
            continue
        j = i
        while j < end and candidate(j):
            j += 1
        if j < len(lines) and re.match(r"^ {2,}\S", lines[j]):
            result.extend(lines[k].split() for k in range(i, j))
        i = j
    return result


def keyword(word):
    """A documented word without argument decorations ("set-var(<name>)" -> "set-var")."""
    m = WORD.match(word)
    return m.group(0) if m else None


# A sample fetch's definition header: "name : type" or "name(<args>) : type" at column 0.
FETCH_HEADER = re.compile(r"^([a-z0-9][a-z0-9._+-]*)(?:\(.*\))?\s+:\s+\S")


def extract(conf, mgmt):
    inv = {}

    def add(context, word):
        kw = word if word.startswith("-") or context == "fetch" else keyword(word)
        if kw and kw not in TYPOS:
            inv.setdefault(context, set()).add(kw)

    chaps = chapters(conf)

    # Global section: the summary list at the start of chapter 3, plus every definition of 3.1-3.3
    # (the list misses a few documented keywords).
    start, end = chaps["3"]
    for line in conf[start:end]:
        m = re.match(r"^   - (\S+)", line)
        if m:
            add("global", m.group(1))
    for num in ("3.1", "3.2", "3.3"):
        for words in definitions(conf, *span(chaps, num)):
            add("global", words[0])

    # Proxy sections: the keyword matrix of 4.1 ...
    def proxy_words(words):
        add("proxy", words[0])
        rest = words[1:]
        if words[0] in ("no", "default") and rest:
            rest = rest[1:] if rest[0] == "option" else []
            words = ["option"] + rest
        if words[0] in ("option", "timeout", "stats") and rest:
            add(words[0], rest[0])

    start, end = chaps["4.1"]
    in_matrix = False
    for line in conf[start:end]:
        if re.match(r"^-+\+", line):
            in_matrix = not in_matrix
            continue
        if in_matrix and WORD.match(line):
            proxy_words(line[:37].split())
    matrix = set(inv["proxy"])

    # ... and the definitions of the 4.2 reference, which also documents a few keywords the
    # matrix lacks and the "no" prefix.
    for words in definitions(conf, *span(chaps, "4.2")):
        proxy_words(words)
    # The actions of the HTTP rule keywords, each documented on a line of its own in 4.2
    # ("http-request set-var(<var-name>) <expr> ...").
    start, end = span(chaps, "4.2")
    for line in conf[start:end]:
        m = re.match(r"^(http-request|http-response|http-after-response) ([a-z][a-z0-9-]*)", line)
        if m:
            add(m.group(1), m.group(2))
    # 4.1 says that options may also be prefixed with "default" to restore their default setting.
    add("proxy", "default")
    extra = sorted(inv["proxy"] - matrix)

    # Bind and server options.
    for words in definitions(conf, *span(chaps, "5.1")):
        add("bind", words[0])
    for words in definitions(conf, *span(chaps, "5.2")):
        add("server", words[0])

    # The other sections' keywords (first word; "no option x" gives "no" and "option").
    for context, num in SECTION_CHAPTERS.items():
        for words in definitions(conf, *span(chaps, num)):
            if words[0] != context:
                add(context, words[0])

    # Converters (7.3.1). The map converters are documented as templates ("map_<match_type>...") and
    # listed in a table: their names follow the table's match methods, with the _int and _ip outputs.
    for words in definitions(conf, *span(chaps, "7.3.1")):
        kw = keyword(words[0])
        if kw and not kw.endswith("_"):
            add("converter", kw)
    start, end = span(chaps, "7.3.1")
    for line in conf[start:end]:
        m = re.match(r"^\s+\w+\s+\|\s+(\w+)\s+\|\s+(map_\w+)", line)
        if m:
            add("converter", m.group(2))
            for suffix in ("", "_int", "_ip"):
                add("converter", "map_" + m.group(1) + suffix)

    # Sample fetches: the definition headers of their chapters ("name(args) : type").
    for num in FETCH_CHAPTERS:
        start, end = span(chaps, num)
        for line in conf[start:end]:
            m = FETCH_HEADER.match(line)
            if m:
                add("fetch", m.group(1))

    # Section keywords, each checked against the documentation.
    text = "\n".join(conf)
    for name in SECTIONS:
        documented = (re.search(r'"%s" section' % re.escape(name), text)
                      or re.search(r"^%s <" % re.escape(name), text, re.M))
        if not documented:
            sys.exit("section keyword %r is not documented in configuration.txt" % name)
        add("section", name)

    # Command-line flags: chapter 3 of management.txt.
    mchaps = chapters(mgmt)
    start, end = mchaps["3"]
    for line in mgmt[start:end]:
        m = re.match(r"^  (--|-[A-Za-z]+)(?=[\s<\[:])", line)
        if m:
            add("flag", m.group(1))

    return inv, extra


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--doc-dir", help="directory holding configuration.txt[.gz] and management.txt[.gz]")
    ap.add_argument("--output", default=OUTPUT)
    ap.add_argument("--check", action="store_true", help="only compare with the committed file")
    args = ap.parse_args()

    conf = read_doc(args.doc_dir, "configuration.txt")
    mgmt = read_doc(args.doc_dir, "management.txt")
    version = next((l.strip() for l in conf[:10] if l.strip().startswith("version ")), "version ?")
    inv, extra = extract(conf, mgmt)

    out = ["# HAProxy %s keywords, one per line: <context> <keyword>." % version.split()[-1],
           "# Generated by tools/gen-haproxy-keywords.py from HAProxy's configuration.txt and",
           "# management.txt (names only); do not edit, rerun the script."]
    for context in sorted(inv):
        out.extend("%s %s" % (context, kw) for kw in sorted(inv[context]))
    content = "\n".join(out) + "\n"

    for context in sorted(inv):
        print("%-12s %4d" % (context, len(inv[context])), file=sys.stderr)
    print("proxy keywords outside the 4.1 matrix: %s" % ", ".join(extra), file=sys.stderr)

    if args.check:
        with open(args.output, encoding="utf-8") as f:
            same = f.read() == content
        print("up to date" if same else "%s is out of date" % args.output, file=sys.stderr)
        sys.exit(0 if same else 1)
    os.makedirs(os.path.dirname(args.output), exist_ok=True)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(content)


if __name__ == "__main__":
    main()
