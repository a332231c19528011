package io.fulcrum.it;

import io.fulcrum.it.CliFlagsIT.Net;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HAProxy's signals and process management (management.txt section 4, flags -p -D -sf -st, fd@ binds) on
 * the real {@code bin/fulcrum}, with an echo origin behind it.
 */
class CliSignalsIT {

    /** Runs a program with SIGINT at its default action: a non-interactive shell may have started us with it ignored. */
    private static final String DEFAULT_SIGINT = "import os, signal, sys\n"
            + "signal.signal(signal.SIGINT, signal.SIG_DFL)\n"
            + "signal.signal(signal.SIGPIPE, signal.SIG_DFL)\n"
            + "os.execv(sys.argv[1], sys.argv[1:])\n";

    /** Creates a listening socket on 127.0.0.1:argv[1] at fd argv[2], inheritable, then execs argv[3:]. */
    private static String fulcrum() {
        return FulcrumProcess.home().resolve("bin/fulcrum").toString();
    }

    private static String config(String global, int port, int... servers) {
        StringBuilder sb = new StringBuilder();
        sb.append("global\n").append(global.isEmpty() ? "" : "    " + global + "\n");
        sb.append("""
                defaults
                    mode tcp
                    timeout connect 5s
                    timeout client 30s
                    timeout server 30s
                listen app
                    bind 127.0.0.1:%d
                """.formatted(port));
        for (int i = 0; i < servers.length; i++) {
            sb.append("    server s").append(i + 1).append(" 127.0.0.1:").append(servers[i]).append('\n');
        }
        return sb.toString();
    }

