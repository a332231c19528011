#!/usr/bin/env python3
"""Differential sweep of the runtime CLI: the same commands to Fulcrum and the real haproxy, answers compared.

Both proxies run one rich configuration (frontends in http and tcp mode, a backend whose servers are up, down on a
refused port, disabled, backup, tracking another, with health checks and an agent; a stick table with entries, a map
and an ACL file, a userlist, a peers section, a ring, resolvers), each with its own admin stats socket. A small origin
server of this script serves both, and a few requests (one of them invalid, for `show errors`) go through each so
that counters move. Then each case's command lines are sent to both, each line on a new connection as
`echo "<line>" | socat - <socket>` sends it (a case whose line starts with `prompt` is one interactive session), in
the same order, so that a command changing a proxy's state (set server, clear counters, add map...) changes both.

Each answer is normalized before it is compared: the instances' socket paths and ports, addresses of objects
(`0x...`), dates, pids, uptimes, memory sizes; `show info` and `show stat` keep their field names and order but
mask the values that move on their own (rates, timers, byte counts); the commands whose fields are meant for
developers (`show pools`, `show activity`, `show fd`, `show threads`, `show sess`) are compared by shape (the
names of their fields, digits masked); a check's result where a check may be running in one proxy at that moment.

Usage: tools/cli-diff.py [--only REGEX] [--port 14500] [--haproxy /usr/sbin/haproxy] [--fulcrum bin/fulcrum] [-v]
Differences listed in KNOWN (on purpose, documented) print as "known" (-v: in full); the exit status is 1 when
another one is found. The packaged jar must exist (bin/mvn -q -o package -DskipTests). Ports: --port .. --port+29.
A difference Fulcrum makes on purpose is listed in docs/differences.md or docs/cli.md.
"""
import argparse
import http.server
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time

from proxyrun import cli, stop, wait_listening

HERE = os.path.dirname(os.path.abspath(__file__))
HOME = os.path.dirname(HERE)

CONFIG = """global
    stats socket {sock} level admin
    stats timeout 10s
    localpeer local
    setenv CLIDIFF_SET configured
defaults
    mode http
    timeout connect 2s
    timeout client 5s
    timeout server 5s
userlist users
    user admin insecure-password secret
peers pr
    peer local 127.0.0.1:{peer}
ring events
    description "a ring of the sweep"
    format raw
    maxlen 1200
    size 32768
resolvers dns
    nameserver ns1 127.0.0.1:{dns}
    hold valid 10s
frontend fe_main
    bind 127.0.0.1:{fe} name main
    log ring@events local0
    option httplog
    http-request track-sc0 src table st_src
    http-request deny if {{ path_beg -f {dir}/blocked.acl }}
    http-request set-header X-Tag %[path,map_beg({dir}/tags.map,none)]
    default_backend be_app
frontend fe_tcp
    mode tcp
    bind 127.0.0.1:{fe_tcp}
    default_backend be_tcp
backend st_src
    stick-table type ip size 100 expire 10m store gpc0,conn_cnt,http_req_cnt,http_req_rate(10s)
backend st_str
    stick-table type string len 32 size 10 expire 10m store gpc0,server_id
backend be_app
    balance roundrobin
    option httpchk GET /health
    default-server inter 3s fall 1 rise 1
    server up1 127.0.0.1:{origin} check
    server down1 127.0.0.1:{refused} check
    server dis1 127.0.0.1:{origin} check disabled
    server bk1 127.0.0.1:{origin} check backup
    server tr1 127.0.0.1:{origin} track be_app/up1
    server ag1 127.0.0.1:{origin} check agent-check agent-port {agent} agent-inter 3s
    server nochk 127.0.0.1:{origin} maxconn 20
backend be_tcp
    mode tcp
    server t1 127.0.0.1:{origin}
backend be_dns
    server d1 cli-diff.invalid:80 resolvers dns init-addr none
"""

# -- the cases: (name, [lines], normalizer); each line is one connection. -----------------------------------------


