"""What the differential tools (h1-diff.py, cli-diff.py...) share: a proxy they started, awaited and stopped, and its CLI."""
import os
import socket
import subprocess
import time


def start(name, cmd, tmp, config):
    """Writes <config> to <tmp>/<name>.cfg, checks it with -c (raises with the proxy's words when refused) and starts
    the proxy on it in the foreground, its output to <tmp>/<name>.out: (process, output file)."""
    cfg = os.path.join(tmp, name + ".cfg")
    with open(cfg, "w") as f:
        f.write(config)
    check = subprocess.run(cmd + ["-c", "-f", cfg], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if check.returncode:
        raise RuntimeError("%s refuses %s:\n%s" % (name, cfg, check.stdout.decode("latin-1")))
    out = open(os.path.join(tmp, name + ".out"), "w")
    return subprocess.Popen(cmd + ["-db", "-f", cfg], stdout=out, stderr=subprocess.STDOUT), out


def cli(path, line):
    """What the CLI on the unix socket <path> answers to <line> ("<TIMEOUT>" appended when it stops before its end)."""
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(10)
    s.connect(path)
    s.sendall(line.encode() + b"\n")
    s.shutdown(socket.SHUT_WR)
    got = b""
    try:
        while True:
            d = s.recv(65536)
            if not d:
                break
            got += d
    except socket.timeout:
        got += b"<TIMEOUT>"
    s.close()
    return got.decode("latin-1")


def wait_listening(port, proc, timeout=30):
    """Returns once a socket listens on <port> (any address), or raises when <proc> exits or <timeout> passes."""
    want = ":%04X" % port
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("proxy exited: %s" % proc.returncode)
        # (io_uring listens on an IPv6 socket, 127.0.0.1 mapped: /proc/net/tcp6)
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            with open(table) as f:
                for line in f:
                    p = line.split()
                    if len(p) > 3 and p[1].endswith(want) and p[3] == "0A":
                        return
        time.sleep(0.05)
    raise RuntimeError("proxy not listening on %d" % port)


def stop(proc, out):
    """Stops <proc> (killed when it does not exit within 5 s) and closes the file <out> it printed to."""
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
    out.close()
