#!/usr/bin/env python3
"""Measures what a full TLS handshake costs the proxy (issue 8: at most 0.8x HAProxy's CPU per handshake).

The shared bench's tls-handshake scenario drives one ab, whose own handshakes cost as much as the server's: it is bound
by its client. Here several `openssl s_time -new` processes run in parallel against one long-running proxy: each
connects, makes a full handshake (no session resumed, no request unless --www) and closes, again and again. The figure is
the proxy's CPU time (utime + stime of /proc/PID/stat) over the handshakes the clients count, in milliseconds.

Both proxies run at once on the same generated configuration (nbthread 2, an ECDSA P-256 and an RSA 2048 certificate, one
bind line each) and are measured in turn, case by case and round by round, so that a changing load on a shared machine
weighs on both; after a warm-up of every case (the JIT compiles the TLS paths). Each case is a certificate and a TLS
version: ecdsa-1.3, ecdsa-1.2, rsa-1.3, rsa-1.2.

    python3 tools/tls-handshake-bench.py [--rounds 3] [--seconds 8] [--warmup 20] [--clients 4] [--cases ...]
                                         [--port 22000] [--proxy CMD] [--no-haproxy] [--www]

Prints one line per run and, per case, the range and median of the proxy's ms per handshake and of its ratio to
HAProxy's in the same round.
"""

import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TICKS = os.sysconf("SC_CLK_TCK")
CASES = ["ecdsa-1.3", "ecdsa-1.2", "rsa-1.3", "rsa-1.2"]


def certificates(work):
    """An ECDSA P-256 and an RSA 2048 self-signed certificate, each with its key in one PEM file."""
    keys = {"ecdsa": ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"], "rsa": ["-newkey", "rsa:2048"]}
    for name, key in keys.items():
        crt, pem = os.path.join(work, name + ".crt"), os.path.join(work, name + ".key")
        subprocess.run(["openssl", "req", "-x509", *key, "-nodes", "-keyout", pem, "-out", crt, "-days", "30",
                        "-subj", "/CN=localhost"], check=True, capture_output=True)
        with open(os.path.join(work, name + ".pem"), "w") as out:
            for part in (crt, pem):
                with open(part) as f:
                    out.write(f.read())


def config(work, port):
    return "\n".join([
        "global", "    nbthread 2", "    maxconn 4000",
        "defaults", "    mode http", "    timeout connect 1s", "    timeout client 5s", "    timeout server 5s",
        "frontend fe",
        "    bind 127.0.0.1:%d ssl crt %s/ecdsa.pem" % (port, work),
        "    bind 127.0.0.1:%d ssl crt %s/rsa.pem" % (port + 1, work),
        "    http-request return status 200 content-type text/plain string ok",
    ]) + "\n"


def cpu(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def wait_port(port, proc, timeout=60):
    import socket
    end = time.time() + timeout
    while time.time() < end:
        if proc.poll() is not None:
            sys.exit("the proxy exited with status %d" % proc.returncode)
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return
        except OSError:
            time.sleep(0.2)
    sys.exit("port %d did not open" % port)


def load(port, case, clients, seconds, www):
    """Runs the clients for the case; returns the handshakes they made."""
    cert, version = case.split("-")
    cmd = ["openssl", "s_time", "-new", "-connect", "127.0.0.1:%d" % (port + (0 if cert == "ecdsa" else 1)),
           "-time", str(seconds), "-tls1_3" if version == "1.3" else "-tls1_2"]
    if www:
        cmd += ["-www", "/"]
    runs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) for _ in range(clients)]
    total = 0
    for r in runs:
        out = r.communicate(timeout=seconds + 30)[0]
        m = re.search(r"(\d+) connections in [\d.]+ real seconds", out)
        total += int(m.group(1)) if m else 0
    return total


def measure(pid, port, case, args):
    before, t0 = cpu(pid), time.time()
    n = load(port, case, args.clients, args.seconds, args.www)
    spent, wall = cpu(pid) - before, time.time() - t0
    return n, spent, wall


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=int, default=8)
    p.add_argument("--warmup", type=int, default=20, help="seconds of warm-up per proxy, spread over the cases")
    p.add_argument("--clients", type=int, default=4, help="parallel openssl s_time processes")
    p.add_argument("--cases", default=",".join(CASES))
    p.add_argument("--port", type=int, default=22000)
    p.add_argument("--proxy", default=os.path.join(ROOT, "bin", "fulcrum") + " -db -f {cfg}")
    p.add_argument("--no-haproxy", action="store_true")
    p.add_argument("--www", action="store_true", help="also send GET / on each connection")
    args = p.parse_args()
    cases = args.cases.split(",")
    work = tempfile.mkdtemp(prefix="tls-handshake-bench-")
    certificates(work)
    proxies = {}
    started = []
    try:
        specs = [("fulcrum", args.proxy, args.port)]
        if not args.no_haproxy:
            specs.insert(0, ("haproxy", "haproxy -db -f {cfg}", args.port + 10))
        for name, cmd, port in specs:
            cfg = os.path.join(work, name + ".cfg")
            with open(cfg, "w") as f:
                f.write(config(work, port))
            proc = subprocess.Popen(shlex.split(cmd.replace("{cfg}", cfg)), stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            started.append(proc)
            wait_port(port + 1, proc)
            proxies[name] = (proc.pid, port)
        for name, (pid, port) in proxies.items():
            for case in cases:
                load(port, case, args.clients, max(1, args.warmup // len(cases)), args.www)
        results = {}
        for rnd in range(args.rounds):
            for case in cases:
                for name, (pid, port) in proxies.items():
                    n, spent, wall = measure(pid, port, case, args)
                    ms = 1000 * spent / n if n else float("nan")
                    results.setdefault((case, name), []).append(ms)
                    print("round %d %-9s %-8s %6d handshakes %6.0f/s  cpu %5.2f s (%3.0f%% of a core)  %.3f ms/handshake"
                          % (rnd + 1, case, name, n, n / wall, spent, 100 * spent / wall, ms), flush=True)
        print()
        for case in cases:
            f = results[(case, "fulcrum")]
            line = "%-9s fulcrum %.3f-%.3f ms (median %.3f)" % (case, min(f), max(f), statistics.median(f))
            if "haproxy" in proxies:
                h = results[(case, "haproxy")]
                ratios = [a / b for a, b in zip(f, h)]
                line += "  haproxy %.3f-%.3f ms (median %.3f)  x%.2f-%.2f (median x%.2f)" % (
                    min(h), max(h), statistics.median(h), min(ratios), max(ratios), statistics.median(ratios))
            print(line)
    finally:
        for proc in started:
            proc.terminate()
        for proc in started:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