def case(name, *lines, norm=None):
    return dict(name=name, lines=list(lines), norm=norm or "text")


CASES = [
    case("help", "help"),
    case("help-words", "help show", "help set server", "help nosuch"),
    case("unknown", "foo", "show foo", "set foo bar", "shw stat"),
    case("chain", "show cli level;user;show cli level;operator"),
    case("chain-errors", "show table nosuch;show cli level"),
    case("prompt", "prompt\nshow cli level\nfoo\nquit\nshow cli level"),
    case("levels", "user;show servers state", "operator;clear counters all", "user;set maxconn global 100",
         norm="state"),
    case("show-info", "show info", norm="info"),
    case("show-info-typed", "show info typed", norm="info"),
    case("show-info-json", "show info json", norm="json"),
    case("show-info-desc", "show info desc", norm="info"),
    case("show-info-bad", "show info foo", norm="info"),
    case("show-version", "show version", norm="version"),
    case("show-stat", "show stat", norm="stat"),
    case("show-stat-typed", "show stat typed", norm="stat"),
    case("show-stat-json", "show stat json", norm="json"),
    case("show-stat-desc", "show stat desc", norm="stat"),
    case("show-stat-typed-desc", "show stat typed desc", norm="stat"),
    case("show-stat-up", "show stat up", norm="stat"),
    case("show-stat-no-maint", "show stat no-maint", norm="stat"),
    case("show-stat-filters", "show stat -1 2 -1", "show stat -1 4 -1", "show stat be_app 4 -1",
         "show stat be_app -1 2", "show stat 4 -1 -1", "show stat nosuch -1 -1", "show stat be_app 2",
         "show stat -1 1 -1", norm="stat"),
    case("show-stat-sid", "show stat be_app 4 3", "show stat be_app -1 1", norm="stat"),
    case("show-schema", "show schema json", norm="json"),
    case("servers-state", "show servers state", norm="state"),
    case("servers-state-be", "show servers state be_app", "show servers state nosuch", norm="state"),
    case("servers-conn", "show servers conn", "show servers conn be_app", "show servers conn nosuch"),
    case("show-backend", "show backend"),
    case("show-table", "show table"),
    case("show-table-entries", "show table st_src", norm="table"),
    case("show-table-filters", "show table st_src data.http_req_cnt gt 0", "show table st_src data.gpc0 eq 0",
         "show table st_src key 127.0.0.1", "show table st_src key 10.0.0.1",
         "show table st_src data.nosuch gt 0", "show table st_src data.gpc0 xx 0", "show table st_src data.gpc0 gt",
         "show table st_src key", "show table nosuch", norm="table"),
    case("set-table", "set table st_src key 10.0.0.1 data.gpc0 5", "set table st_src key 10.0.0.2 data.gpc0 7",
         "show table st_src data.gpc0 gt 1", "set table st_src key 10.0.0.3 data.nosuch 1",
         "set table st_src key nothex data.gpc0 1", "set table st_src data.gpc0 1", "set table st_src key",
         "set table nosuch key 1 data.gpc0 1", "set table st_str key abc data.gpc0 3",
         "set table st_str key abc data.server_id 1", "show table st_str", norm="table"),
    case("clear-table", "clear table st_src key 10.0.0.1", "clear table st_src data.gpc0 eq 7",
         "show table st_src data.gpc0 gt 1", "clear table st_str", "show table st_str", "clear table nosuch",
         norm="table"),
    case("show-map", "show map", norm="pattern"),
    case("show-map-file", "show map {dir}/tags.map", "show map #-1", "show map nosuch", norm="pattern"),
    case("get-map", "get map {dir}/tags.map /img/x", "get map {dir}/tags.map /zzz", "get map nosuch x",
         "get map {dir}/tags.map", norm="pattern"),
    case("add-map", "add map {dir}/tags.map /new new", "add map {dir}/tags.map /nov", "add map nosuch a b",
         "get map {dir}/tags.map /new", "show map {dir}/tags.map", norm="pattern"),
    case("set-del-map", "set map {dir}/tags.map /new newer", "set map {dir}/tags.map /none x",
         "del map {dir}/tags.map /new", "del map {dir}/tags.map /new", "del map {dir}/tags.map #0x1",
         "show map {dir}/tags.map", norm="pattern"),
    case("prepare-map", "prepare map {dir}/tags.map", "add map @1 {dir}/tags.map /v1 one",
         "show map @1 {dir}/tags.map", "commit map @1 {dir}/tags.map", "show map {dir}/tags.map",
         "prepare map {dir}/tags.map", "abort map @2 {dir}/tags.map", "commit map @9 {dir}/tags.map",
         "prepare map nosuch", norm="pattern"),
    case("clear-map", "clear map {dir}/tags.map", "show map {dir}/tags.map", "clear map nosuch",
         norm="pattern"),
    case("show-acl", "show acl", norm="pattern"),
    case("acl-commands", "show acl {dir}/blocked.acl", "get acl {dir}/blocked.acl /blocked/x",
         "add acl {dir}/blocked.acl /more", "del acl {dir}/blocked.acl /more", "del acl {dir}/blocked.acl /more",
         "add acl {dir}/tags.map /x", "prepare acl {dir}/blocked.acl", "add acl @1 {dir}/blocked.acl /v",
         "commit acl @1 {dir}/blocked.acl", "show acl {dir}/blocked.acl", "clear acl {dir}/blocked.acl",
         "show acl {dir}/blocked.acl", "get acl nosuch x", norm="pattern"),
    case("set-server-state", "set server be_app/nochk state drain", "set server be_app/nochk state maint",
         "set server be_app/nochk state ready", "set server be_app/nochk state foo", "set server be_app/nosuch state ready",
         "set server nosuch/x state ready", "set server be_app state ready", norm="state"),
    case("set-server-weight", "set server be_app/nochk weight 50", "get weight be_app/nochk",
         "set weight be_app/nochk 50%", "get weight be_app/nochk", "set server be_app/nochk weight 300",
         "set server be_app/nochk weight x", "get weight be_app/nosuch", "set server be_app/nochk weight"),
    case("set-server-addr", "set server be_app/nochk addr 127.0.0.2", "set server be_app/nochk addr 127.0.0.1 port {origin}",
         "set server be_app/nochk addr foo", "set server be_app/nochk addr", "set server be_app/nochk addr 127.0.0.1 port x",
         "show servers state be_app", norm="state"),
    case("set-server-agent", "set server be_app/ag1 agent down", "set server be_app/ag1 agent up",
         "set server be_app/up1 agent up", "set server be_app/ag1 agent foo", "set server be_app/ag1 agent-send hello",
         "set server be_app/up1 agent-send x", "set server be_app/ag1 agent-addr 127.0.0.1",
         "set server be_app/ag1 agent-port {agent}", "set server be_app/ag1 agent-port x"),
    case("set-server-health", "set server be_app/nochk health down", "set server be_app/nochk health up",
         "set server be_app/tr1 health down", "set server be_app/nochk health stopping", "set server be_app/nochk health up",
         "set server be_app/nochk health x"),
    case("set-server-check-port", "set server be_app/up1 check-port {origin}", "set server be_app/up1 check-port 70000",
         "set server be_app/nochk check-port 80", "set server be_app/up1 check-port x",
         "set server be_app/up1 check-addr 127.0.0.1", "set server be_app/up1 check-addr x"),
    case("set-maxconn-server", "set maxconn server be_app/nochk 10", "set maxconn server be_app/nochk x",
         "set maxconn server be_app/nosuch 10", "set maxconn server be_app/nochk"),
    case("set-server-fqdn", "set server be_dns/d1 fqdn other.invalid", "set server be_app/nochk fqdn a.invalid",
         "set server be_dns/d1 fqdn"),
    case("set-server-bad", "set server be_app/nochk", "set server be_app/nochk foo bar"),
    case("enable-disable-server", "disable server be_app/nochk", "disable server be_app/nochk",
         "enable server be_app/nochk", "enable server be_app/nosuch", "disable server nosuch", norm="state"),
    case("enable-disable-health", "disable health be_app/up1", "enable health be_app/up1",
         "disable health be_app/nochk", "enable health be_app/nochk", "disable agent be_app/ag1",
         "enable agent be_app/ag1", "enable agent be_app/up1", "disable agent be_app/nosuch"),
    case("enable-disable-frontend", "disable frontend fe_tcp", "disable frontend fe_tcp", "enable frontend fe_tcp",
         "enable frontend fe_tcp", "disable frontend nosuch", "disable frontend be_tcp", "enable frontend"),
    case("enable-disable-backend", "disable backend be_tcp", "enable backend be_tcp", "disable backend nosuch"),
    case("set-maxconn-frontend", "set maxconn frontend fe_tcp 100", "set maxconn frontend fe_tcp x",
         "set maxconn frontend nosuch 1", "set maxconn frontend fe_tcp"),
    case("set-maxconn-global", "set maxconn global 1000", "set maxconn global 99999999",
         "set maxconn global x", "set maxconn global", "set maxconn foo 1"),
    case("set-rate-limit", "set rate-limit connections global 100", "set rate-limit connections global 0",
         "set rate-limit sessions global 100", "set rate-limit sessions global 0",
         "set rate-limit ssl-sessions global 0", "set rate-limit http-compression global 0",
         "set rate-limit connections global", "set rate-limit foo global 1", "set rate-limit connections x 1"),
    case("show-errors", "show errors", "show errors fe_main", "show errors fe_main request",
         "show errors nosuch", "show errors -1 response", norm="errors"),
    case("clear-counters", "clear counters", "clear counters all", "show stat", norm="stat"),
    case("show-sess", "show sess", norm="shape"),
    case("show-sess-bad", "show sess 0x1", "show sess foo"),
    case("show-env", "show env CLIDIFF_SET", "show env CLIDIFF_RUN", "show env nosuch", "show env HAPROXY_LOCALPEER"),
    case("show-events", "show events", norm="events"),
    case("show-events-ring", "show events events", "show events nosuch", "show events events -x", norm="events"),
    case("show-startup-logs", "show startup-logs"),
    case("show-pools", "show pools", norm="shape"),
    case("show-activity", "show activity", norm="shape"),
    case("show-fd", "show fd", norm="shape"),
    case("show-threads", "show threads", norm="shape"),
    case("show-cli", "show cli level", "show cli sockets", norm="text"),
    case("modes", "expert-mode", "expert-mode on", "expert-mode", "expert-mode off", "experimental-mode on",
         "experimental-mode", "experimental-mode foo", "expert-mode on;expert-mode off;expert-mode"),
    case("set-severity", "set severity-output number;show table nosuch;foo",
         "set severity-output string;set server x/y state ready"),
    case("set-timeout", "set timeout cli 5", "set timeout cli x", "set timeout foo 5"),
    case("get-var", "get var proc.nosuch", "get var txn.x", "get var"),
    case("show-resolvers", "show resolvers nosuch", "show resolvers", norm="resolvers"),
    case("show-peers", "show peers", norm="peers"),
    case("escapes", "show env\\ CLIDIFF_SET", "show\\ cli level", "show cli level;;show cli level"),
    case("show-info-float", "show info float", "show info typed float", norm="info"),
    case("show-table-two-filters", "show table st_src data.gpc0 ge 0 data.http_req_cnt ge 0",
         "show table st_src data.gpc0 ge 0 data.gpc0 ge 0 data.gpc0 ge 0 data.gpc0 ge 0 data.gpc0 ge 0", norm="table"),
    case("dynamic-cookie", "enable dynamic-cookie backend be_app", "set dynamic-cookie-key backend be_app k",
         "enable dynamic-cookie backend be_app", "disable dynamic-cookie backend be_app",
         "enable dynamic-cookie backend nosuch", "set dynamic-cookie-key backend be_app"),
    case("add-del-server", "add server be_app/dyn 127.0.0.1:{origin}", "add server be_app/dyn 127.0.0.1:{origin}",
         "add server be_tcp/dyn 127.0.0.1:{origin} weight 5", "show servers state be_tcp", "del server be_tcp/dyn",
         "disable server be_tcp/dyn", "del server be_tcp/dyn", "del server be_tcp/dyn", "add server be_app/x",
         "add server nosuch/x 127.0.0.1:1", "add server be_tcp/y 127.0.0.1:1 foo", norm="state"),
    case("show-ssl", "show ssl cert", "show ssl crt-list", "show ssl ca-file", "show ssl cert nosuch"),
    case("show-cli-sockets-levels", "operator;show cli level", "user;show servers conn"),
    case("get-weight", "get weight be_app/up1", "get weight be_app/dis1", "get weight nosuch/x", "get weight be_app"),
    case("shutdown", "shutdown session 0x1", "shutdown sessions server be_app/nosuch", "shutdown frontend nosuch",
         "shutdown frontend fe_tcp", "show stat fe_tcp -1 -1", norm="stat"),
]

