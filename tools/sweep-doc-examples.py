#!/usr/bin/env python3
"""Runs the configuration examples of HAProxy's configuration.txt through `haproxy -c` and `bin/fulcrum -c`.

Usage: python3 tools/sweep-doc-examples.py [--doc configuration.txt] [--only REGEX] [--exit-only] [--keep DIR]

Each "Example:" block of the documentation becomes a configuration: blocks that declare sections are used as
they are (after a defaults section); blocks of chapter 3 go into a global section; the others into a listen
section. Both programs check each file; the script prints, per example, the keyword it documents and the
ALERT/WARNING lines only one of them printed (H- haproxy's, F+ Fulcrum's), then the number of examples whose
exit status differs and whose output differs. Differences made on purpose (KNOWN, and Fulcrum's lines after an http
rule haproxy stopped at) are marked "(known)" and counted apart. Many examples are fragments (a missing ACL or backend, a
certificate that does not exist): what matters is that both say the same thing about them. Run it on a
packaged build (bin/mvn -q -o package -DskipTests).
"""
import argparse
import gzip
import os
import re
import subprocess
import tempfile
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FULCRUM = os.path.join(ROOT, "bin", "fulcrum")
HAPROXY = os.environ.get("HAPROXY", "haproxy")
SECTION = re.compile(r"^(global|defaults|frontend|backend|listen|userlist|peers|resolvers|mailers|cache|"
                     r"http-errors|ring|program|fcgi-app|log-forward)\b")
DEFAULTS = "defaults\n    mode http\n    timeout connect 5s\n    timeout client 5s\n    timeout server 5s\n"


def read_doc(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", errors="replace") as f:
        return f.read().split("\n")


def examples(lines):
    """(keyword, chapter, line number, body lines) of each example block."""
    keyword, chapter, i = None, "0", 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^([0-9]+)\.[0-9.]*\s", line)
        if m:
            chapter = m.group(1)
        elif line and not line[0].isspace() and not line.startswith(("---", "===")):
            keyword = line.strip()
        if keyword and re.match(r"^\s*Examples?\s*:\s*$", line):
            base = len(line) - len(line.lstrip())
            body, j = [], i + 1
            while j < len(lines):
                l = lines[j]
                if not l.strip():
                    k = j
                    while k < len(lines) and not lines[k].strip():
                        k += 1
                    if k < len(lines) and len(lines[k]) - len(lines[k].lstrip()) > base \
                            and not re.match(r"^\s*(See also|Note|Examples?)\b", lines[k]):
                        body.append("")
                        j = k
                        continue
                    break
                if len(l) - len(l.lstrip()) <= base:
                    break
                body.append(l)
                j += 1
            yield keyword, chapter, i + 1, body
            i = j
            continue
        i += 1


def config(chapter, body):
    lines = [l for l in textwrap.dedent("\n".join(body)).split("\n") if not l.strip().startswith(("#", "$"))]
    if not any(l.strip() for l in lines):
        return None
    if any(SECTION.match(l) for l in lines):
        return DEFAULTS + "\n".join(lines) + "\n"
    if chapter == "3":
        return "global\n" + "".join("    %s\n" % l for l in lines)
    return DEFAULTS + "listen L\n    bind 127.0.0.1:20001\n" + "".join("    %s\n" % l for l in lines)


# Differences made on purpose, each with the place that explains it: (side, regex on the line, document).
# A line they match is listed under "known" and does not count.
KNOWN = [
    ("F", r"parsing \[[^]]*\] : Proxy '[^']*': unable to find required (use_backend|default_backend)", "docs/differences.md"),
    ("H", r"^\[ALERT\] : config : Proxy '[^']*': unable to find required (use_backend|default_backend)", "docs/differences.md"),
    ("F", r"'source' : 'usesrc' is not supported by Fulcrum", "docs/differences.md (Server connection pools)"),
    ("H", r"Configuration file has no error but will not start", "usesrc, see above"),
    ("F", r"'backend [^']*' expects 'from' and a defaults section name", "docs/differences.md"),
]


def aborted(out):
    """HAProxy stopped reading at an unparsable http rule (ERR_ABORT): "Error(s) found" without "Fatal errors found"."""
    return any("Error(s) found" in l for l in out) and not any("Fatal errors found" in l for l in out)


def known(side, line, h_out):
    if any(s == side and re.search(r, line) for s, r, _ in KNOWN):
        return True
    if side == "F" and aborted(h_out):
        # Fulcrum reads on where haproxy stopped (docs/differences.md): its lines after haproxy's last one are extra.
        last = max([int(n) for l in h_out for n in re.findall(r"\.cfg:(\d+)\]", l)] or [0])
        m = re.search(r"\.cfg:(\d+)\]", line)
        return (int(m.group(1)) > last) if m else "Fatal errors found" in line or "Error(s) found" in line
    return False


def check(program, path):
    p = subprocess.run([program, "-c", "-f", path], capture_output=True, text=True, errors="replace")
    out = [re.sub(r"\s+", " ", re.sub(r"\(\d+\)", "", l)).strip() for l in (p.stdout + p.stderr).split("\n")]
    return p.returncode, [l for l in out if l and "version is" not in l and "path to executable" not in l]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--doc", default="/usr/share/doc/haproxy/configuration.txt.gz")
    ap.add_argument("--only", help="a regex on the documented keyword")
    ap.add_argument("--exit-only", action="store_true", help="report the exit statuses that differ only")
    ap.add_argument("--keep", metavar="DIR", help="write the example files there (kept) instead of a temporary directory")
    args = ap.parse_args()
    exits = outputs = total = explained = 0
    with tempfile.TemporaryDirectory() as scratch:
        tmp = args.keep or scratch
        os.makedirs(tmp, exist_ok=True)
        for n, (keyword, chapter, line, body) in enumerate(examples(read_doc(args.doc))):
            if args.only and not re.search(args.only, keyword):
                continue
            cfg = config(chapter, body)
            if cfg is None:
                continue
            total += 1
            path = os.path.join(tmp, "example-%03d.cfg" % n)
            with open(path, "w") as f:
                f.write(cfg)
            h_exit, h = check(HAPROXY, path)
            f_exit, f = check(FULCRUM, path)
            only_h = [l for l in h if l not in f]
            only_f = [l for l in f if l not in h]
            unexplained = [l for l in only_h if not known("H", l, h)] + [l for l in only_f if not known("F", l, h)]
            # the same lines in another order differ too
            if h != f and not only_h and not only_f:
                unexplained = ["(same lines, another order)"]
            exits += h_exit != f_exit
            outputs += bool(unexplained)
            explained += h != f and not unexplained
            if h_exit != f_exit or (unexplained and not args.exit_only):
                print("===== %s (documentation line %d) exit %d %d" % (keyword, line, h_exit, f_exit))
                for side, lines in (("H-", only_h), ("F+", only_f)):
                    for l in lines:
                        print("  %s %s%s" % (side, l, "   (known)" if known(side[0], l, h) else ""))
                if h != f and not only_h and not only_f:
                    print("  (same lines, another order)")
    print("%d examples, %d with another exit status, %d with other output (and %d whose differences are all known)"
          % (total, exits, outputs, explained))


if __name__ == "__main__":
    main()
