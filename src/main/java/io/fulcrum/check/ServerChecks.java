package io.fulcrum.check;

import io.fulcrum.backend.Backend;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.runtime.EventLoops;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerState;
import io.fulcrum.server.ServerState.Op;
import io.fulcrum.server.Observation;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A server's health check and agent check: runs them on one event loop at their intervals, counts
 * successes and failures against {@code rise} and {@code fall} (HAProxy's health counter), and moves the
 * server's state. Everything but the CLI's requests runs on that loop; those are posted to it.
 */
public final class ServerChecks {
    private final Backend backend;
    /** The process's node name ({@code node}, else the host's), which {@code http-check send-state} tells. */
    private final String node;
    private final Server server;
    private final ServerCheckSpec spec;
    private final ProxyChecks proxy;
    private final List<CheckRule> rules;
    /** The external check that replaces the rules ({@code option external-check}), or null. */
    private final ExternalCheck external;
    private final EventLoops loops;
    private final EventLoop loop;
    private final long connectTimeout;
    private final int spreadPercent;
    private volatile boolean healthEnabled;
    private volatile boolean agentEnabled;
    /** {@code port} or {@code set server check-port}; 0 follows the server's port. */
    private volatile int checkPort;
    /** {@code addr} or {@code set server check-addr}; null follows the server's address. */
    private volatile InetAddress checkAddr;
    /** {@code agent-addr} or {@code set server agent-addr}; null follows the server's address. */
    private volatile InetAddress agentAddr;
    /** {@code agent-port} or {@code set server agent-port}. */
    private volatile int agentPort;
    /** {@code agent-send} or {@code set server agent-send}; null or empty sends nothing. */
    private volatile String agentSend;
    /** {@code agent-inter} or {@code set server agent-inter}, in ms. */
    private volatile long agentInter;
    /** {@code pp2-never-send-local}. */
    private final boolean pp2NeverSendLocal;
    /** HAProxy's health: 0..rise-1 is down, rise..rise+fall-1 up. Written on the loop, read by the CLI and stats. */
    private volatile int health;
    private volatile boolean agentUp = true;
    private volatile boolean healthRunning;
    private volatile boolean agentRunning;
    private volatile CheckResult lastHealth = CheckResult.NONE;
    private volatile CheckResult lastAgent = CheckResult.NONE;
    /** The server was in maintenance at the last state change this checker saw (read by the stats too). */
    private volatile boolean sawMaintenance;
    private CheckStatus lastStatus = CheckStatus.INI;
    private CheckStatus lastAgentStatus = CheckStatus.INI;
    /**
     * The process stops: no check starts, and none that ends counts (the loops close their connections as they stop,
     * which would look like the servers' doing). Set by the stopping thread before the loops are shut down.
     */
    private volatile boolean stopped;
    /** The next health check, when none runs (what {@code on-error} brings forward to {@code fastinter}). */
    private ScheduledFuture<?> nextHealth;
    /** {@code observe}: errors of the traffic in a row (written by the streams' loops). */
    private final AtomicInteger consecutiveErrors = new AtomicInteger();
    /** {@code hanafail}: the times {@code error-limit} errors in a row were reached. Written on the loop. */
    private volatile long analysisFailures;

    ServerChecks(Backend backend, Server server, ServerCheckSpec spec, ProxyChecks proxy, List<CheckRule> rules, ExternalCheck external,
                 EventLoops loops, long connectTimeout, int spreadPercent, boolean pp2NeverSendLocal, String node) {
        this.backend = backend;
        this.node = node;
        this.server = server;
        this.spec = spec;
        this.proxy = proxy;
        this.rules = rules;
        this.external = external;
        this.loops = loops;
        this.loop = loops.next();
        this.connectTimeout = connectTimeout;
        this.spreadPercent = spreadPercent;
        this.pp2NeverSendLocal = pp2NeverSendLocal;
        this.healthEnabled = spec.check;
        this.agentEnabled = spec.agent;
        this.checkPort = spec.port;
        this.agentInter = spec.agentInter;
        this.checkAddr = spec.addr;
        // As HAProxy: agent-addr, else the checks' addr (whichever keyword came first), else the server's address;
        // set server check-addr later moves the checks only.
        this.agentAddr = spec.agentAddr != null ? spec.agentAddr : spec.addr;
        this.agentPort = spec.agentPort;
        this.agentSend = spec.agentSend;
        if (server.spec().disabled || server.spec().dynamic && !server.spec().enabled) {
            // HAProxy starts a disabled server's health at 0, checked or not, and a server added in maintenance's
            this.health = 0;
            this.sawMaintenance = true;
        } else if (!spec.check) {
            this.health = spec.rise;
        } else {
            this.health = switch (spec.initState) {
                case FULLY_UP -> max();
                case UP -> spec.rise;
                case DOWN -> spec.rise - 1;
                case FULLY_DOWN -> 0;
            };
            if (health < spec.rise) {
                server.state().initially(Op.STOPPED);
            }
        }
        server.onChange(() -> loop.execute(this::followAdmin));
        if (spec.check && spec.observe != ServerCheckSpec.Observe.NONE) {
            server.observer(this::observed);
        }
    }

    /**
     * Entering maintenance zeroes the health (HAProxy's srv_update_status()); leaving it starts an enabled
     * check again from "just up", so that one failure takes the server down.
     */
    private void followAdmin() {
        if (server.state().inMaintenance()) {
            health = 0;
            sawMaintenance = true;
        } else if (sawMaintenance) {
            health = healthAfterMaintenance();
            sawMaintenance = false;
        }
    }

    private int healthAfterMaintenance() {
        return spec.check && healthEnabled ? spec.rise : health;
    }

    public Server server() {
        return server;
    }

    private int max() {
        return spec.rise + spec.fall - 1;
    }

    /** The interval the health check starts with (HAProxy's srv_getinter() of the starting health). */
    long healthInterval() {
        return interval();
    }

    long agentInterval() {
        return agentInter;
    }

    /** Starts the health check after {@code delay} ms. */
    void startHealth(long delay) {
        loop.execute(() -> nextHealth = loop.schedule(this::runHealth, delay, TimeUnit.MILLISECONDS));
    }

    /** Starts the agent check after {@code delay} ms. */
    void startAgent(long delay) {
        loop.schedule(this::runAgent, delay, TimeUnit.MILLISECONDS);
    }

    void stop() {
        stopped = true;
        if (external != null) {
            external.stop();
        }
    }

    private void runHealth() {
        if (stopped) {
            return;
        }
        if (!healthEnabled || server.state().inMaintenance() || external == null && !(server.endpoint() instanceof Endpoint.Inet)) {
            nextHealth = loop.schedule(this::runHealth, spread(spec.inter), TimeUnit.MILLISECONDS);
            return;
        }
        long connect = connectBound(spec.inter);
        healthRunning = true;
        Consumer<CheckResult> done = r -> {
            healthRunning = false;
            if (stopped) {
                return;
            }
            healthResult(r);
            nextHealth = loop.schedule(this::runHealth, spread(interval()), TimeUnit.MILLISECONDS);
        };
        if (external != null) {
            // HAProxy bounds an external check by inter, or by the connect timeout when 'timeout check' is set too.
            external.start(connect, loop, done);
            return;
        }
        InetAddress addr = checkAddr;
        InetAddress host = addr != null ? addr : ((Endpoint.Inet) server.endpoint()).host();
        boolean on404 = proxy.disableOn404 && health >= spec.rise;
        CheckRun.Target t = new CheckRun.Target(backend, server, new InetSocketAddress(host, port()), proxyVersion(), !pp2NeverSendLocal, spec.viaSocks4,
                connect, proxy.timeout,
                proxy.explicit(), on404, proxy.sendState ? this::stateHeader : null, spec.tls, spec.ruleTls);
        new CheckRun(loops, loop, t, rules, done).start();
    }

    private void runAgent() {
        if (stopped) {
            return;
        }
        // The agent runs in maintenance too: its "ready" is what may end it.
        if (!agentEnabled || !(server.endpoint() instanceof Endpoint.Inet inet)) {
            loop.schedule(this::runAgent, spread(agentInter), TimeUnit.MILLISECONDS);
            return;
        }
        InetAddress addr = agentAddr;
        InetAddress host = addr != null ? addr : inet.host();
        CheckRun.Target t = new CheckRun.Target(backend, server, new InetSocketAddress(host, agentPort), 0, false, false,
                connectBound(agentInter), proxy.timeout, false, false, null, null, Map.of());
        String send = agentSend;
        // As HAProxy's agent rule set, a send (of nothing without agent-send) then the read: its step is 2.
        List<CheckRule> agentRules = List.of(CheckRule.Send.of((send == null ? "" : send).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1)),
                AgentAnswer.READ);
        agentRunning = true;
        new CheckRun(loops, loop, t, agentRules, r -> {
            agentRunning = false;
            if (stopped) {
                return;
            }
            agentResult(r);
            loop.schedule(this::runAgent, spread(agentInter), TimeUnit.MILLISECONDS);
        }).start();
    }

    /**
     * What a transaction told of the server ({@code observe}, HAProxy's health_adjust()): layer 4 looks at connections,
     * layer 7 at connection failures and HTTP responses; a success clears the count of errors in a row, and
     * {@code error-limit} of them act as {@code on-error} says.
     */
    private void observed(Observation o) {
        boolean layer4 = spec.observe == ServerCheckSpec.Observe.LAYER4;
        if (layer4 ? !o.layer4 : o == Observation.L4_OK) {
            return;
        }
        if (!o.error) {
            consecutiveErrors.set(0);
            return;
        }
        int n = consecutiveErrors.incrementAndGet();
        if (n == spec.errorLimit) {
            consecutiveErrors.set(0);
            // HAProxy's verdict and its DOWN line come while the stream that saw the error still counts on the server.
            int active = server.streams().current();
            loop.execute(() -> analysed(n, o, active));
        }
    }

    /** {@code error-limit} errors in a row; {@code active}: the server's streams when the last one was seen. */
    private void analysed(int errors, Observation last, int active) {
        if (stopped) {
            return;
        }
        analysisFailures++; // whatever on-error does, fastinter included, as HAProxy counts it
        // No duration: HAProxy's lines then say none, and show stat none (haproxy 2.6 prints -1 as an unsigned 64-bit number)
        CheckResult r = new CheckResult(CheckStatus.HANA, 0, "Detected " + errors + " consecutive errors, last one was: " + last.words, -1);
        switch (spec.onError) {
            case FASTINTER -> { }
            case SUDDEN_DEATH -> {
                health = Math.min(health, spec.rise + 1); // one more failure takes it down
                healthResult(r, active);
            }
            case FAIL_CHECK -> healthResult(r, active);
            case MARK_DOWN -> {
                health = Math.min(health, spec.rise);
                healthResult(r, active);
            }
        }
        if (spec.fastinter > 0 && !healthRunning && nextHealth != null && nextHealth.getDelay(TimeUnit.MILLISECONDS) > spec.fastinter) {
            nextHealth.cancel(false);
            nextHealth = loop.schedule(this::runHealth, spec.fastinter, TimeUnit.MILLISECONDS);
        }
    }

    /** How long its connect may take: the shorter of the interval and {@code timeout connect} when {@code timeout check} is set. */
    private long connectBound(long inter) {
        return proxy.timeout > 0 && connectTimeout > 0 ? Math.min(connectTimeout, inter) : inter;
    }

    /** HAProxy's srv_getinter(): downinter while down, fastinter while changing, else inter. */
    private long interval() {
        if (health == 0 && spec.downinter > 0) {
            return spec.downinter;
        }
        if (health != max() && spec.fastinter > 0) {
            return spec.fastinter;
        }
        return spec.inter;
    }

    /** {@code spread-checks}: up to that percentage of noise either way. */
    private long spread(long interval) {
        return interval + noise(interval);
    }

    /** The {@code spread-checks} noise of {@code interval}: a random amount within that percentage of it, either way. */
    long noise(long interval) {
        if (spreadPercent == 0) {
            return 0;
        }
        long range = interval * spreadPercent / 100;
        return ThreadLocalRandom.current().nextLong(-range, range + 1);
    }

    /** A health check's result: the health counter, the log line, the server's new state (HAProxy's check.c). */
    void healthResult(CheckResult r) {
        healthResult(r, -1);
    }

    /** The same, a DOWN line telling {@code active} sessions (negative: the server's now). */
    private void healthResult(CheckResult r, int active) {
        ServerState st = server.state();
        if (st.op() != Op.STOPPED && health < spec.rise) {
            health = spec.rise; // back from maintenance or set up by the CLI: one failure takes it down again
        }
        boolean failed = !r.status().passed();
        lastHealth = r;
        boolean log = proxy.logHealthChecks && (r.status() != lastStatus || failed && health != 0 || !failed && health != max());
        lastStatus = r.status();
        if (failed) {
            if (health > 0) {
                st.checkFailed(); // HAProxy counts the failures of a server that is not already down
                health--;
                if (health < spec.rise) {
                    health = 0;
                }
            }
        } else if (health < max()) {
            health++;
            if (health >= spec.rise) {
                health = max();
            }
        }
        if (log) {
            server.state().group().events().notice(checkFor("Health") + (failed ? " failed"
                    : r.status() == CheckStatus.L7OKC ? " conditionally succeeded" : " succeeded") + ", reason: " + r.checkReason() + ", status: " + status(health, spec.rise, spec.fall) + ".");
        }
        String why = proxy.logHealthChecks ? "" : ", reason: " + r.reason();
        if (failed && health == 0) {
            st.setOp(Op.STOPPED, why, active);
        } else if (!failed && health >= spec.rise && (agentUp || !agentEnabled)) {
            st.setOp(r.status() == CheckStatus.L7OKC ? Op.STOPPING : Op.RUNNING, why);
        }
    }

    /** An agent's answer: weights, admin states and maxconn applied at once; "up" and "down" move the server. */
    void agentResult(CheckResult r) {
        ServerState st = server.state();
        if (r.status() == CheckStatus.L7RSP && !r.info().startsWith(CheckRun.EMPTY_RESPONSE)) {
            // A line without CR or LF: HAProxy ignores it, keeping the agent's status with these words; an agent that
            // never answered before has no status to keep, and its run ends as a timeout (no words).
            if (lastAgentStatus != CheckStatus.INI) {
                lastAgent = new CheckResult(lastAgentStatus, lastAgent.code(), "Ignoring incomplete line from agent", r.durationMillis());
                return;
            }
            r = new CheckResult(CheckStatus.L7TOUT, 0, "", r.durationMillis());
        }
        if (!r.status().passed()) {
            lastAgent = r;
            if (proxy.logHealthChecks && r.status() != lastAgentStatus) {
                st.group().events().notice(checkFor("Agent") + " failed, reason: " + r.reason() + ", status: "
                        + status(agentUp ? 1 : 0, 1, 1) + ".");
            }
            lastAgentStatus = r.status();
            return; // not reaching the agent says nothing about the server
        }
        lastAgent = r;
        AgentAnswer a = AgentAnswer.parse(r.info());
        if (a.admin() != null) {
            switch (a.admin()) {
                case "ready" -> {
                    st.clearAdmin(ServerState.FMAINT);
                    st.clearAdmin(ServerState.FDRAIN);
                }
                case "drain" -> st.setAdmin(ServerState.FDRAIN);
                default -> st.setAdmin(ServerState.FMAINT);
            }
        }
        if (a.weightPercent() >= 0) {
            st.setWeight((int) Math.min(256, (long) st.initialWeight() * a.weightPercent() / 100));
            if ((st.admin() & ServerState.FDRAIN) != 0 && !st.inMaintenance()) {
                st.group().events().notice(st.named() + " remains in forced drain mode."); // as HAProxy, at each weight
            }
        }
        String warning = a.maxconn() == null ? null : server.changeMaxconn(a.maxconn());
        String report = a.report(warning);
        if (a.state() == null) {
            // HAProxy: "No status change", or what it found odd
            lastAgent = new CheckResult(CheckStatus.CHECKED, 0, report == null ? "" : report, r.durationMillis());
            lastAgentStatus = CheckStatus.CHECKED;
            return;
        }
        boolean up = a.state().equals("up");
        CheckResult said = new CheckResult(up ? CheckStatus.L7OK : CheckStatus.L7STS, 0, report, r.durationMillis());
        boolean log = proxy.logHealthChecks && (said.status() != lastAgentStatus || up != agentUp);
        lastAgent = said;
        lastAgentStatus = said.status();
        agentUp = up;
        if (log) {
            st.group().events().notice(checkFor("Agent") + (up ? " succeeded" : " failed") + ", reason: "
                    + said.reason() + ", status: " + status(up ? 1 : 0, 1, 1) + ".");
        }
        String why = proxy.logHealthChecks ? "" : ", reason: " + said.reason();
        if (!up) {
            st.setOp(Op.STOPPED, why);
        } else if (!healthEnabled || health >= spec.rise) {
            st.setOp(Op.RUNNING, why);
        }
    }

    /** "Health check for server be/s1", "Agent check for backup server be/b1": how HAProxy's check lines begin. */
    private String checkFor(String kind) {
        return kind + " check for " + (server.spec().backup ? "backup " : "") + "server " + server.id();
    }

    /** "2/3 UP", "0/2 DOWN": where the health counter stands, as the log lines show it. */
    private String status(int h, int rise, int fall) {
        if (h < rise) {
            return h + "/" + rise + " DOWN";
        }
        ServerState st = server.state();
        String word = st.op() == Op.STOPPING ? "NOLB" : st.draining() || st.weight() == 0 ? "DRAIN" : "UP";
        return (h - rise + 1) + "/" + fall + " " + word;
    }

    /**
     * The {@code x-haproxy-server-state} value of {@code http-check send-state}, as HAProxy's httpchk_build_status_header():
     * "UP", "UP 1/2" (going down), "NOLB", "NOLB 1/2", "DOWN", "DOWN 1/2" (going up); the server's own address and port;
     * its weight and the weight of the servers in use; its streams and the backend's not queued; its queue; during a
     * slow start, how far it has come.
     */
    private String stateHeader() {
        ServerState st = server.state();
        StringBuilder sb = new StringBuilder();
        if (st.op() != Op.STOPPED) {
            sb.append(st.op() == Op.STOPPING ? "NOLB" : "UP");
            if (health != max()) {
                sb.append(' ').append(health - spec.rise + 1).append('/').append(spec.fall);
            }
        } else {
            sb.append("DOWN");
            if (health > 0) {
                sb.append(' ').append(health).append('/').append(spec.rise);
            }
        }
        InetAddress a = server.endpoint() instanceof Endpoint.Inet i ? i.host() : null;
        sb.append("; address=").append(a == null ? "" : a.getHostAddress()).append("; port=").append(a == null ? "" : server.address().port())
                .append("; name=").append(server.id()).append("; node=").append(node).append("; weight=").append(st.weight()).append('/')
                .append(backend.usedWeight()).append("; scur=").append(server.streams().current()).append('/')
                .append(backend.streams().current() - backend.queued()).append("; qcur=").append(backend.queued(server));
        int throttle = backend.slowStartPercent(server);
        if (throttle >= 0) {
            sb.append("; throttle=").append(throttle).append('%');
        }
        return sb.toString();
    }

    /** The port checks connect to. */
    /**
     * The PROXY protocol version of the health checks: check-send-proxy's, or the server's send-proxy when the checks
     * go where the traffic goes (no check port nor addr), as HAProxy has it; 0: none.
     */
    private int proxyVersion() {
        if (!spec.sendProxy && (spec.port != 0 || spec.addr != null)) {
            return 0;
        }
        return server.sendProxy() > 0 ? server.sendProxy() : spec.sendProxy ? 1 : 0;
    }

    private int port() {
        int p = checkPort;
        return p != 0 ? p : server.address().port();
    }

    // ---- what the CLI and the stats ask (any thread)

    /** The health check as the stats report it. */
    public CheckView health() {
        ServerState st = server.state();
        boolean enabled = healthEnabled;
        int state = (spec.check ? CheckView.CONFIGURED : 0) | (enabled ? CheckView.ENABLED : 0)
                | (healthRunning && enabled ? CheckView.IN_PROGRESS : 0)
                | (st.inMaintenance() && enabled || !spec.check && (st.admin() & ServerState.CMAINT) != 0 ? CheckView.PAUSED : 0);
        // The counter follows an admin change on the checks' loop, a moment after the CLI made it: until then the
        // stats show what it is about to be, as HAProxy's, which changes both at once.
        int shown = st.inMaintenance() ? 0 : sawMaintenance ? healthAfterMaintenance() : health;
        return view(state, lastHealth, healthRunning, spec.rise, spec.fall, shown);
    }

    /** The agent check as the stats report it (HAProxy's agent: rise 1, fall 1). */
    public CheckView agent() {
        boolean enabled = agentEnabled;
        int state = (spec.agent ? CheckView.AGENT | CheckView.CONFIGURED : 0) | (enabled ? CheckView.ENABLED : 0)
                | (agentRunning && enabled ? CheckView.IN_PROGRESS : 0);
        return view(state, lastAgent, agentRunning, 1, 1, agentUp ? 1 : 0);
    }

    private static CheckView view(int state, CheckResult r, boolean running, int rise, int fall, int health) {
        int result = running || !r.status().finished() ? 0 : r.status() == CheckStatus.CHECKED ? 1 : r.status() == CheckStatus.L7OKC ? 4 : r.status().passed() ? 3 : 2;
        // A check that starts clears what the last one found (HAProxy's HCHK_STATUS_START); its status and code stay.
        String info = running || r.info() == null ? "" : r.info();
        return new CheckView(state, r.status(), result, r.code(), r.durationMillis(), info, rise, fall, health);
    }

    /** {@code set server health up|stopping|down}: the counter set as HAProxy's CLI sets it, before the call returns. */
    public void forceHealth(Op op) {
        onLoop(() -> setHealth(op, ", changed from CLI"));
    }

    /**
     * The same from an event loop (the stats page's form): done on the checks' loop, without waiting for it.
     *
     * @param why what the log line says after "is UP" (", changed from Web interface")
     */
    public void forceHealthLater(Op op, String why) {
        loop.execute(() -> setHealth(op, why));
    }

    private void setHealth(Op op, String why) {
        health = op == Op.STOPPED ? 0 : max();
        server.state().setOp(op, why);
    }

    /**
     * The state a server-state file saved, before the checks start: the counter as HAProxy sets it (down: 0; up:
     * full; stopping: below {@code rise}), then the state, logged unless it is up.
     */
    void restoreHealth(Op op, String why) {
        switch (op) {
            case STOPPED -> health = 0;
            case RUNNING -> health = max();
            default -> {
                if (health < 1 || health >= spec.rise) {
                    health = spec.rise - 1;
                }
            }
        }
        server.state().setOp(op, op == Op.RUNNING ? "" : why);
    }

    /** Its {@code rise}. */
    int rise() {
        return spec.rise;
    }

    /** {@code set server agent up|down}. */
    public void forceAgent(boolean up) {
        onLoop(() -> setAgent(up, ", changed from CLI"));
    }

    /** The same from an event loop (the stats page's form), without waiting. */
    public void forceAgentLater(boolean up, String why) {
        loop.execute(() -> setAgent(up, why));
    }

    private void setAgent(boolean up, String why) {
        agentUp = up;
        if (!up) {
            server.state().setOp(Op.STOPPED, why);
        } else if (!healthEnabled || health >= spec.rise) {
            server.state().setOp(Op.RUNNING, why);
        }
    }

    /** Runs {@code task} on the checks' loop and waits for it (the CLI runs on its own threads). */
    private void onLoop(Runnable task) {
        loop.submit(task).syncUninterruptibly();
    }

    /** Whether {@code observe} watches the traffic (the stats then show {@code hanafail}, checked or not). */
    public boolean observes() {
        return spec.observe != ServerCheckSpec.Observe.NONE;
    }

    /** {@code hanafail}: the failed health analyses of the traffic ({@code observe}, {@code error-limit}). */
    public long analysisFailures() {
        return analysisFailures;
    }

    public boolean hasHealthCheck() {
        return spec.check;
    }

    public boolean hasAgent() {
        return spec.agent;
    }

    public boolean healthEnabled() {
        return healthEnabled;
    }

    public boolean agentEnabled() {
        return agentEnabled;
    }

    public void healthEnabled(boolean on) {
        healthEnabled = on;
    }

    public void agentEnabled(boolean on) {
        agentEnabled = on;
    }

    /** The {@code port} of the checks, 0 when they follow the server's. */
    public int checkPort() {
        return checkPort;
    }

    /**
     * {@code set server check-addr|check-port}: the address (null: unchanged) and the port (negative: unchanged) of
     * the next health checks, both set on the checks' loop so that no check starts with half of the change.
     */
    void moveHealth(InetAddress addr, int port) {
        onLoop(() -> {
            if (addr != null) {
                checkAddr = addr;
            }
            if (port >= 0) {
                checkPort = port;
            }
        });
    }

    /** {@code set server agent-addr|agent-port}: the same for the agent check. */
    void moveAgent(InetAddress addr, int port) {
        onLoop(() -> {
            if (addr != null) {
                agentAddr = addr;
            }
            if (port >= 0) {
                agentPort = port;
            }
        });
    }

    /** {@code set server agent-inter}: the interval of the agent checks from the next one on. */
    void agentInter(long ms) {
        agentInter = ms;
    }

    /** {@code set server agent-send}: what the next agent checks send (empty: nothing). */
    void agentSend(String text) {
        agentSend = text;
    }

    /** The checks' own address ({@code addr}, {@code set server check-addr}), or null. */
    public InetAddress checkAddr() {
        return checkAddr;
    }

    /** The agent's own address ({@code agent-addr}, {@code set server agent-addr}), or null. */
    public InetAddress agentAddr() {
        return agentAddr;
    }

    /** The agent's port ({@code agent-port}, {@code set server agent-port}), 0 without an agent. */
    public int agentPort() {
        return agentPort;
    }
}