# Differences made on purpose or known, and where they are explained: reported as "known", not as DIFF.
DIFF = "docs/differences.md "
CLI = "docs/cli.md "
NO_TRACE = DIFF + "(Runtime CLI: no trace, show trace nor show ssl providers: help and the suggestions lack them)"
KNOWN = {
    "help": NO_TRACE, "help-words": NO_TRACE, "unknown": NO_TRACE, "prompt": NO_TRACE, "set-severity": NO_TRACE,
    "escapes": NO_TRACE + "; (Runtime CLI: the suggestions for a word with an escaped space)",
    "show-info": CLI + "show info (ZlibMemUsage, MaxZlibMemUsage: HAProxy's zlib build)",
    "show-info-typed": CLI + "show info (ZlibMemUsage, MaxZlibMemUsage)",
    "show-info-json": CLI + "show info (ZlibMemUsage, MaxZlibMemUsage)",
    "show-info-desc": CLI + "show info (ZlibMemUsage, MaxZlibMemUsage)",
    "show-info-bad": CLI + "show info (ZlibMemUsage, MaxZlibMemUsage)",
    "show-info-float": CLI + "show info (ZlibMemUsage, MaxZlibMemUsage)",
    "show-ssl": DIFF + "(TLS: show ssl ca-file lists @system-ca only when a ca-file uses it)",
    "show-cli-sockets-levels": DIFF + "(Server connection pools: health checks' connections are not counted)",
    "servers-conn": DIFF + "(Server connection pools: health checks' connections are not counted)",
    "show-acl": DIFF + "(Maps and ACLs on the CLI: HAProxy's httpclient ACLs)",
    "show-errors": DIFF + "(Runtime CLI: sessions and errors: no H1 flags lines, wraps at)",
    "show-sess-bad": DIFF + "(Runtime CLI: sessions and errors: internal flags read 0)",
    "show-fd": DIFF + "(Runtime CLI: threads, activity...: show fd, evts)",
    "show-threads": DIFF + "(Runtime CLI: threads, activity...: no curr_task details)",
}

