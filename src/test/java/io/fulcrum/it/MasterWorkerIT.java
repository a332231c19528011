package io.fulcrum.it;

import io.fulcrum.it.CliFlagsIT.Net;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.DomainDatagramSocketAddress;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.Socket;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static io.fulcrum.it.CliSignalsIT.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Master-worker mode (management.txt 4.4 and 9.4): {@code bin/fulcrum -W} as a master process with its worker
 * JVM, driven by signals sent by PID, the master CLI ({@code -S}) and systemd's notify socket ({@code -Ws}).
 */
class MasterWorkerIT {

    private static String httpConfig(String global, int port) {
        return """
                global
                %s
                defaults
                    mode http
                    timeout connect 5s
                    timeout client 30s
                    timeout server 30s
                frontend fe
                    bind 127.0.0.1:%d
                    http-request return status 200 content-type text/plain string ok
                """.formatted(global, port);
    }

    private static Path dir() throws IOException {
        return Files.createTempDirectory("fulcrum-mw");
    }

    private static FulcrumProcess master(List<String> prefix, int port, String... args) throws IOException {
        FulcrumProcess p = FulcrumProcess.start(prefix, List.of(args));
        p.awaitPort(port, Duration.ofSeconds(90));
        return p;
    }

    private static String fulcrum() {
        return FulcrumProcess.home().resolve("bin/fulcrum").toString();
    }