    static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not true after " + timeout + ": " + what);
            }
            Thread.sleep(20);
        }
    }

    /** After {@link FulcrumProcess#serve}: waits until the readiness probe's session is gone from the origin. */
    private static void settle(Origin origin) throws InterruptedException {
        CliFlagsIT.awaitNoSession(origin);
    }

    /** True when the peer closed (EOF or reset) within {@code timeout}. */
    private static boolean closedWithin(Socket s, Duration timeout) throws IOException {
        s.setSoTimeout((int) timeout.toMillis());
        InputStream in = s.getInputStream();
        try {
            byte[] b = new byte[4096];
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                if (in.read(b) < 0) {
                    return true;
                }
            }
            return false;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true; // reset
        }
    }

    // ---- stop signals --------------------------------------------------------------------------------

    @Test
    void sigintStopsPromptlyWithStatusZero() throws Exception {
        try (Origin origin = Origin.start(Origin.ECHO)) {
            int port = FulcrumProcess.freePort();
            Path cfg = FulcrumProcess.config(config("", port, origin.port()));
            try (FulcrumProcess p = FulcrumProcess.start(List.of("python3", "-c", DEFAULT_SIGINT, fulcrum()), List.of("-db", "-f", cfg.toString()))) {
                p.awaitPort(port, Duration.ofSeconds(20));
                try (Socket s = Net.connect(port)) {
                    Net.assertEcho(s, "before SIGINT");
                    p.signal("INT");
                    assertThat(p.awaitExit(Duration.ofSeconds(5))).as(p.stderr()).isZero();
                    assertThat(closedWithin(s, Duration.ofSeconds(5))).as("session closed by the stop").isTrue();
                }
                assertThat(Net.refused(port)).isTrue();
            }
        }
    }

    @Test
    void sigtermStopsPromptlyWithStatusZero() throws Exception {
        try (Origin origin = Origin.start(Origin.ECHO)) {
            int port = FulcrumProcess.freePort();
            Path cfg = FulcrumProcess.config(config("", port, origin.port()));
            try (FulcrumProcess p = FulcrumProcess.serve(cfg, port)) {
                try (Socket s = Net.connect(port)) {
                    Net.assertEcho(s, "before SIGTERM");
                    p.signal("TERM");
                    assertThat(p.awaitExit(Duration.ofSeconds(5))).as(p.stderr()).isZero();
                    assertThat(closedWithin(s, Duration.ofSeconds(5))).as("session closed by the stop").isTrue();
                }
                assertThat(p.stderr()).doesNotContain("[ALERT]");
            }
        }
    }

    @Test
    void sigusr1ClosesTheListenerAtOnceAndExitsWhenTheLastSessionEnds() throws Exception {
        try (Origin origin = Origin.start(Origin.ECHO)) {
            int port = FulcrumProcess.freePort();
            Path cfg = FulcrumProcess.config(config("", port, origin.port()));
            try (FulcrumProcess p = FulcrumProcess.serve(cfg, port)) {
                settle(origin);
                try (Socket s = Net.connect(port)) {
                    Net.assertEcho(s, "before USR1");
                    p.signal("USR1");
                    await("new connections refused after SIGUSR1", Duration.ofSeconds(3), () -> Net.refused(port));
                    // The established session goes on, and keeps the process alive.
                    Thread.sleep(500);
                    Net.assertEcho(s, "after USR1");
                    assertThat(p.isAlive()).as("alive while a session lasts").isTrue();
                }
                assertThat(p.awaitExit(Duration.ofSeconds(10))).as(p.stderr()).isZero();
            }
        }
    }

    @Test
    void hardStopAfterEndsALingeringSessionOfASoftStop() throws Exception {
        try (Origin origin = Origin.start(Origin.ECHO)) {
            int port = FulcrumProcess.freePort();
            Path cfg = FulcrumProcess.config(config("hard-stop-after 1s", port, origin.port()));
            try (FulcrumProcess p = FulcrumProcess.serve(cfg, port)) {
                settle(origin);
                try (Socket s = Net.connect(port)) {
                    Net.assertEcho(s, "before USR1");
                    long signalled = System.nanoTime();
                    p.signal("USR1");
                    Net.assertEcho(s, "during the soft stop");
                    assertThat(p.awaitExit(Duration.ofSeconds(10))).as(p.stderr()).isZero();
                    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - signalled);
                    assertThat(ms).as("exit after hard-stop-after (1 s), not before").isGreaterThanOrEqualTo(900);
                    assertThat(closedWithin(s, Duration.ofSeconds(5))).as("lingering session closed").isTrue();
                }
            }
        }
    }

    @Test
    void sigttouPausesAcceptingAndSigttinResumes() throws Exception {
        try (Origin origin = Origin.start(Origin.ECHO)) {
            int port = FulcrumProcess.freePort();
            Path cfg = FulcrumProcess.config(config("", port, origin.port()));
            try (FulcrumProcess p = FulcrumProcess.serve(cfg, port)) {
                settle(origin);
                try (Socket established = Net.connect(port)) {
                    Net.assertEcho(established, "before TTOU");
                    p.signal("TTOU");
                    await("pause reported", Duration.ofSeconds(5), () -> p.stderr().contains("Paused"));
                    Thread.sleep(200);
                    try (Socket queued = Net.connect(port)) { // the kernel may complete the handshake: it waits in the backlog
                        Net.write(queued, "queued");
                        Net.assertSilent(queued, Duration.ofMillis(700));
                        // A paused process still serves its established sessions.
                        Net.assertEcho(established, "while paused");

                        p.signal("TTIN");
                        assertThat(Net.read(queued, 6, Duration.ofSeconds(10))).as("served once resumed").isEqualTo("queued");
                    }
                    try (Socket fresh = Net.connect(port)) {
                        Net.assertEcho(fresh, "after TTIN");
                    }
                }
                assertThat(p.isAlive()).isTrue();
            }
        }
    }

    @Test
    void sighupDumpsTheServerStatesOnStderr() throws Exception {
        try (Origin one = Origin.start(Origin.ECHO); Origin two = Origin.start(Origin.ECHO)) {
            int port = FulcrumProcess.freePort();
            Path cfg = FulcrumProcess.config(config("", port, one.port(), two.port()));
            try (FulcrumProcess p = FulcrumProcess.serve(cfg, port)) {
                p.signal("HUP");
                await("server states on stderr", Duration.ofSeconds(5), () -> p.stderr().contains("SIGHUP: Proxy app"));
                String err = p.stderr();
                assertThat(err).contains("app/s1").contains("app/s2").contains("Proxy app");
                assertThat(p.isAlive()).as("SIGHUP does not stop the process").isTrue();
                try (Socket s = Net.connect(port)) {
                    Net.assertEcho(s, "after HUP");
                }
            }
        }
    }

    // ---- pid files and daemon mode ------------------------------------------------------------------

    private static Optional<Long> pidIn(Path file) {
        try {
            String text = Files.readString(file);
            return text.endsWith("\n") ? Optional.of(Long.parseLong(text.trim())) : Optional.empty(); // complete lines only
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    @Test
    void pidFileFromTheFlagHoldsTheServerPid() throws Exception {
        try (Origin origin = Origin.start(Origin.ECHO)) {
            int port = FulcrumProcess.freePort();
            Path cfg = FulcrumProcess.config(config("", port, origin.port()));
            Path pidfile = cfg.resolveSibling("flag.pid");
            try (FulcrumProcess p = FulcrumProcess.serve(cfg, port, "-p", pidfile.toString())) {
                await("pid file written", Duration.ofSeconds(5), () -> pidIn(pidfile).isPresent());
                assertThat(Files.readString(pidfile)).isEqualTo(p.pid() + "\n");
            }
        }
    }

    @Test
    void pidFileFromTheGlobalSectionHoldsTheServerPid() throws Exception {
        try (Origin origin = Origin.start(Origin.ECHO)) {
            int port = FulcrumProcess.freePort();
            Path dir = Files.createTempDirectory("fulcrum-pid");
            Path pidfile = dir.resolve("global.pid");
            Path cfg = FulcrumProcess.config(config("pidfile " + pidfile, port, origin.port()));
            try (FulcrumProcess p = FulcrumProcess.serve(cfg, port)) {
                await("pid file written", Duration.ofSeconds(5), () -> pidIn(pidfile).isPresent());
                assertThat(pidIn(pidfile)).contains(p.pid());
            }
        }
    }

    @Test
    void daemonReturnsAtOnceAndServesUntilStoppedByItsPid() throws Exception {
        try (Origin origin = Origin.start(Origin.ECHO)) {
            int port = FulcrumProcess.freePort();
            Path cfg = FulcrumProcess.config(config("", port, origin.port()));
            Path pidfile = cfg.resolveSibling("daemon.pid");
            long started = System.nanoTime();
            FulcrumRun launcher = FulcrumRun.in(cfg.getParent(), "-D", "-f", cfg.toString(), "-p", pidfile.toString());
            long daemonPid = pidIn(pidfile).orElse(-1L);
            try {
                assertThat(launcher.exit()).as(launcher.describe()).isZero();
                assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started)).as("the command returns once the daemon listens")
                        .isLessThan(30);
                assertThat(daemonPid).as("pid file of the daemon").isPositive();
                Optional<ProcessHandle> daemon = ProcessHandle.of(daemonPid);
                assertThat(daemon).as("daemon process " + daemonPid).isPresent();
                assertThat(daemon.get().isAlive()).isTrue();
                // It left the launcher's output: a pipe it kept open would hold whoever reads it (a shell's "$(...)").
                for (int fd = 0; fd <= 2; fd++) {
                    assertThat(Files.readSymbolicLink(Path.of("/proc/" + daemonPid + "/fd/" + fd))).hasToString("/dev/null");
                }
                // Listening when the command returned: no wait needed.
                try (Socket s = Net.connect(port)) {
                    Net.assertEcho(s, "through the daemon");
                }
                new ProcessBuilder("kill", "-TERM", Long.toString(daemonPid)).inheritIO().start().waitFor();
                assertThat(daemon.get().onExit().get(10, TimeUnit.SECONDS).isAlive()).isFalse();
                assertThat(Net.refused(port)).isTrue();
            } finally {
                if (daemonPid > 0) {
                    ProcessHandle.of(daemonPid).ifPresent(h -> {
                        if (h.isAlive() && h.info().command().orElse("").contains("java")) {
                            h.destroyForcibly();
                        }
                    });
                }
            }
        }
    }

    // ---- binding -------------------------------------------------------------------------------------

    @Test
    void portInUseIsACleanFailure() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 10, java.net.InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            Path cfg = FulcrumProcess.config(config("stats socket /nonexistent/dir/admin.sock", port, 1));
            FulcrumRun r = FulcrumRun.in(cfg.getParent(), "-db", "-f", cfg.toString());
            assertThat(r.exit()).as(r.describe()).isEqualTo(1);
            // haproxy 2.6's lines, by protocol: the IP sockets first
            String ip = "[ALERT]    (PID) : Binding [" + cfg + ":9] for proxy app: cannot bind socket (Address already in use) for [127.0.0.1:"
                    + port + "]";
            String unix = "[ALERT]    (PID) : Binding [" + cfg + ":2] for frontend GLOBAL: cannot bind UNIX socket (No such file or directory) "
                    + "[/nonexistent/dir/admin.sock]";
            Expected.of(ip).assertIn(r.maskedStderr(), r.describe());
            Expected.of(unix).assertIn(r.maskedStderr(), r.describe());
            assertThat(r.maskedStderr().indexOf(ip)).as(r.describe()).isLessThan(r.maskedStderr().indexOf(unix));
        }
    }

    /** The peers' and log-forward's sockets are listeners too: one that cannot be bound stops the start, as haproxy 2.6. */
    @Test
    void aTakenPeersOrLogForwardAddressStopsTheStart() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 10, java.net.InetAddress.getByName("127.0.0.1"));
             java.net.DatagramSocket takenUdp = new java.net.DatagramSocket(0, java.net.InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            int udp = takenUdp.getLocalPort();
            Path cfg = FulcrumProcess.config(config("", FulcrumProcess.freePort(), 1) + """
                    peers mesh
                        peer local 127.0.0.1:%d
                    log-forward lf
                        bind 127.0.0.1:%d
                        dgram-bind 127.0.0.1:%d
                        log stderr local0
                    """.formatted(port, port, udp));
            FulcrumRun r = FulcrumRun.in(cfg.getParent(), "-db", "-L", "local", "-f", cfg.toString());
            assertThat(r.exit()).as(r.describe()).isEqualTo(1);
            for (String line : List.of(
                    "Binding [" + cfg + ":11] for proxy local: cannot bind socket (Address already in use) for [127.0.0.1:" + port + "]",
                    "Binding [" + cfg + ":13] for frontend lf: cannot bind socket (Address already in use) for [127.0.0.1:" + port + "]",
                    "Binding [" + cfg + ":14] for frontend lf: cannot bind socket (Address already in use) for [127.0.0.1:" + udp + "]",
                    "[fulcrum.main()] Some protocols failed to start their listeners! Exiting.")) {
                Expected.of("[ALERT]    (PID) : " + line).assertIn(r.maskedStderr(), r.describe());
            }
        }
    }

    @Test
    void configurationWithoutListenerDoesNotStart() throws Exception {
        Path cfg = FulcrumProcess.config("""
                defaults
                    mode tcp
                    timeout connect 5s
                    timeout server 30s
                backend be
                    server s1 127.0.0.1:1
                """);
        FulcrumRun r = FulcrumRun.in(cfg.getParent(), "-db", "-f", cfg.toString());
        assertThat(r.exit()).as(r.describe()).isEqualTo(1);
        assertThat(r.stderr()).as(r.describe()).contains("No enabled listener found");
    }

    @Test
    void inheritedListeningSocketIsServed() throws Exception {
        try (Origin origin = Origin.start(Origin.ECHO)) {
            int port = FulcrumProcess.freePort();
            int fd = 5;
            String cfgText = config("", port, origin.port()).replace("bind 127.0.0.1:" + port, "bind fd@" + fd);
            Path cfg = FulcrumProcess.config(cfgText);
            List<String> prefix = new ArrayList<>(FulcrumProcess.passingListener(port, fd));
            prefix.add(fulcrum());
            try (FulcrumProcess p = FulcrumProcess.start(prefix, List.of("-db", "-f", cfg.toString()))) {
                p.awaitPort(port, Duration.ofSeconds(20));
                settle(origin);
                try (Socket s = Net.connect(port)) {
                    Net.assertEcho(s, "through an inherited socket");
                }
                await("the session reached the origin", Duration.ofSeconds(5), () -> origin.accepted() >= 1);
            }
        }
    }

    @Test
    void fdBindOnANonSocketIsAConfigurationError() throws Exception {
        Path cfg = FulcrumProcess.config(config("", 1, 1).replace("bind 127.0.0.1:1", "bind fd@0"));
        FulcrumRun r = FulcrumRun.in(cfg.getParent(), "-c", "-f", "test.cfg");
        assertThat(r.exit()).as(r.describe()).isEqualTo(1);
        Expected.of("[ALERT]    (PID) : config : parsing [test.cfg:8] : 'bind' : cannot use file descriptor '0' : <*>")
                .assertIn(r.maskedStderr(), r.describe());
    }

    // ---- hand-over: -sf / -st -------------------------------------------------------------------------

    @Test
    void softFinishHandsTheListenerOverAndLetsTheOldSessionsFinish() throws Exception {
        try (Origin origin = Origin.start(Origin.ECHO)) {
            int port = FulcrumProcess.freePort();
            Path cfg = FulcrumProcess.config(config("", port, origin.port()));
            List<FulcrumProcess> started = new ArrayList<>();
            try (FulcrumProcess old = FulcrumProcess.serve(cfg, port)) {
                started.add(old);
                settle(origin);
                try (Socket oldSession = Net.connect(port)) {
                    Net.assertEcho(oldSession, "old session");
                    FulcrumProcess fresh = FulcrumProcess.start(List.of("-db", "-f", cfg.toString(), "-sf", Long.toString(old.pid())));
                    started.add(fresh);
                    await("old process stops listening (soft stop)", Duration.ofSeconds(20),
                            () -> old.stderr().contains("stopped") || !old.isAlive());
                    Thread.sleep(300); // the message comes just before the socket is closed
                    assertThat(fresh.isAlive()).as(fresh.stderr()).isTrue();
                    // New connections go to the new process; the old session still works in the old one.
                    for (int i = 0; i < 5; i++) {
                        try (Socket s = Net.connect(port)) {
                            Net.assertEcho(s, "new session " + i);
                        }
                    }
                    Net.assertEcho(oldSession, "old session, still served");
                    assertThat(old.isAlive()).as("old process waits for its session").isTrue();
                }
                assertThat(old.awaitExit(Duration.ofSeconds(10))).as(old.stderr()).isZero();
                try (Socket s = Net.connect(port)) {
                    Net.assertEcho(s, "after the old process left");
                }
                assertThat(started.get(1).stderr()).doesNotContain("[ALERT]");
            } finally {
                for (FulcrumProcess p : started) {
                    p.close();
                }
            }
        }
    }

    /**
     * HAProxy's reload (-x socket -sf pid, as its systemd unit runs it): the stats socket's path is the new process's
     * once the old one has left, and stays after the last one stopped. A unix socket is bound under a temporary name,
     * then renamed over the old one; the old process, closing its socket, removed the new one's path before.
     */
    @Test
    void aReloadLeavesTheStatsSocketToTheNewProcess() throws Exception {
        try (Origin origin = Origin.start(Origin.ECHO)) {
            int port = FulcrumProcess.freePort();
            Path stats = Files.createTempDirectory("fulcrum-reload").resolve("admin.sock");
            Path cfg = FulcrumProcess.config(config("stats socket " + stats + " level admin", port, origin.port()));
            List<FulcrumProcess> started = new ArrayList<>();
            try (FulcrumProcess first = FulcrumProcess.serve(cfg, port)) {
                started.add(first);
                FulcrumProcess previous = first;
                for (int reload = 0; reload < 2; reload++) {
                    FulcrumProcess next = FulcrumProcess.start(List.of("-db", "-f", cfg.toString(), "-x", stats.toString(),
                            "-sf", Long.toString(previous.pid())));
                    started.add(next);
                    assertThat(previous.awaitExit(Duration.ofSeconds(30))).as(previous.stderr()).isZero();
                    assertThat(next.isAlive()).as(next.stderr()).isTrue();
                    assertThat(next.stderr()).doesNotContain("[ALERT]");
                    assertThat(CliClient.send(stats, "show info")).contains("Pid: " + next.pid() + "\n");
                    try (Socket s = Net.connect(port)) {
                        Net.assertEcho(s, "after reload " + reload);
                    }
                    previous = next;
                }
                previous.close();
                assertThat(stats).as("HAProxy leaves its unix sockets' files").exists();
                try (var files = Files.list(stats.getParent())) {
                    assertThat(files.map(f -> f.getFileName().toString())).containsExactly("admin.sock");
                }
            } finally {
                for (FulcrumProcess p : started) {
                    p.close();
                }
            }
        }
    }

    @Test
    void terminateStopsTheOldProcessAtOnce() throws Exception {
        try (Origin origin = Origin.start(Origin.ECHO)) {
            int port = FulcrumProcess.freePort();
            Path cfg = FulcrumProcess.config(config("", port, origin.port()));
            List<FulcrumProcess> started = new ArrayList<>();
            try (FulcrumProcess old = FulcrumProcess.serve(cfg, port)) {
                started.add(old);
                try (Socket oldSession = Net.connect(port)) {
                    Net.assertEcho(oldSession, "old session");
                    FulcrumProcess fresh = FulcrumProcess.start(List.of("-db", "-f", cfg.toString(), "-st", Long.toString(old.pid())));
                    started.add(fresh);
                    assertThat(old.awaitExit(Duration.ofSeconds(20))).as(old.stderr()).isZero();
                    assertThat(closedWithin(oldSession, Duration.ofSeconds(5))).as("old session closed by -st").isTrue();
                }
                assertThat(started.get(1).isAlive()).as(started.get(1).stderr()).isTrue();
                try (Socket s = Net.connect(port)) {
                    Net.assertEcho(s, "served by the new process");
                }
            } finally {
                for (FulcrumProcess p : started) {
                    p.close();
                }
            }
        }
    }
}