# -- normalization ------------------------------------------------------------------------------------------------

# show info fields whose values move by themselves, or are the program's own
INFO_VARY = {
    "Name", "Version", "Release_date", "Pid", "Uptime", "Uptime_sec", "Memmax_MB", "Memmax_bytes", "PoolAlloc_MB",
    "PoolUsed_MB", "PoolFailed", "Ulimit-n", "Maxsock", "Idle_pct", "node", "Tasks", "Run_queue", "CumReq",
    "CumConns", "BytesOutRate", "TotalBytesOut", "Start_time", "Start_time_sec", "Stopping", "Jobs",
    "Unstoppable Jobs", "Listeners", "CurrConns", "ConnRate", "MaxConnRate", "SessRate", "MaxSessRate",
    "build_info", "Tainted", "Total_dropped_logs", "CumRecvLogs", "Busy_polling", "FailedResolutions",
    "Process_num", "Nbthread", "description", "Build info", "PoolAlloc_bytes", "PoolUsed_bytes",
}
# show stat fields that a check starting clears (HAProxy's HCHK_STATUS_START): empty in one proxy at that moment
STAT_CLEARED = {"last_chk", "last_agt"}
# show stat fields whose values move by themselves (timers, rates, bytes, dates)
STAT_VARY = {
    "pid", "iid", "sid", "lastchg", "downtime", "check_duration", "last_chk", "last_agt", "agent_duration", "qtime",
    "ctime", "rtime", "ttime", "qtime_max", "ctime_max", "rtime_max", "ttime_max", "rate", "rate_max", "req_rate",
    "req_rate_max", "conn_rate", "conn_rate_max", "lastsess", "bin", "bout", "h1_bytes_in", "h1_bytes_out",
    "check_status", "check_code", "agent_status", "agent_code", "agent_desc", "check_desc", "chkfail", "chkdown",
    "lbtot", "stot", "cli_abrt", "srv_abrt", "eresp", "econ", "cumreq", "req_tot", "conn_tot", "hrsp_2xx",
    "hrsp_4xx", "hrsp_other", "h1_open_streams", "h1_total_streams", "h1_open_connections", "h1_total_connections",
    "idle_conn_cur", "safe_conn_cur", "used_conn_cur", "need_conn_est", "srv_icur", "smax", "scur", "qcur", "qmax",
    "h1_h1_open_connections",
}


