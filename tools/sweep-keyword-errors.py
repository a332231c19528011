#!/usr/bin/env python3
"""Compares the configuration errors of server, default-server and bind options with haproxy's.

Usage: python3 tools/sweep-keyword-errors.py [--list server|default-server|bind] [--only REGEX] [--show-same]

Every keyword that `haproxy -dKcfg` (and `bin/fulcrum -dKcfg`) lists for server and bind lines is written
with no argument, a word that is not a value ("abc"), a negative and a huge number, and a plausible value,
one case per proxy section, at most 40 cases per file (haproxy stops after 50 errors). The same file goes
through `haproxy -c -f` and `bin/fulcrum -c -f`; the script prints the lines that differ, per case, then
the number of differing lines per list. Run it on a packaged build (bin/mvn -q -o package -DskipTests).
A few server-template lines are swept with the server list.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FULCRUM = os.path.join(ROOT, "bin", "fulcrum")
HAPROXY = os.environ.get("HAPROXY", "haproxy")

# A plausible value per keyword (else "1"), so that the good case passes in haproxy.
GOOD = {
    "addr": "127.0.0.2", "agent-addr": "127.0.0.2", "agent-inter": "2s", "agent-port": "9999",
    "agent-send": "hello", "alpn": "h2,http/1.1", "ca-file": "/etc/ssl/certs/ca-certificates.crt",
    "check-alpn": "http/1.1", "check-proto": "h1", "check-sni": "example.com", "ciphers": "HIGH",
    "ciphersuites": "TLS_AES_128_GCM_SHA256", "cookie": "c1", "crl-file": "/dev/null", "crt": "/dev/null",
    "downinter": "2s", "error-limit": "5", "fall": "3", "fastinter": "1s", "id": "7", "init-addr": "last,libc",
    "inter": "2s", "log-proto": "legacy", "max-reuse": "10", "maxconn": "100", "maxqueue": "10", "minconn": "5",
    "namespace": "ns1", "npn": "http/1.1", "observe": "layer4", "on-error": "mark-down",
    "on-marked-down": "shutdown-sessions", "on-marked-up": "shutdown-backup-sessions", "pool-low-conn": "2",
    "pool-max-conn": "10", "pool-purge-delay": "5s", "port": "8080", "proto": "h1", "proxy-v2-options": "ssl",
    "redir": "http://example.com", "resolve-net": "10.0.0.0/8", "resolve-opts": "allow-dup-ip",
    "resolve-prefer": "ipv4", "resolvers": "dns", "rise": "2", "slowstart": "10s", "sni": "str(example.com)",
    "socks4": "127.0.0.1:1080", "source": "127.0.0.1", "ssl-max-ver": "TLSv1.3", "ssl-min-ver": "TLSv1.2",
    "tcp-ut": "10s", "track": "other/s", "verify": "none", "verifyhost": "example.com", "weight": "10",
    "ws": "auto", "usesrc": "client",
    # bind
    "accept-netscaler-cip": "1234", "backlog": "100", "expose-fd": "listeners", "gid": "0", "group": "root",
    "interface": "lo", "level": "admin", "maxaccept": "10", "mode": "600", "mss": "1400", "name": "l1",
    "nice": "10", "process": "1", "severity-output": "string", "thread": "1", "uid": "0", "user": "root",
    "curves": "prime256v1", "ecdhe": "prime256v1", "ca-ignore-err": "all", "crt-ignore-err": "all",
    "ca-verify-file": "/etc/ssl/certs/ca-certificates.crt", "ca-sign-file": "/dev/null", "ca-sign-pass": "x",
    "crt-list": "/dev/null", "sigalgs": "RSA+SHA256", "client-sigalgs": "RSA+SHA256", "tls-ticket-keys": "/dev/null",
    "shards": "1", "label": "x", "quic-cc-algo": "cubic", "defer-accept": "", "proto": "h1",
}
VALUES = ["", "abc", "-1", "99999999999"]


def keywords(cmd, prefix):
    try:
        out = subprocess.run(cmd + ["-dKcfg", "-q", "-c", "-f", "/dev/null"], capture_output=True, text=True,
                             timeout=120).stdout
    except (OSError, subprocess.TimeoutExpired):
        return {}
    found = {}
    for line in out.splitlines():
        m = re.match(r"\t" + re.escape(prefix) + r" (\S+)(?: ([+-]\d+))?", line)
        if m:
            found[m.group(1)] = m.group(2) is not None
    return found


def cases(kind, kws):
    """(header, line) pairs: the proxy section a case lives in and its line."""
    out = []
    for kw in sorted(kws):
        takes_value = kws[kw]
        values = VALUES + [GOOD.get(kw, "1")] if takes_value else [""]
        for v in dict.fromkeys(values):
            words = (kw + " " + v).strip()
            if kind == "server":
                out.append(("backend L", "server s 127.0.0.1:80 " + words))
            elif kind == "default-server":
                out.append(("backend L", "default-server " + words))
            else:
                out.append(("frontend L", "bind 127.0.0.1:8080 " + words))
    if kind == "server":
        for t in ["server-template t 2 127.0.0.1:80 weight", "server-template t 2 127.0.0.1:80 zz",
                  "server-template t 2 127.0.0.1:80 weight 300", "server-template t 2 127.0.0.1:80 inter",
                  "server-template t 0 127.0.0.1:80", "server-template t", "server s", "server s 127.0.0.1:99999",
                  "server s 127.0.0.1:80 zz", "server s 127.0.0.1:80 weighs 1", "default-server zz",
                  "default-server weighs 1", "server s abc:80:90"]:
            out.append(("backend L", t))
    return out


HEAD = """global
    log stderr local0
