#!/usr/bin/env python3
"""Compares the configuration errors of server, default-server and bind options with haproxy's.

Usage: python3 tools/sweep-keyword-errors.py [--list server|default-server|bind|proxy|option|global] [--only REGEX]
                                           [--show-same]

Every keyword that `haproxy -dKcfg` (and `bin/fulcrum -dKcfg`) lists for server and bind lines is written
with no argument, a word that is not a value ("abc"), a negative and a huge number, and a plausible value,
one case per proxy section, at most 40 cases per file (haproxy stops after 50 errors). The same file goes
through `haproxy -c -f` and `bin/fulcrum -c -f`; the script prints the lines that differ, per case, then
the number of differing lines per list. Run it on a packaged build (bin/mvn -q -o package -DskipTests).
A few server-template lines are swept with the server list.
The proxy list takes configuration.txt 4.1's keywords (the inventory, src/main/resources/io/fulcrum/cfg/haproxy-keywords.txt,
without the rule, check, server and bind families), "stats" and "timeout" ones included, in a listen section; the option
list each "option X" as is, with an extra word and negated; the global list chapter 3's keywords, each in a global section.
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

# Proxy and global keywords (configuration.txt 4.1's table and chapter 3, as the keyword inventory lists them), with a
# plausible value each; the families that have their own sweeps or many actions (rules, checks, servers, binds) are left out.
INVENTORY = os.path.join(ROOT, "src", "main", "resources", "io", "fulcrum", "cfg", "haproxy-keywords.txt")
PROXY_SKIP = {"bind", "server", "default-server", "server-template", "option", "timeout", "stats", "no", "http-request",
              "http-response", "http-after-response", "tcp-request", "tcp-response", "http-check", "tcp-check", "default"}
GOOD_PROXY = {
    "acl": "a src 10.0.0.0/8", "backlog": "100", "balance": "roundrobin", "bind-process": "1",
    "capture": "request header Host len 20", "clitcpka-cnt": "3", "clitcpka-idle": "10s", "clitcpka-intvl": "5s",
    "compression": "algo gzip", "cookie": "SRV insert", "declare": "capture request len 10", "default_backend": "other",
    "description": "a proxy", "dispatch": "127.0.0.1:80", "dynamic-cookie-key": "k", "email-alert": "level info",
    "error-log-format": "%ci", "errorfile": "400 /dev/null", "errorfiles": "nosuch", "errorloc": "400 http://example.com/",
    "errorloc302": "400 http://example.com/", "errorloc303": "400 http://example.com/", "external-check": "command /bin/true",
    "filter": "compression", "force-persist": "if TRUE", "fullconn": "100", "hash-balance-factor": "150",
    "hash-type": "consistent", "http-error": "status 400", "http-reuse": "safe", "http-send-name-header": "X-Srv", "id": "10",
    "ignore-persist": "if TRUE", "load-server-state-from-file": "none", "log": "global", "log-format": "%ci",
    "log-format-sd": "[x]", "log-tag": "t", "max-keep-alive-queue": "10", "max-session-srv-conns": "10", "maxconn": "100",
    "mode": "http", "monitor": "fail if FALSE", "monitor-uri": "/m", "persist": "rdp-cookie", "rate-limit": "sessions 10",
    "redirect": "prefix /x", "retries": "3", "retry-on": "conn-failure", "server-state-file-name": "use-backend-name",
    "source": "127.0.0.1", "srvtcpka-cnt": "3", "srvtcpka-idle": "10s", "srvtcpka-intvl": "5s", "stick": "on src",
    "stick-table": "type ip size 1k", "unique-id-format": "%ci", "unique-id-header": "X-Id", "use-fcgi-app": "app",
    "use-server": "s if TRUE", "use_backend": "other", "transparent": "", "disabled": "", "enabled": "",
    "stats admin": "if TRUE", "stats auth": "u:p", "stats enable": "", "stats hide-version": "", "stats http-request": "deny",
    "stats realm": "r", "stats refresh": "5s", "stats scope": ".", "stats show-desc": "d", "stats show-legends": "",
    "stats show-modules": "", "stats show-node": "n", "stats uri": "/s",
}
GOOD_GLOBAL = {
    "ca-base": "/etc/ssl", "crt-base": "/etc/ssl", "chroot": "/", "cpu-map": "1 0", "daemon": "", "default-path": "current",
    "description": "d", "gid": "0", "group": "root", "h1-case-adjust": "content-type Content-Type", "hard-stop-after": "10s",
    "localpeer": "p", "log": "127.0.0.1 local0", "log-send-hostname": "h", "log-tag": "t", "lua-load": "/dev/null",
    "maxconn": "100", "maxconnrate": "100", "maxsessrate": "100", "maxsslconn": "100", "maxsslrate": "100", "maxzlibmem": "10",
    "nbthread": "2", "node": "n", "pidfile": "/tmp/x.pid", "pp2-never-send-local": "", "presetenv": "A b", "resetenv": "",
    "setenv": "A b", "ssl-default-bind-ciphers": "HIGH", "ssl-default-bind-options": "no-sslv3",
    "ssl-default-server-ciphers": "HIGH", "ssl-default-server-options": "no-sslv3", "ssl-server-verify": "none",
    "stats": "socket /tmp/sweep-stats.sock", "uid": "0", "ulimit-n": "1000", "unsetenv": "A", "user": "root",
    "spread-checks": "5", "tune.bufsize": "16384", "tune.maxrewrite": "1024", "tune.http.maxhdr": "100",
    "tune.ssl.default-dh-param": "2048", "tune.ssl.cachesize": "1000", "tune.ssl.lifetime": "300",
    "tune.idletimer": "1000", "thread-groups": "1", "numa-cpu-mapping": "", "busy-polling": "", "quiet": "",
    "zero-warning": "", "external-check": "", "insecure-fork-wanted": "", "insecure-setuid-wanted": "", "noepoll": "",
    "nopoll": "", "nosplice": "", "nogetaddrinfo": "", "noreuseport": "", "strict-limits": "", "set-dumpable": "",
    "master-worker": "", "expose-experimental-directives": "", "h1-case-adjust-file": "/dev/null", "server-state-base": "/tmp",
    "server-state-file": "state", "ssl-engine": "rdrand", "ssl-mode-async": "", "unix-bind": "prefix /tmp",
    "limited-quic": "", "httpclient.ssl.verify": "none", "httpclient.resolvers.prefer": "ipv4",
    "log-send-hostname": "", "grace": "1s", "close-spread-time": "1s", "wurfl-data-file": "/dev/null",
}


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


def inventory(context):
    with open(INVENTORY) as f:
        return [l.split(None, 1)[1].strip() for l in f if l.startswith(context + " ")]


def section_cases(kind):
    """(header, line) pairs for the proxy keywords (in a listen), the options and the global keywords."""
    out = []
    if kind == "proxy":
        words = [k for k in inventory("proxy") if k not in PROXY_SKIP] + ["stats " + k for k in inventory("stats")] \
                + ["timeout " + k for k in inventory("timeout")]
        for kw in words:
            good = GOOD_PROXY.get(kw, "5s" if kw.startswith("timeout ") else "1")
            for v in dict.fromkeys(VALUES + [good]):
                out.append(("listen L", (kw + " " + v).strip()))
    elif kind == "option":
        for kw in inventory("option"):
            for line in ("option " + kw, "option " + kw + " abc", "no option " + kw):
                out.append(("listen L", line))
    else:
        for kw in inventory("global"):
            for v in dict.fromkeys(VALUES + [GOOD_GLOBAL.get(kw, "1")]):
                out.append(("global #", (kw + " " + v).strip()))
    return out


def cases(kind, kws):
    """(header, line) pairs: the proxy section a case lives in and its line."""
    if kind in SECTION_LISTS:
        return section_cases(kind)
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


SECTION_LISTS = ("proxy", "option", "global")

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


def batches(todo, once):
    """Files of at most 40 cases; with once, a keyword at most once per file (global settings add up across sections:
    a second 'ca-base' would be "already specified")."""
    if not once:
        return [todo[i:i + 40] for i in range(0, len(todo), 40)]
    out = []
    for case in todo:
        kw = case[1].split()[0]
        for b in out:
            if len(b) < 40 and all(c[1].split()[0] != kw for c in b):
                b.append(case)
                break
        else:
            out.append([case])
    return out


def unsupported_alike(a, b):
    """haproxy's unknown keyword (a build without it: 51degrees, deviceatlas...) and Fulcrum's refusal of it."""
    return len(a) == len(b) == 1 and "unknown keyword '" in a[0] and "is an HAProxy keyword that Fulcrum does not support" in b[0]


def sweep(kind, kws, only, show_same):
    todo = [c for c in cases(kind, kws) if not only or re.search(only, c[1])]
    differing = 0
    for batch in batches(todo, kind == "global"):
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
            if a != b and not unsupported_alike(a, b):
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
    ap.add_argument("--list", choices=["server", "default-server", "bind"] + list(SECTION_LISTS), action="append")
    ap.add_argument("--only")
    ap.add_argument("--show-same", action="store_true")
    a = ap.parse_args()
    lists = a.list or ["server", "default-server", "bind"] + list(SECTION_LISTS)
    counts = {}
    for kind in lists:
        prefix = "bind <addr>" if kind == "bind" else "server <name> <addr>"
        kws = {}
        if kind not in SECTION_LISTS:
            kws = keywords([HAPROXY], prefix)
            for k, v in keywords([FULCRUM], prefix).items():
                kws.setdefault(k, v)
        counts[kind] = sweep(kind, kws, a.only, a.show_same)
    for kind, n in counts.items():
        print(f"{kind}: {n} differing lines", file=sys.stderr)
    sys.exit(1 if any(counts.values()) else 0)


if __name__ == "__main__":
    main()
