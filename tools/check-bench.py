#!/usr/bin/env python3
"""Measures what health checks cost: N servers checked every INTER ms (issue 9: 1,000 servers every 100 ms
must cost under 5% of one core).

Starts a check target (a small C program, built with cc, accepting connections and closing them, or answering an
HTTP status with --http), then the proxy on a generated configuration whose servers all point at it, lets it warm up and
reads the proxy's CPU time (utime + stime of /proc/PID/stat) over a measuring window. Prints the CPU-seconds per
wall-second (1.0 = one core busy), the connections opened per second (the checks), and what the same run costs HAProxy when
--haproxy is given (the proxy under test is bin/fulcrum on the packaged jar unless --proxy says otherwise).

    python3 tools/check-bench.py [--servers 1000] [--inter 100] [--warmup 10] [--seconds 20] [--http]
                                 [--port 21000] [--listening] [--proxy CMD] [--haproxy] [--floor] [--repeat N]

--floor measures the least any program can spend on the same TCP checks: a small C checker that, for each server and
interval, makes a socket, sets SO_LINGER 0, connects without blocking, waits for the outcome in epoll and closes; no
scheduling, no state, no logs. What it costs is the kernel's connect and close (the target's half of the handshake runs
in the checker's system time on loopback): the floor under any proxy's figure.

Run it on an otherwise quiet machine: the figure is the proxy's own CPU time, but a busy machine stretches it, and a
proxy that gets too little CPU checks less often than asked (compare the connections opened per second with the checks
expected; ActiveOpens counts the whole network namespace, other programs' connections included). --repeat N interleaves
N runs of each proxy so that a changing load weighs on both.
"""

import argparse
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TICKS = os.sysconf("SC_CLK_TCK")


def config(servers, inter, port, http):
    lines = ["global", "    maxconn 4000", "defaults", "    mode http" if http else "    mode tcp",
             "    timeout connect 1s", "    timeout client 5s", "    timeout server 5s", "    timeout check 1s",
             "frontend fe", "    bind 127.0.0.1:%d" % (port + 1), "    default_backend be", "backend be"]
    if http:
        lines.append("    option httpchk GET /health")
    for i in range(servers):
        lines.append("    server s%d 127.0.0.1:%d check inter %d" % (i, port, inter))
    return "\n".join(lines) + "\n"


# The check target in C: a Python accept loop does not keep up with 10,000 connections a second on a small machine.
# It accepts, answers when asked (argv[2] = "http": reads the request, writes a 200) and closes.
TARGET_C = r"""
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int http = argc > 2 && strcmp(argv[2], "http") == 0, one = 1;
    int l = socket(AF_INET, SOCK_STREAM, 0);
    setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[1]))};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    if (bind(l, (struct sockaddr *)&a, sizeof a) || listen(l, 4096)) { perror("listen"); return 1; }
    static const char answer[] = "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n";
    char buf[4096];
    struct timeval tv = {1, 0};
    for (;;) {
        int c = accept(l, 0, 0);
        if (c < 0) continue;
        if (http) {
            setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
            if (recv(c, buf, sizeof buf, 0) > 0) send(c, answer, sizeof answer - 1, MSG_NOSIGNAL);
        }
        close(c);
    }
}
"""


# The floor of a TCP connect check (--floor): argv = port, servers, interval (ms), seconds to run.
FLOOR_C = r"""
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
static long now_ms(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1000L + t.tv_nsec / 1000000; }
int main(int argc, char **argv) {
    int n = atoi(argv[2]), inter = atoi(argv[3]), pending = 0, ep = epoll_create1(0);
    long start = now_ms(), end = start + atol(argv[4]) * 1000L, next = start;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[1]))};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    struct epoll_event evs[256];
    while (now_ms() < end) {
        if (now_ms() >= next) {
            for (int i = 0; i < n; i++) {
                int s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
                struct linger l = {1, 0};
                setsockopt(s, SOL_SOCKET, SO_LINGER, &l, sizeof l);
                if (connect(s, (struct sockaddr *) &a, sizeof a) == 0) { close(s); continue; }
                struct epoll_event e = {.events = EPOLLOUT, .data.fd = s};
                epoll_ctl(ep, EPOLL_CTL_ADD, s, &e);
                pending++;
            }
            next += inter;
        }
        long wait = next - now_ms();
        int k = epoll_wait(ep, evs, 256, pending ? 10 : (int) (wait > 0 ? wait : 0));
        for (int i = 0; i < k; i++) { close(evs[i].data.fd); pending--; }
    }
    return 0;
}
"""