def common(text, inst):
    text = text.replace(inst.dir, "DIR")
    for port, name in inst.ports.items():
        text = re.sub(r"(?<![0-9])%d(?![0-9])" % port, name, text)
    text = re.sub(r"0x[0-9a-fA-F]{4,}", "0xADDR", text)
    text = re.sub(r"\[\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d(\.\d{3})?\]", "[DATE]", text)
    text = re.sub(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?", "DATE", text)
    return text


def norm_info(text):
    out = []
    for line in text.split("\n"):
        m = re.match(r"^(\d+\.)?([A-Za-z_-][^:.]*?)(\.\d+)?(:.*?:.*?:|: )(.*)$", line)
        if m and m.group(2) in INFO_VARY:
            line = line[:m.start(5)] + "*"
        out.append(line)
    return "\n".join(out)


def norm_stat(text):
    out, header = [], None
    for line in text.split("\n"):
        if line.startswith("# pxname,"):
            header = line[2:].split(",")
        elif header and "," in line and not re.match(r"^[A-Z]\.", line):
            vals = line.split(",")
            line = ",".join("*" if i < len(header) and (header[i] in STAT_VARY and v or header[i] in STAT_CLEARED) else v
                            for i, v in enumerate(vals))
        else:
            m = re.match(r"^([A-Z]\.\d+\.\d+\.\d+\.)([a-z0-9_]+)(\.\d+:[^:]*:[^:]*:)(.*)$", line)
            if m and m.group(2) in STAT_VARY:
                line = m.group(1) + m.group(2) + m.group(3) + "*"
        out.append(line)
    return "\n".join(out)


def norm_json(text):
    try:
        doc = json.loads(text)
    except ValueError:
        return text

    def walk(o):
        if isinstance(o, dict):
            name = o.get("field", {}).get("name") if isinstance(o.get("field"), dict) else None
            if isinstance(name, str) and (name in STAT_VARY or name in INFO_VARY):
                o = dict(o, value="*")
            return {k: walk(v) for k, v in o.items()}
        if isinstance(o, list):
            return [walk(v) for v in o]
        return o
    return json.dumps(walk(doc), indent=1, sort_keys=True)


def norm_state(text):
    """show servers state: srv_time_since_last_change; a check's result, and its running bit (a check may be
    running in one proxy and not in the other at that moment)."""
    out = []
    for line in text.split("\n"):
        f = line.split(" ")
        if len(f) > 20 and f[0].isdigit():
            f[9] = "*"
            if f[13].isdigit() and int(f[13]) & 1:
                f[11], f[13] = "*", str(int(f[13]) & ~1)
            elif f[13] != "0":
                f[11] = "*"
        out.append(" ".join(f))
    return "\n".join(out)


def norm_table(text):
    return re.sub(r"\bexp=\d+", "exp=*", re.sub(r"(conn_rate|http_req_rate)\((\d+)\)=\d+", r"\1(\2)=*", text))


def norm_pattern(text):
    return text


def norm_errors(text):
    text = re.sub(r"127\.0\.0\.1:\d+", "CLIENT", text)
    return re.sub(r"event #\d+", "event #N", text)


def norm_shape(text):
    """The names a developer's dump is made of: per line, its words before '=' or ':', digits masked; distinct."""
    shapes = set()
    for line in text.split("\n"):
        keys = re.findall(r"([A-Za-z_][A-Za-z_.\[\]]*)\s*[=:]", line)
        if keys:
            shapes.add(" ".join(keys))
    return "\n".join(sorted(shapes))


def norm_version(text):
    return re.sub(r"^[^\n]*", "VERSION", text, count=1)


def norm_events(text):
    """Digits masked; the lines sorted (a stream's log line comes when it ends, which a proxy may do later)."""
    return "\n".join(sorted(re.sub(r"\d+", "N", text).split("\n")))


def norm_resolvers(text):
    return re.sub(r": \d+", ": N", text)


def norm_peers(text):
    return re.sub(r"=\S*\d\S*", "=N", text)


NORMS = dict(text=lambda t: t, info=norm_info, stat=norm_stat, json=norm_json, state=norm_state, table=norm_table,
             pattern=norm_pattern, errors=norm_errors, shape=norm_shape, version=norm_version, events=norm_events,
             resolvers=norm_resolvers, peers=norm_peers)

# -- the test bed -------------------------------------------------------------------------------------------------


class Origin(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


class OriginServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # (a health check closes as soon as it has the status line)


def agent(sock):
    while True:
        c, _ = sock.accept()
        try:
            c.sendall(b"up 100%\n")
        finally:
            c.close()


class Proxy:
    def __init__(self, name, cmd, base, shared, tmp):
        self.name = name
        self.dir = os.path.join(tmp, name)
        os.mkdir(self.dir)
        self.sock = os.path.join(self.dir, "admin.sock")
        p = dict(fe=base, fe_tcp=base + 1, peer=base + 2, dns=base + 3)
        self.ports = {v: k.upper() for k, v in p.items()}
        self.vars = dict(shared, sock=self.sock, **p)
        cfg = os.path.join(self.dir, "proxy.cfg")
        with open(cfg, "w") as f:
            f.write(CONFIG.format(**self.vars))
        self.out = open(os.path.join(self.dir, "out"), "w")
        env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/"), "CLIDIFF_RUN": "1"}
        self.proc = subprocess.Popen(cmd + ["-db", "-f", cfg], stdout=self.out, stderr=subprocess.STDOUT, env=env,
                                     cwd=self.dir)
        try:
            wait_listening(p["fe"], self.proc)
            deadline = time.time() + 10
            while not os.path.exists(self.sock) and time.time() < deadline:
                time.sleep(0.05)
        except BaseException:
            self.stop()
            raise

    def cli(self, line):
        return cli(self.sock, line)

    def traffic(self):
        for path in ("/", "/img/a", "/blocked/x", "/"):
            s = socket.create_connection(("127.0.0.1", self.vars["fe"]))
            s.sendall(b"GET %s HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n" % path.encode())
            while s.recv(65536):
                pass
            s.close()
        s = socket.create_connection(("127.0.0.1", self.vars["fe"]))
        s.sendall(b"GET / HTTP/1.1\r\nHost: a\r\nBad Header: x\r\n\r\n")
        while s.recv(65536):
            pass
        s.close()
        s = socket.create_connection(("127.0.0.1", self.vars["fe_tcp"]))
        s.sendall(b"GET / HTTP/1.0\r\n\r\n")
        while s.recv(65536):
            pass
        s.close()

    def stop(self):
        stop(self.proc, self.out)


def settled(p):
    """Both proxies' checks have spoken: down1 DOWN, up1 and ag1 UP."""
    stat = p.cli("show stat be_app 4 -1")
    return ",down1," in stat and re.search(r",down1,([^,]*,){16}DOWN,", stat) and \
        re.search(r",up1,([^,]*,){16}UP,", stat) and re.search(r",ag1,([^,]*,){16}UP,", stat)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", help="the cases whose name this regular expression finds")
    ap.add_argument("--port", type=int, default=14500)
    ap.add_argument("--haproxy", default="/usr/sbin/haproxy")
    ap.add_argument("--fulcrum", default=os.path.join(HOME, "bin/fulcrum"), help="another build's bin/fulcrum")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="clidiff-")
    with open(os.path.join(tmp, "tags.map"), "w") as f:
        f.write("/img img\n/api api\n# a comment\n/static static\n")
    with open(os.path.join(tmp, "blocked.acl"), "w") as f:
        f.write("/blocked\n/private\n")
    origin = OriginServer(("127.0.0.1", a.port + 20), Origin)
    threading.Thread(target=origin.serve_forever, daemon=True).start()
    ag = socket.socket()
    ag.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ag.bind(("127.0.0.1", a.port + 21))
    ag.listen(16)
    threading.Thread(target=agent, args=(ag,), daemon=True).start()
    refused = socket.socket()  # bound, never listening: connections to it are refused
    refused.bind(("127.0.0.1", a.port + 22))
    shared = dict(dir=tmp, origin=a.port + 20, agent=a.port + 21, refused=a.port + 22)
    f = Proxy("fulcrum", [a.fulcrum], a.port, shared, tmp)
    try:
        h = Proxy("haproxy", [a.haproxy], a.port + 10, shared, tmp)
    except BaseException:
        f.stop()
        raise
    same = differ = known = commands = 0
    try:
        deadline = time.time() + 15
        while time.time() < deadline and not (settled(f) and settled(h)):
            time.sleep(0.2)
        for p in (f, h):
            p.traffic()
        for c in CASES:
            if a.only and not re.search(a.only, c["name"]):
                continue
            answers = {}
            for p in (f, h):
                outs = []
                for line in c["lines"]:
                    text = p.cli(line.format(**shared))
                    outs.append("$ %s\n%s" % (line, NORMS[c["norm"]](common(text, p))))
                answers[p.name] = "".join(outs)
            commands += len(c["lines"])
            if answers["fulcrum"] == answers["haproxy"]:
                same += 1
                if a.v:
                    print("same %s" % c["name"])
            elif c["name"] in KNOWN and not a.v:
                known += 1
                print("known %s: %s" % (c["name"], KNOWN[c["name"]]))
            else:
                differ += 1
                print("DIFF %s" % c["name"])
                print_diff(answers["fulcrum"], answers["haproxy"])
                if a.v:
                    for name in ("haproxy", "fulcrum"):
                        print("   --- %s in full:" % name)
                        print("\n".join("   " + x for x in answers[name].split("\n")))
    finally:
        f.stop()
        h.stop()
        origin.shutdown()
    print("%d commands in %d cases: %d same, %d known, %d differ (files in %s)"
          % (commands, same + known + differ, same, known, differ, tmp))
    return 1 if differ else 0


def print_diff(fv, hv):
    import difflib
    for line in difflib.unified_diff(hv.split("\n"), fv.split("\n"), "haproxy", "fulcrum", n=1, lineterm=""):
        print("   " + line[:300])


if __name__ == "__main__":
    sys.exit(main())
