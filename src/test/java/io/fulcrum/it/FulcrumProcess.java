package io.fulcrum.it;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code bin/fulcrum} as a user does, on the packaged jar: a real process with a real config,
 * its output captured to files. Tests stop it by its PID ({@link #signal}, {@link #close}).
 */
public final class FulcrumProcess implements AutoCloseable {
    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private FulcrumProcess(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** The project directory (failsafe passes it; running from the IDE, the working directory). */
    public static Path home() {
        return Path.of(System.getProperty("fulcrum.home", ".")).toAbsolutePath().normalize();
    }

    /** Starts {@code bin/fulcrum ARGS} without waiting for anything. */
    public static FulcrumProcess start(List<String> args) throws IOException {
        return start(List.of(home().resolve("bin/fulcrum").toString()), args);
    }

    /** Starts {@code prefix... bin/fulcrum ARGS}, e.g. a wrapper that passes a listening socket. */
    public static FulcrumProcess start(List<String> prefix, List<String> args) throws IOException {
        Path dir = Files.createTempDirectory("fulcrum-it");
        Path out = dir.resolve("stdout");
        Path err = dir.resolve("stderr");
        List<String> cmd = new ArrayList<>(prefix);
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        // The server JVM gets the leak detector too: a leaked buffer shows in its stderr.
        pb.environment().put("FULCRUM_JAVA_OPTS", System.getProperty("fulcrum.test.jvm.args",
                "-Dio.netty.leakDetection.level=paranoid"));
        return new FulcrumProcess(pb.start(), out, err);
    }

    /** Binds a TCP socket on 127.0.0.1:argv[1], listening, as fd argv[2], then executes argv[3] with the arguments after it. */
    private static final String PASS_SOCKET = "import os, signal, socket, sys\n"
            + "signal.signal(signal.SIGPIPE, signal.SIG_DFL)\n"
            + "port, fd = int(sys.argv[1]), int(sys.argv[2])\n"
            + "s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
            + "s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
            + "s.bind(('127.0.0.1', port))\n"
            + "s.listen(128)\n"
            + "os.dup2(s.fileno(), fd)\n"
            + "os.set_inheritable(fd, True)\n"
            + "s.close()\n"
            + "os.execv(sys.argv[3], sys.argv[3:])\n";

    /**
     * The prefix of a command ({@link #start(List, List)}; the program to run comes next) that starts it with a socket
     * listening on 127.0.0.1:{@code port} as its file descriptor {@code fd}, for {@code fd@<fd>} addresses.
     */
    public static List<String> passingListener(int port, int fd) {
        return List.of("python3", "-c", PASS_SOCKET, Integer.toString(port), Integer.toString(fd));
    }

    /** Starts Fulcrum in the foreground on {@code config} and waits until {@code port} accepts connections. */
    public static FulcrumProcess serve(Path config, int port, String... extraArgs) throws IOException {
        List<String> args = new ArrayList<>(List.of("-db", "-f", config.toString()));
        args.addAll(List.of(extraArgs));
        FulcrumProcess p = start(args);
        p.awaitPort(port, Duration.ofSeconds(60));
        return p;
    }

    /** Runs {@code bin/fulcrum ARGS} to completion (e.g. {@code -c}); returns the finished process. */
    public static FulcrumProcess run(String... args) throws IOException, InterruptedException {
        FulcrumProcess p = start(List.of(args));
        if (!p.process.waitFor(60, TimeUnit.SECONDS)) {
            p.process.destroyForcibly();
            throw new AssertionError("fulcrum " + String.join(" ", args) + " did not finish in 60 s");
        }
        return p;
    }

    /** Waits until {@code port} on 127.0.0.1 accepts a connection; fails if the process died first. */
    public void awaitPort(int port, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("fulcrum exited with " + process.exitValue() + " before listening on " + port
                        + "\nstderr:\n" + stderr());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException e) {
                sleep(50);
            }
        }
        throw new AssertionError("fulcrum not listening on " + port + " after " + timeout + "\nstderr:\n" + stderr());
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Sends a signal by name (INT, TERM, USR1...) to this process only. */
    public void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + name + " " + process.pid() + " failed");
        }
    }

    /** Waits for the exit and returns its status; fails after {@code timeout}. */
    public int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("fulcrum still running after " + timeout);
        }
        return process.exitValue();
    }

    public int exitValue() {
        return process.exitValue();
    }

    public String stdout() {
        return read(stdout);
    }

    public String stderr() {
        return read(stderr);
    }

    /** Waits until stderr contains {@code text} (60 s at most: CI boxes are loaded), failing with what it holds. */
    public void awaitStderr(String text) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!stderr().contains(text)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + text + "\nstderr:\n" + stderr());
            }
            Thread.sleep(50);
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "<unreadable: " + e + ">";
        }
    }

    /** The first port of the kernel's ephemeral range (where outgoing connections take their source ports). */
    private static final int EPHEMERAL = ephemeralStart();
    /** The ports failsafe's forks share out below {@link #EPHEMERAL}. */
    private static final int SHARED_LOW = 20000;
    private static final int FORKS = Math.max(1, Integer.getInteger("fulcrum.it.forks", 1));
    /** This JVM's index among the forks, from 0. */
    private static final int FORK = forkIndex();
    /** This fork's slice of the shared ports: two forks never hand out the same port. */
    private static final int LOW = SHARED_LOW + FORK * Math.max(0, EPHEMERAL - SHARED_LOW) / FORKS;
    private static final int HIGH = SHARED_LOW + (FORK + 1) * Math.max(0, EPHEMERAL - SHARED_LOW) / FORKS;
    /** Ports of this fork's slice handed out in turn from a random start, each once in a run. */
    private static final java.util.concurrent.atomic.AtomicInteger NEXT =
            new java.util.concurrent.atomic.AtomicInteger(new java.util.Random().nextInt(Math.max(1, HIGH - LOW)));

    /**
     * A TCP port free on 127.0.0.1 at the time of the call, below the ephemeral range: a port found free inside it
     * may become the source port of any outgoing connection (a pool's, a check's) before the proxy binds it.
     */
    public static int freePort() throws IOException {
        int span = HIGH - LOW;
        for (int i = 0; span > 0 && i < span; i++) {
            int port = LOW + Math.floorMod(NEXT.getAndIncrement(), span);
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port), 1);
                return port;
            } catch (IOException taken) {
                // in use: the next one
            }
        }
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /**
     * From failsafe's surefire.forkNumber (1, 2...). Without it every fork would hand out the same slice and two
     * servers could share a port through SO_REUSEPORT, each answering the other's test: fail instead.
     */
    private static int forkIndex() {
        String n = System.getProperty("fulcrum.it.fork", "1").trim();
        try {
            return Math.floorMod(Integer.parseInt(n) - 1, FORKS);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("system property fulcrum.it.fork is '" + n + "', not a fork number");
        }
    }

    private static int ephemeralStart() {
        try {
            // By lines: JDK 25's Files.readString reads one byte of this /proc file (its size says 0).
            return Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32768; // Linux's default
        }
    }

    /** Bound, never listening sockets that keep their ports refused until the JVM exits. */
    private static final List<SocketChannel> REFUSING = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * A port on 127.0.0.1 that refuses connections for the rest of the run. A port merely found free may be
     * reused: by a listener, or as the ephemeral source port of a connect to that very port, which Linux then
     * completes as a simultaneous open with itself. A bound socket that never listens answers every SYN with a
     * reset and keeps the kernel from handing its port out.
     */
    public static int refusedPort() throws IOException {
        SocketChannel s = SocketChannel.open();
        s.bind(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0));
        REFUSING.add(s);
        return ((InetSocketAddress) s.getLocalAddress()).getPort();
    }

    /** Writes a config file in a temporary directory. */
    public static Path config(String text) throws IOException {
        Path f = Files.createTempDirectory("fulcrum-cfg").resolve("test.cfg");
        Files.writeString(f, text);
        return f;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the process (TERM, then KILL after 10 s) and fails the test if Netty reported a leak. */
    @Override
    public void close() throws Exception {
        if (process.isAlive()) {
            signal("TERM");
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
        String err = stderr();
        if (err.contains("LEAK:")) {
            throw new AssertionError("Netty reported a buffer leak in the server:\n" + err);
        }
    }
}