    /** The worker PIDs of a master, as its {@code show proc} lists them (current then old ones). */
    private static List<Long> workers(Path cli) throws IOException {
        List<Long> pids = new ArrayList<>();
        for (String line : CliClient.send(cli, "show proc").split("\n")) {
            String[] cols = line.trim().split("\\s+");
            if (cols.length > 1 && cols[1].equals("worker")) {
                pids.add(Long.parseLong(cols[0]));
            }
        }
        return pids;
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    private static void awaitCount(FulcrumProcess p, String text, int count) throws InterruptedException {
        await(count + " x '" + text + "' in:\n" + p.stderr(), Duration.ofSeconds(90),
                () -> p.stderr().split(java.util.regex.Pattern.quote(text), -1).length - 1 >= count);
    }

    /** One HTTP/1.0 request on a new connection: true when it is answered 200. */
    private static boolean get(int port) {
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(10_000);
            s.getOutputStream().write("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            return answer.startsWith("HTTP/1.0 200") || answer.startsWith("HTTP/1.1 200");
        } catch (IOException e) {
            return false;
        }
    }

    /** Requests in a loop (bounded in time and count) until stopped; counts the ones that failed. */
    private static final class Clients implements AutoCloseable {
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicInteger ok = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger();
        final Thread thread;

        Clients(int port) {
            thread = new Thread(() -> {
                long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
                for (int i = 0; i < 200_000 && !stop.get() && System.nanoTime() < deadline; i++) {
                    (get(port) ? ok : failed).incrementAndGet();
                }
            }, "clients");
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            thread.join(30_000);
        }
    }

    private static String withoutUptimes(String proc) {
        return proc.replaceAll("\\d+d\\d\\dh\\d\\dm\\d\\ds", "<uptime>");
    }

    @Test
    void masterStartsAWorkerReloadsItWithoutRefusingConnectionsAndStopsEverything() throws Exception {
        int port = FulcrumProcess.freePort();
        Path dir = dir();
        Path cfg = dir.resolve("haproxy.cfg");
        Path stats = dir.resolve("stats.sock");
        String global = "    stats socket " + stats + " level admin";
        Files.writeString(cfg, httpConfig(global, port));
        Path cli = dir.resolve("master.sock");
        Path pidfile = dir.resolve("fulcrum.pid");
        try (FulcrumProcess m = master(List.of(fulcrum()), port, "-W", "-f", cfg.toString(), "-S", cli + ",mode,600", "-p", pidfile.toString())) {
            awaitCount(m, "Loading success.", 1);
            assertThat(Files.readString(pidfile).trim()).isEqualTo(Long.toString(m.pid()));
            List<Long> first = workers(cli);
            assertThat(first).hasSize(1);
            long w1 = first.get(0);
            assertThat(ProcessHandle.of(w1).flatMap(ProcessHandle::parent).map(ProcessHandle::pid)).contains(m.pid());
            assertThat(m.stderr()).contains("New worker (" + w1 + ") forked");

            String proc = CliClient.send(cli, "show proc");
            assertThat(proc).startsWith("#<PID>          <type>          <reloads>       <uptime>        <version>      \n");
            assertThat(proc).containsPattern("\n" + m.pid() + " +master +0 \\[failed: 0\\] +0d00h0\\dm\\d\\ds ");
            assertThat(proc).contains("# workers\n" + w1 + " ").endsWith("# programs\n\n");
            // The prefixes route a command to the worker's own CLI.
            assertThat(CliClient.send(cli, "@1 show info")).contains("Pid: " + w1 + "\n");
            assertThat(CliClient.send(cli, "@!" + w1 + " show info")).contains("Pid: " + w1 + "\n");
            // (the two answers may fall either side of a second of uptime)
            assertThat(withoutUptimes(CliClient.send(cli, "@master show proc"))).isEqualTo(withoutUptimes(CliClient.send(cli, "show proc")));
            assertThat(CliClient.send(cli, "@2 show info")).isEqualTo("Can't find the target PID matching the prefix '@2'\n");
            assertThat(CliClient.send(cli, "help")).contains("show proc", "reload", "@!<pid>");
            try (CliClient session = CliClient.open(cli)) {
                session.write("prompt\n");
                assertThat(session.readUntil("master> ")).isEmpty();
                session.write("@1\n");
                assertThat(session.readUntil(w1 + "> ")).isEmpty();
                session.write("show info\n");
                assertThat(session.readUntil(w1 + "> ")).contains("Pid: " + w1 + "\n");
                session.write("@\n");
                assertThat(session.readUntil("master> ")).isEmpty();
            }
            assertThat(Files.getPosixFilePermissions(cli)).hasSize(2); // mode 600

            // SIGUSR2: a new worker takes over while a client keeps connecting.
            try (Clients clients = new Clients(port)) {
                await("some requests served", Duration.ofSeconds(30), () -> clients.ok.get() > 5);
                m.signal("USR2");
                awaitCount(m, "Loading success.", 2);
                await("the old worker exits", Duration.ofSeconds(30), () -> !alive(w1));
                int before = clients.ok.get();
                await("requests served by the new worker", Duration.ofSeconds(30), () -> clients.ok.get() > before + 5);
                clients.close();
                assertThat(clients.failed.get()).as("failed requests among %d", clients.ok.get()).isZero();
            }
            // The master writes the line once it has reaped the worker, a moment after the worker is gone.
            await("the master tells the old worker's exit", Duration.ofSeconds(30),
                    () -> m.stderr().contains("Former worker (" + w1 + ") exited with code 0 (Exit)"));
            assertThat(m.stderr()).contains("Reloading Fulcrum");
            List<Long> second = workers(cli);
            assertThat(second).hasSize(1).doesNotContain(w1);
            // The stats socket is the new worker's: the old one, leaving, did not remove its path.
            assertThat(CliClient.send(stats, "show info")).contains("Pid: " + second.get(0) + "\n");
            assertThat(CliClient.send(cli, "show proc")).containsPattern("master +1 \\[failed: 0\\]");

            // A configuration with an error: HAProxy's alerts, and the worker goes on.
            Files.writeString(cfg, httpConfig(global, port) + "    bindx foo\n");
            m.signal("USR2");
            awaitCount(m, "Loading failure!", 1);
            assertThat(m.stderr()).contains("parsing [" + cfg + ":11] : unknown keyword 'bindx' in 'frontend' section");
            assertThat(CliClient.send(cli, "show proc")).containsPattern("master +2 \\[failed: 1\\]")
                    .containsPattern("\n" + second.get(0) + " +worker +1 ");
            assertThat(get(port)).isTrue();

            // The master CLI's reload, once the configuration is right again.
            Files.writeString(cfg, httpConfig(global, port));
            assertThat(CliClient.send(cli, "reload")).isEmpty();
            awaitCount(m, "Loading success.", 3);
            long w3 = workers(cli).get(0);
            assertThat(w3).isNotEqualTo(second.get(0));
            assertThat(get(port)).isTrue();

            // SIGTERM to the master stops everything.
            m.signal("TERM");
            assertThat(m.awaitExit(Duration.ofSeconds(30))).as(m.stderr()).isZero();
            assertThat(alive(w3)).isFalse();
            assertThat(m.stderr()).contains("Exiting Master process...", "All workers exited. Exiting... (0)");
            assertThat(Files.exists(cli)).isFalse();
        }
    }

    @Test
    void aWorkerThatDiesTakesTheMasterDownWithItsStatus() throws Exception {
        int port = FulcrumProcess.freePort();
        Path cfg = FulcrumProcess.config(httpConfig("    master-worker", port));
        try (FulcrumProcess m = master(List.of(fulcrum()), port, "-f", cfg.toString())) {
            awaitCount(m, "Loading success.", 1);
            long worker = ProcessHandle.of(m.pid()).orElseThrow().children().findFirst().orElseThrow().pid();
            new ProcessBuilder("kill", "-KILL", Long.toString(worker)).start().waitFor();
            assertThat(m.awaitExit(Duration.ofSeconds(30))).isEqualTo(137);
            assertThat(m.stderr()).contains(
                    "[ALERT]    (" + m.pid() + ") : Current worker (" + worker + ") exited with code 137 (Killed)\n"
                            + "[ALERT]    (" + m.pid() + ") : exit-on-failure: killing every processes with SIGTERM\n",
                    "[WARNING]  (" + m.pid() + ") : All workers exited. Exiting... (137)\n");
        }
    }

    @Test
    void systemdHearsReadyReloadingAndStopping() throws Exception {
        int port = FulcrumProcess.freePort();
        Path dir = dir();
        Path cfg = Files.writeString(dir.resolve("haproxy.cfg"), httpConfig("", port));
        Path notify = dir.resolve("notify");
        Epoll.ensureAvailability(); // the native library that the test's unix datagram socket needs
        Socket socket = Socket.newSocketDomainDgram();
        try {
            socket.bind(new DomainSocketAddress(notify.toString()));
            List<String> messages = new java.util.concurrent.CopyOnWriteArrayList<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread receiver = receive(socket, messages, failure);
            try (FulcrumProcess m = master(List.of("env", "NOTIFY_SOCKET=" + notify), port, fulcrum(), "-Ws", "-f", cfg.toString())) {
                await("READY=1 in " + messages, Duration.ofSeconds(60), () -> messages.size() >= 1);
                assertThat(messages.get(0)).isEqualTo("READY=1\nMAINPID=" + m.pid() + "\nSTATUS=Ready.\n");
                m.signal("USR2");
                await("RELOADING=1 then READY=1 in " + messages, Duration.ofSeconds(60), () -> messages.size() >= 3);
                assertThat(messages.get(1)).startsWith("RELOADING=1\n");
                assertThat(messages.get(2)).startsWith("READY=1\n");
                m.signal("TERM");
                assertThat(m.awaitExit(Duration.ofSeconds(30))).isZero();
                await("STOPPING=1 in " + messages, Duration.ofSeconds(10), () -> messages.size() >= 4);
                assertThat(messages.get(3)).isEqualTo("STOPPING=1\n");
            } finally {
                receiver.interrupt();
                receiver.join(5000);
            }
            assertThat(failure.get()).isNull();
        } finally {
            socket.close();
        }
    }

    /** Reads the datagrams of a non-blocking unix socket into {@code out} until interrupted. */
    private static Thread receive(Socket socket, List<String> out, AtomicReference<Throwable> failure) {
        Thread t = new Thread(() -> {
            ByteBuffer b = ByteBuffer.allocateDirect(4096);
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    DomainDatagramSocketAddress from = socket.recvFromDomainSocket(b, 0, b.capacity());
                    if (from != null) {
                        byte[] bytes = new byte[from.receivedAmount()];
                        b.get(0, bytes);
                        out.add(new String(bytes, StandardCharsets.UTF_8));
                    } else {
                        Thread.sleep(20);
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (Throwable e) {
                    failure.set(e);
                    return;
                }
            }
        }, "notify-receiver");
        t.start();
        return t;
    }

    @Test
    void anOldWorkerPastMworkerMaxReloadsIsTerminated() throws Exception {
        try (Origin origin = Origin.start(Origin.ECHO)) {
            int port = FulcrumProcess.freePort();
            Path cfg = FulcrumProcess.config("""
                    global
                        master-worker
                        mworker-max-reloads 1
                    defaults
                        mode tcp
                        timeout connect 5s
                        timeout client 60s
                        timeout server 60s
                    listen app
                        bind 127.0.0.1:%d
                        server s1 127.0.0.1:%d
                    """.formatted(port, origin.port()));
            Path cli = dir().resolve("m.sock");
            try (FulcrumProcess m = master(List.of(fulcrum()), port, "-f", cfg.toString(), "-S", cli.toString())) {
                awaitCount(m, "Loading success.", 1);
                long w1 = workers(cli).get(0);
                try (java.net.Socket held1 = Net.connect(port)) {
                    Net.assertEcho(held1, "held by the first worker");
                    m.signal("USR2");
                    awaitCount(m, "Loading success.", 2);
                    long w2 = workers(cli).get(0);
                    // The second session must reach the second worker: once the first one has closed its listener.
                    m.awaitStderr("(" + w1 + ") : Proxy app stopped");
                    Thread.sleep(500); // the message comes just before the socket is closed
                    try (java.net.Socket held2 = Net.connect(port)) {
                        Net.assertEcho(held2, "held by the second worker");
                        String proc = CliClient.send(cli, "show proc");
                        assertThat(proc).contains("# old workers\n" + w1 + " ").containsPattern("\n" + w1 + " +worker +1 ");
                        m.signal("USR2");
                        awaitCount(m, "Loading success.", 3);
                        // The first worker survived 2 reloads (> 1): terminated; the second one (1) still serves its session.
                        await("the first worker terminated", Duration.ofSeconds(30), () -> !alive(w1));
                        assertThat(alive(w2)).isTrue();
                        Net.assertEcho(held2, "the second worker still serves");
                    }
                }
            }
        }
    }

    /**
     * Several {@code -S}, each with its level; {@code help} with words lists the matching commands, an unknown
     * command the nearest ones; raising the level is refused and ends the session. Every answer is haproxy 2.6's.
     */
    @Test
    void severalMasterCliSocketsHelpAndLevelsAsHaproxys() throws Exception {
        int port = FulcrumProcess.freePort();
        Path dir = dir();
        Path cfg = Files.writeString(dir.resolve("haproxy.cfg"), httpConfig("", port));
        Path admin = dir.resolve("admin.sock");
        Path operator = dir.resolve("operator.sock");
        try (FulcrumProcess m = master(List.of(fulcrum()), port, "-W", "-f", cfg.toString(), "-S", admin.toString(),
                "-S", operator + ",level,operator")) {
            awaitCount(m, "Loading success.", 1);
            assertThat(CliClient.send(admin, "show cli level")).isEqualTo("admin\n\n");
            assertThat(CliClient.send(operator, "show cli level")).isEqualTo("operator\n\n");
            String session = """
                      help [<command>]                        : list matching or all commands
                      prompt                                  : toggle interactive mode with prompt
                      quit                                    : disconnect
                    """;
            assertThat(CliClient.send(operator, "help show cli")).isEqualTo("""
                    The following commands are valid at this level:
                      show cli level                          : display the level of the current CLI session
                      show cli sockets                        : dump list of cli sockets
                    """ + session + "\n");
            assertThat(CliClient.send(admin, "show info")).isEqualTo("""
                    Unknown command, but maybe one of the following ones is a better match:
                      show cli level                          : display the level of the current CLI session
                      show cli sockets                        : dump list of cli sockets
                      show proc                               : show processes status
                      show version                            : show version of the current process
                    """ + session + "\n");
            assertThat(CliClient.send(admin, "show cli sockets")).isEqualTo("\n");
            assertThat(CliClient.send(operator, "user; operator; show cli level")).isEqualTo("Permission denied!\n");
            assertThat(CliClient.send(admin, "operator; user; show cli level")).isEqualTo("user\n\n");
        }
    }

    @Test
    void badConfigurationOrMasterCliFailsAsBefore() throws Exception {
        Path dir = dir();
        Path bad = dir.resolve("bad.cfg");
        Files.writeString(bad, httpConfig("", FulcrumProcess.refusedPort()) + "    bindx foo\n");
        FulcrumProcess plain = FulcrumProcess.run("-db", "-f", bad.toString());
        FulcrumProcess master = FulcrumProcess.run("-W", "-db", "-f", bad.toString());
        assertThat(master.exitValue()).isEqualTo(plain.exitValue()).isEqualTo(1);
        assertThat(master.stderr().replace("(" + master.pid() + ")", "(PID)"))
                .isEqualTo(plain.stderr().replace("(" + plain.pid() + ")", "(PID)"));

        Path good = FulcrumProcess.config(httpConfig("", FulcrumProcess.freePort()));
        FulcrumProcess option = FulcrumProcess.run("-W", "-f", good.toString(), "-S", dir.resolve("s") + ",foo,1");
        assertThat(option.exitValue()).isEqualTo(1);
        assertThat(option.stderr()).contains("unknown keyword 'foo'", "[ALERT]    (" + option.pid() + ") : config : Can't create the master's CLI.");
    }
}
