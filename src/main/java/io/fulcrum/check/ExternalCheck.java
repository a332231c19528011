package io.fulcrum.check;

import io.fulcrum.backend.Backend;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.listener.BindList;
import io.fulcrum.listener.BindSpec;
import io.fulcrum.proxy.Mode;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.server.Server;
import io.fulcrum.tls.CheckTls;
import io.netty.channel.EventLoop;

import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A server's external check ({@code option external-check}): runs {@code external-check command} with HAProxy's
 * arguments ({@code <proxy_address> <proxy_port> <server_address> <server_port>}) and its environment alone (the
 * HAPROXY_* variables and PATH from {@code external-check path}), exit status 0 passing. The process is started and
 * waited for on a virtual thread, never on an event loop; one that outlives the check's timeout is killed, its
 * children with it. The result goes back to the checks' loop.
 */
final class ExternalCheck {
    /** HAProxy's word for an address or port that does not apply. */
    private static final String NOT_USED = "NOT_USED";
    /** What a command HAProxy cannot execute exits with (its child's exit(-1)). */
    private static final int EXEC_FAILED = 255;

    private final Backend backend;
    private final Server server;
    private final String command;
    private final String path;
    /** The first IPv4, IPv6 or unix listener's address and port as arguments ("NOT_USED" without one) and as variables. */
    private final String proxyAddrArg;
    private final String proxyPortArg;
    private final String proxyAddr;
    private final String proxyPort;
    private final boolean ssl;
    private final String proto;
    /** The process of the run in progress, killed when the checks stop. */
    private volatile Process running;

    ExternalCheck(ProxySpec proxy, ProxyChecks checks, Backend backend, Server server) {
        this.backend = backend;
        this.server = server;
        this.command = checks.externalCommand;
        this.path = checks.externalPath == null ? "" : checks.externalPath;
        Endpoint first = firstListener(proxy);
        if (first instanceof Endpoint.Inet inet) {
            proxyAddrArg = proxyAddr = inet.host().getHostAddress();
            proxyPortArg = proxyPort = Integer.toString(inet.port());
        } else if (first instanceof Endpoint.Unix unix) {
            proxyAddrArg = proxyAddr = unix.path();
            proxyPortArg = NOT_USED;
            proxyPort = "";
        } else {
            proxyAddrArg = proxyPortArg = NOT_USED;
            proxyAddr = proxyPort = "";
        }
        this.ssl = CheckTls.serverUsesTls(server.spec());
        this.proto = backend.mode() == Mode.HTTP ? "h1" : "tcp";
    }

    private static Endpoint firstListener(ProxySpec proxy) {
        BindList binds = proxy.partOrNull(BindList.class);
        for (BindSpec b : binds == null ? List.<BindSpec>of() : binds.binds) {
            for (Endpoint e : b.endpoints()) {
                if (e instanceof Endpoint.Inet || e instanceof Endpoint.Unix) {
                    return e;
                }
            }
        }
        return null;
    }

    /** Runs the command once, off the loop, and gives its result to {@code done} on {@code loop}. */
    void start(long timeoutMillis, EventLoop loop, Consumer<CheckResult> done) {
        String program = resolve(command, path);
        if (program == null) {
            done.accept(new CheckResult(CheckStatus.PROCERR, EXEC_FAILED, "", 0));
            return;
        }
        ProcessBuilder pb = builder(program);
        Thread.ofVirtual().name("external-check " + server.id()).start(() -> {
            CheckResult r = run(pb, timeoutMillis);
            if (r != null) {
                loop.execute(() -> done.accept(r));
            }
        });
    }

    /** The result, or null when the checks were stopped meanwhile. */
    private CheckResult run(ProcessBuilder pb, long timeoutMillis) {
        long start = System.nanoTime();
        try {
            Process p = pb.start();
            running = p;
            try {
                if (p.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
                    int code = p.exitValue();
                    return new CheckResult(code == 0 ? CheckStatus.PROCOK : CheckStatus.PROCERR, code, "", since(start));
                }
                kill(p);
                return new CheckResult(CheckStatus.PROCTOUT, 0, "", since(start));
            } finally {
                running = null;
            }
        } catch (IOException e) {
            return new CheckResult(CheckStatus.PROCERR, EXEC_FAILED, "", since(start));
        } catch (InterruptedException e) {
            return null;
        }
    }

    /** Kills the run in progress, if any (the process's end). */
    void stop() {
        Process p = running;
        if (p != null) {
            kill(p);
        }
    }

    /** Kills the process, then the children it started (listed first: once it is gone they are no longer its own). */
    private static void kill(Process p) {
        List<ProcessHandle> children = p.descendants().toList();
        p.destroyForcibly();
        children.forEach(ProcessHandle::destroyForcibly);
    }

    private static long since(long start) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    /** The command line and environment of one run, read on the loop (the server's address may change at run time). */
    private ProcessBuilder builder(String program) {
        String serverAddr;
        String serverPort;
        if (server.endpoint() instanceof Endpoint.Unix unix) {
            serverAddr = unix.path();
            serverPort = "";
        } else {
            serverAddr = server.endpoint() instanceof Endpoint.Inet inet ? inet.host().getHostAddress() : "";
            serverPort = Integer.toString(server.address().port());
        }
        ProcessBuilder pb = new ProcessBuilder(program, proxyAddrArg, proxyPortArg, serverAddr,
                serverPort.isEmpty() ? NOT_USED : serverPort);
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.redirectOutput(ProcessBuilder.Redirect.INHERIT);
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        Map<String, String> env = pb.environment();
        env.clear(); // as HAProxy: the command sees its own variables, not the process's
        env.put("PATH", path);
        env.put("HAPROXY_PROXY_ADDR", proxyAddr);
        env.put("HAPROXY_PROXY_ID", Integer.toString(backend.numericId()));
        env.put("HAPROXY_PROXY_NAME", backend.name());
        env.put("HAPROXY_PROXY_PORT", proxyPort);
        env.put("HAPROXY_SERVER_ADDR", serverAddr);
        env.put("HAPROXY_SERVER_CURCONN", Long.toString(server.streams().current()));
        env.put("HAPROXY_SERVER_ID", Integer.toString(server.numericId()));
        env.put("HAPROXY_SERVER_MAXCONN", Integer.toString(server.spec().maxconn));
        env.put("HAPROXY_SERVER_NAME", server.name());
        env.put("HAPROXY_SERVER_PORT", serverPort);
        env.put("HAPROXY_SERVER_SSL", ssl ? "1" : "0");
        env.put("HAPROXY_SERVER_PROTO", proto);
        return pb;
    }

    /**
     * The command as execvp finds it: as written when it has a slash, else in the directories of {@code path} (an
     * empty entry is the current directory), null when none has it. Java would search its own PATH instead.
     */
    static String resolve(String command, String path) {
        if (command.indexOf('/') >= 0) {
            return command;
        }
        for (String dir : path.split(":", -1)) {
            File f = new File(dir.isEmpty() ? "." : dir, command);
            if (f.isFile() && f.canExecute()) {
                return f.getPath();
            }
        }
        return null;
    }
}