defaults
    mode http
    timeout connect 1s
    timeout client 1s
    timeout server 1s
resolvers dns
    nameserver n1 127.0.0.1:53
backend other
    server s 127.0.0.1:80 check
"""


def run(cmd, path):
    try:
        p = subprocess.run(cmd + ["-c", "-f", path], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return ["TIMEOUT"]
    lines = []
    for line in (p.stdout + p.stderr).splitlines():
        line = re.sub(r"^\[(\w+)\]\s+\(\d+\) : ", r"[\1] ", line)
        if "version is" in line or "path to executable" in line or "Fatal errors found" in line or "fatal errors" in line \
                or "Error(s) found in configuration" in line:
            continue
        lines.append(line)
    return lines


def by_line(lines, path):
    """Output lines grouped by the config line they name ([FILE:LINE]), 0 for the others."""
    groups = {}
    for line in lines:
        m = re.search(re.escape(path) + r":(\d+)\]", line)
        groups.setdefault(int(m.group(1)) if m else 0, []).append(re.sub(r"\bL\d+\b", "L", line.replace(path, "F")))
    return groups


def sweep(kind, kws, only, show_same):
    todo = [c for c in cases(kind, kws) if not only or re.search(only, c[1])]
    differing = 0
    for start in range(0, len(todo), 40):
        batch = todo[start:start + 40]
        text, where = HEAD, {}
        for i, (header, line) in enumerate(batch):
            # each case has its own section (L0, L1... shown as L), so that no line depends on another
            text += header + str(i) + "\n"
            where[text.count("\n") + 1] = line
            text += "    " + line + "\n"
        with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as f:
            f.write(text)
            path = f.name
        try:
            h = by_line(run([HAPROXY], path), path)
            u = by_line(run([FULCRUM], path), path)
        finally:
            os.unlink(path)
        for n in sorted(set(h) | set(u)):
            a, b = h.get(n, []), u.get(n, [])
            if n == 0:
                continue  # file-wide lines (duplicate proxy names...) are not the subject
            if a != b:
                differing += max(len(a), len(b))
                print(f"--- {kind}: {where.get(n, '?')}")
                for x in a:
                    if x not in b:
                        print("  haproxy: " + x)
                for x in b:
                    if x not in a:
                        print("  fulcrum: " + x)
            elif show_same and a:
                print(f"=== {kind}: {where.get(n, '?')}\n  " + "\n  ".join(a))
    return differing


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--list", choices=["server", "default-server", "bind"], action="append")
    ap.add_argument("--only")
    ap.add_argument("--show-same", action="store_true")
    a = ap.parse_args()
    lists = a.list or ["server", "default-server", "bind"]
    counts = {}
    for kind in lists:
        prefix = "bind <addr>" if kind == "bind" else "server <name> <addr>"
        kws = keywords([HAPROXY], prefix)
        for k, v in keywords([FULCRUM], prefix).items():
            kws.setdefault(k, v)
        counts[kind] = sweep(kind, kws, a.only, a.show_same)
    for kind, n in counts.items():
        print(f"{kind}: {n} differing lines", file=sys.stderr)
    sys.exit(1 if any(counts.values()) else 0)


if __name__ == "__main__":
    main()
