#!/usr/bin/env python3
"""Regenerates src/test/resources/io/fulcrum/cli/haproxy-cli-help.txt from the real HAProxy 2.6.

The file has two parts. First HAProxy's CLI commands as `help` lists them, one tab-separated line each: the words
that select the command, its synopsis, its help text and the mode it needs (normal, expert, experimental), then the
commands `help` never lists (the session's own). Then, after a line "%%", what HAProxy answers to mistyped and
partial command lines (and `help <words>`): each answer follows a line "=== <the line sent>". CliUsageTest builds
HAProxy's command table from the first part and checks that Fulcrum's `help` and unknown-command answers give the
same text for each line of the second. Only HAProxy's command names and texts are kept, never its code.

Usage: tools/gen-haproxy-cli-help.py [--haproxy PATH]
"""

import argparse
import os
import re
import socket
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, "src/test/resources/io/fulcrum/cli/haproxy-cli-help.txt")

# Lines sent as they are: typos, first words only, a single letter, expert commands outside expert mode.
PROBES = ["foo", "xyzzy", "x", "showstat", "shwo stat", "show stats", "show", "show foo", "show ssl", "show ssl foo",
          "show servers", "set", "set maxconn", "set maxconn foo", "enable", "clear", "get", "debug", "debug dev",
          "help", "help show", "help show stat", "help foo", "help show foo", "help help", "help set", "help debug",
          "expert-mode on; debug dev memstats", "expert-mode on; debug dev", "expert-mode on; help debug",
          "experimental-mode on; set vra", "experimental-mode on; help set var", "disable servr", "del sever",
          "show sesss", "sohw info", "add", "new ssl", "abort ssl crl", "show tabel x y z w v u"]
# Commands help never lists (no synopsis); they still count as known words.
HIDDEN = ["help", "prompt", "quit", "expert-mode", "experimental-mode", "_getsocks"]
# The synopsis says "crlfile" where the command is "crl-file".
WORDS = {"new ssl crlfile": "new ssl crl-file"}
LINE = re.compile(r"^  (.{40}|.{41,}?): (.*)$")


def ask(path, line):
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    s.sendall(line.encode() + b"\n")
    s.shutdown(socket.SHUT_WR)
    out = b""
    while True:
        b = s.recv(65536)
        if not b:
            return out.decode()
        out += b


def commands(text):
    found = {}
    for line in text.splitlines()[1:]:
        m = LINE.match(line)
        if not m:
            continue
        usage, help_text = m.group(1).rstrip(), m.group(2)
        if usage.split()[0] in ("help", "prompt", "quit"):
            continue
        words = []
        for w in usage.split():
            if w[0] in "[<{(@":
                break
            words.append(w)
        found[usage] = (WORDS.get(" ".join(words), " ".join(words)), help_text)
    return found


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--haproxy", default="/usr/sbin/haproxy")
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as d:
        sock = os.path.join(d, "cli.sock")
        cfg = os.path.join(d, "h.cfg")
        with open(cfg, "w") as f:
            f.write("global\n  stats socket %s level admin\n" % sock)
        proc = subprocess.Popen([a.haproxy, "-db", "-f", cfg], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(100):
                if os.path.exists(sock):
                    break
                time.sleep(0.05)
            modes = {"": "normal", "expert-mode on;": "expert", "experimental-mode on;": "experimental"}
            table = {}
            for prefix, mode in modes.items():
                for usage, (words, help_text) in commands(ask(sock, prefix + "help").lstrip("\n")).items():
                    table.setdefault(usage, (words, help_text, mode))
            out = ["\t".join((w, u, h, m)) for u, (w, h, m) in table.items()]
            out += ["\t".join((h, "-", "-", "normal")) for h in HIDDEN]
            out.append("%%")
            for probe in PROBES:
                out.append("=== " + probe)
                out.append(ask(sock, probe).rstrip("\n"))
        finally:
            proc.terminate()
            proc.wait()
    with open(OUTPUT, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
