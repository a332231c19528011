"""What the differential tools (h1-diff.py, cli-diff.py) share: a proxy they started, awaited and stopped."""
import subprocess
import time


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