def compile_c(directory, name, source):
    src, exe = os.path.join(directory, name + ".c"), os.path.join(directory, name)
    with open(src, "w") as f:
        f.write(source)
    subprocess.run(["cc", "-O2", "-o", exe, src], check=True)
    return exe


class Target:
    """The check target, compiled with cc on the fly."""

    def __init__(self, port, http):
        self.dir = tempfile.mkdtemp(prefix="check-bench")
        self.proc = subprocess.Popen([compile_c(self.dir, "target", TARGET_C), str(port), "http" if http else "tcp"])

    def close(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.dir)


def cpu_seconds(pid):
    """The process's user and system CPU-seconds (utime and stime, fields 14 and 15 of /proc/PID/stat)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICKS, int(fields[12]) / TICKS


def connects():
    """TCP connections opened by this network namespace (ActiveOpens): HAProxy's layer-4 checks reset the connection
    before the target can accept it, so only the kernel sees them all."""
    with open("/proc/net/snmp") as f:
        names, values = [line.split() for line in f if line.startswith("Tcp:")]
    return int(values[names.index("ActiveOpens")])


def measure(cmd, cfg_text, warmup, seconds):
    """Runs cmd on the configuration (cfg_text None: cmd needs none) and measures it once warm."""
    with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as f:
        f.write(cfg_text or "")
    args = cmd if cfg_text is None else cmd + ["-db", "-f", f.name]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        time.sleep(warmup)
        if proc.poll() is not None:
            sys.exit("the proxy stopped: " + proc.stderr.read().decode(errors="replace"))
        (u0, s0), a0, t0 = cpu_seconds(proc.pid), connects(), time.monotonic()
        time.sleep(seconds)
        (u1, s1), a1, t1 = cpu_seconds(proc.pid), connects(), time.monotonic()
        wall = t1 - t0
        return (u1 - u0) / wall, (s1 - s0) / wall, (a1 - a0) / wall
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        os.unlink(f.name)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--servers", type=int, default=1000)
    ap.add_argument("--inter", type=int, default=100, help="check interval in ms")
    ap.add_argument("--warmup", type=float, default=10, help="seconds before measuring (JIT, first checks spread)")
    ap.add_argument("--seconds", type=float, default=20, help="measuring window")
    ap.add_argument("--port", type=int, default=21000, help="the check target's port (the proxy listens on the next one)")
    ap.add_argument("--http", action="store_true", help="HTTP checks (option httpchk) instead of TCP connects")
    ap.add_argument("--listening", action="store_true",
                    help="a check target of one's own (nginx...) listens on --port already: start none")
    ap.add_argument("--proxy", default=os.path.join(ROOT, "bin/fulcrum"), help="the proxy command")
    ap.add_argument("--haproxy", action="store_true", help="measure haproxy on the same configuration too")
    ap.add_argument("--floor", action="store_true", help="measure the floor of TCP connect checks too (see above)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="runs of each proxy, interleaved (proxy, haproxy, proxy...): a shared machine's load then weighs on both")
    a = ap.parse_args()
    if a.floor and a.http:
        sys.exit("--floor measures TCP connect checks: drop --http")

    target = None if a.listening else Target(a.port, a.http)
    cfg_text = config(a.servers, a.inter, a.port, a.http)
    expected = a.servers * 1000.0 / a.inter
    runs = [("proxy", shlex.split(a.proxy), cfg_text)]
    if a.haproxy:
        runs.append(("haproxy", ["haproxy"], cfg_text))
    floor_dir = tempfile.mkdtemp(prefix="check-floor") if a.floor else None
    if floor_dir:
        duration = int(a.warmup + a.seconds + 5)
        floor = [compile_c(floor_dir, "floor", FLOOR_C), str(a.port), str(a.servers), str(a.inter), str(duration)]
        runs.append(("floor", floor, None))
    print("%d servers, %s checks every %d ms (%.0f checks/s expected)" % (a.servers, "HTTP" if a.http else "TCP", a.inter, expected))
    try:
        for _ in range(a.repeat):
            for name, cmd, cfg in runs:
                user, system, rate = measure(cmd, cfg, a.warmup, a.seconds)
                cores = user + system
                # Per check too: a proxy starved of CPU by a busy machine checks less often than asked and looks cheaper.
                print("%-8s %.3f CPU-seconds per second (%.1f%% of one core: user %.1f%%, system %.1f%%), %.0f connections opened/s, "
                      "%.1f CPU-ms per 1,000 connections" % (name, cores, 100 * cores, 100 * user, 100 * system, rate,
                                                             1e6 * cores / rate if rate else 0), flush=True)
    finally:
        if target:
            target.close()
        if floor_dir:
            shutil.rmtree(floor_dir)


if __name__ == "__main__":
    main()
