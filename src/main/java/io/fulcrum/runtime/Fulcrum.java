package io.fulcrum.runtime;

import io.fulcrum.backend.Backend;
import io.fulcrum.cli.CliSettings;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.mailers.EmailAlerts;
import io.fulcrum.check.HealthChecks;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.conn.BindFailure;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.listener.BindList;
import io.fulcrum.listener.BindSpec;
import io.fulcrum.listener.Listener;
import io.fulcrum.listener.Acceptor;
import io.fulcrum.listener.SessionStarter;
import io.fulcrum.http.HeadReader;
import io.fulcrum.log.ProcessLog;
import io.fulcrum.mux.h1.H1Errors;
import io.fulcrum.mux.h1.H1FrontConnection;
import io.fulcrum.mux.h1.H1HeadReader;
import io.fulcrum.mux.h1.H1Limits;
import io.fulcrum.mux.h1.HeaderCase;
import io.fulcrum.mux.h1.H1Settings;
import io.fulcrum.mux.tcp.TcpSession;
import io.fulcrum.proxy.BackendRef;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.proxy.Mode;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.server.Server;
import io.fulcrum.stats.InfoField;
import io.fulcrum.stats.Counters;
import io.fulcrum.stats.ProcessInfo;
import io.fulcrum.stats.SampledRate;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.ServerChannel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The running process: its event loops, proxies and listeners, and the ways it stops. Built from a
 * checked configuration; {@link #start()} binds every listener or reports why one could not be bound.
 */
public final class Fulcrum {
    private final GlobalSettings global;
    private final Diagnostics diag;
    private final EventLoops loops;
    private final ConnLimit connections;
    private final ConnLimit cliConnections = new ConnLimit(0);
    private final FdBudget fds;
    private final H1Limits h1Limits;
    /** Reads the HTTP request heads of mode tcp streams for the HTTP fetches. */
    private final HeadReader heads;
    private final ProcessLog logging;
    private final HeaderCase headerCase;
    private final H1Errors h1Errors;
    private final Map<String, Backend> backends = new LinkedHashMap<>();
    private final List<Frontend> frontends = new ArrayList<>();
    private final List<Listener> listeners = new ArrayList<>();
    private final HealthChecks checks;
    private final Services services;
    private final CountDownLatch stopped = new CountDownLatch(1);
    /** Live client connections, told when a soft stop begins. */
    private volatile boolean stopping;
    private volatile boolean closing;
    private final CloseSpread closeSpread;
    private final long startMillis = System.currentTimeMillis();
    private final Map<String, String> environment;
    private final List<String> proxyNames = new ArrayList<>();
    private CliSettings cli;
    /** The whole process's connection and session rates (show info). */
    private final Counters counters = new Counters();
    private final AcceptRate acceptRate = new AcceptRate();
    private final SampledRate bytesOutRate = new SampledRate(() -> ProcessInfo.bytesOut(this));

    public Fulcrum(ConfigModel model, Diagnostics diag, int defaultMaxconn) {
        this.global = GlobalModule.settings(model);
        this.diag = diag;
        this.closeSpread = new CloseSpread(global.closeSpreadTime);
        this.connections = new ConnLimit(0); // its limit once the descriptors the configuration takes are known
        acceptRate.connLimit(global.maxconnrate);
        acceptRate.sessLimit(global.maxsessrate);
        acceptRate.tlsLimit(global.maxsslrate);
        this.h1Limits = H1Settings.of(model).limits();
        this.heads = new H1HeadReader(h1Limits);
        this.logging = new ProcessLog(model, connections);
        this.headerCase = new HeaderCase(H1Settings.of(model).caseAdjust);
        this.h1Errors = new H1Errors(h1Limits.bufsize());
        List<ProxySpec> proxies = ProxyTable.of(model).proxies();
        proxies.stream().filter(p -> !p.disabled).forEach(p -> proxyNames.add(p.name()));
        for (ProxySpec p : proxies) {
            if (p.kind().isBackend() && !p.disabled) {
                Backend b = new Backend(p);
                b.serverGroup().events(EmailAlerts.around(p, logging.serverEvents(p, diag)));
                backends.put(p.name(), b);
            }
        }
        boolean ioUring = PollerChoice.ioUring(global, proxies, backends.values(), CliSettings.of(model));
        Profiling.set(global.profilingTasks);
        this.loops = new EventLoops(global.effectiveNbthread(), global.multiQueue,
                new EventLoops.Placement(global.cpuMap, global.schedBatch),
                new EventLoops.Poller(global.noEpoll, ioUring, global.busyPolling, global.maxPollEvents));
        this.checks = new HealthChecks(model, backends, loops);
        this.services = Services.of(model);
        statsSockets(model);
        this.environment = withCli(model.env().asMap());
        this.fds = new FdBudget(global, configSockets(proxies), Math.max(FdLimit.bootCurrent(), FdLimit.bootMax()));
        connections.max(fds.maxconn());
        Map<String, Long> frontendConns = new HashMap<>();
        for (ProxySpec p : proxies) {
            if (!p.kind().isFrontend() || p.disabled) {
                continue;
            }
            int maxconn = p.maxconn > 0 ? p.maxconn : defaultMaxconn > 0 ? defaultMaxconn : connections.max();
            feedsBackends(p, maxconn, frontendConns);
            Frontend fe = new Frontend(p, maxconn, switching(p), defaultBackend(p), p.kind().isBackend() ? backends.get(p.name()) : null,
                    logging);
            fe.process(this);
            frontends.add(fe);
            BindList binds = p.partOrNull(BindList.class);
            AcceptRate rate = fe.sessionRateLimit() > 0 ? acceptRate.frontend(fe.sessionRateLimit()) : acceptRate;
            for (BindSpec b : binds == null ? List.<BindSpec>of() : binds.binds) {
                // Log lines name a bind by its name, else by its listener's number in the frontend, as HAProxy does.
                Acceptor acceptor = new Acceptor(fe, b, loops, starter(fe), b.name != null ? b.name : Integer.toString(b.socketId(0)));
                for (Endpoint e : b.endpoints()) {
                    Listener l = new Listener(b, e, fe.name(), p.kind().typeName(), fe.limit(), loops, connections, acceptor);
                    l.limitRate(rate);
                    if (global.noReusePort) {
                        l.withoutReusePort();
                    }
                    if (fe.socketOptions().socketStats) {
                        l.keepCounters();
                    }
                    if (fe.socketOptions().smartAccept == Boolean.TRUE) {
                        l.delayedAck();
                    }
                    listeners.add(l);
                }
            }
        }
    }

    /**
     * The descriptors the configuration takes as HAProxy counts them: one a listening socket (the proxies', the stats
     * sockets' and the peers'), one a server's check and agent, the stats sockets' maxconn and what the services set
     * aside (the peers' sessions).
     */
    private int configSockets(List<ProxySpec> proxies) {
        int sockets = (int) services.info(InfoField.LISTENERS) + services.reservedSockets() + checks.sockets()
                + addresses(cli.sockets);
        if (!cli.sockets.isEmpty()) {
            sockets += cli.maxconn;
        }
        for (ProxySpec p : proxies) {
            BindList binds = p.partOrNull(BindList.class);
            if (p.kind().isFrontend() && !p.disabled && binds != null) {
                sockets += addresses(binds.binds);
            }
        }
        return sockets;
    }

    private static int addresses(List<BindSpec> binds) {
        return binds.stream().mapToInt(b -> b.endpoints().size()).sum();
    }

    /**
     * The stats sockets: listeners of HAProxy's GLOBAL frontend, limited together by {@code stats maxconn}. Their
     * connections are outside the process's maxconn and CurrConns (HAProxy's LI_O_UNLIMITED), as they must reach a
     * full process; they count in CumConns and Jobs ({@link #cliConnections()}).
     */
    private void statsSockets(ConfigModel model) {
        this.cli = CliSettings.of(model);
        ConnLimit limit = new ConnLimit(cli.maxconn);
        for (BindSpec b : cli.sockets) {
            for (Endpoint e : b.endpoints()) {
                EventLoops on = e instanceof Endpoint.Unix ? loops.forUnixCli() : loops;
                Listener l = new Listener(b, e, CliSettings.OWNER, "frontend", limit, on, cliConnections,
                        ch -> {
                            // A client may send its commands and shut its side at once: the answers still go back.
                            ch.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
                            ch.config().setAllocator(BufferOwner.CLI);
                            ch.pipeline().addLast("cli", cli.session(this, b, h1Limits.bufsize()));
                            on.next().register(ch).addListener(f -> {
                                if (on.all().size() > 1 && on.multiQueue()) {
                                    LoopActivity.pushed(); // the loop chosen, as HAProxy's stats sockets' accept queues
                                }
                            });
                        });
                if (global.noReusePort) {
                    l.withoutReusePort();
                }
                listeners.add(l);
            }
        }
    }

    /** {@code env} and HAPROXY_CLI, the stats sockets' addresses as HAProxy defines it once they are configured. */
    private Map<String, String> withCli(Map<String, String> env) {
        Map<String, String> all = new java.util.LinkedHashMap<>(env);
        List<String> names = listeners.stream().filter(l -> l.owner().equals(CliSettings.OWNER)).map(CliSettings::socketName).toList();
        if (!names.isEmpty()) {
            all.put("HAPROXY_CLI", String.join(";", names));
        }
        return java.util.Collections.unmodifiableMap(all);
    }

    /**
     * Adds a frontend's maxconn to each backend its rules name (not the dynamic names), for the default
     * {@code fullconn}: HAProxy takes 10% of that sum.
     */
    private void feedsBackends(ProxySpec fe, int maxconn, Map<String, Long> sums) {
        Set<String> named = new HashSet<>();
        if (fe.kind().isBackend()) {
            named.add(fe.name());
        }
        if (fe.defaultBackend != null) {
            named.add(fe.defaultBackend.name());
        }
        fe.useBackends.forEach(r -> named.add(r.name()));
        for (String name : named) {
            Backend be = backends.get(name);
            if (be != null) {
                long sum = sums.merge(name, (long) maxconn, Long::sum);
                be.computedFullconn((int) Math.min(Integer.MAX_VALUE, (sum + 9) / 10));
            }
        }
    }

    /** What the frontend's mode does with a new connection. */
    private SessionStarter starter(Frontend fe) {
        if (fe.mode() == Mode.HTTP) {
            return (ch, src, dst, early) -> {
                accepted(fe); // (the line of HAProxy's default format is logged for each request: H1FrontConnection)
                ch.pipeline().addLast("h1", new H1FrontConnection(fe, loops, h1Limits, headerCase));
                return early == null ? () -> { } : () -> ch.pipeline().fireChannelRead(early);
            };
        }
        return (ch, src, dst, early) -> {
            accepted(fe);
            fe.logger().accepted(src, dst);
            TcpSession session = new TcpSession(ch, fe, loops, early, h1Limits.maxHead(), heads,
                    (backend, log) -> new H1FrontConnection(fe, loops, h1Limits, headerCase).continuing(backend, log));
            session.install();
            return session::start;
        };
    }

    private void accepted(Frontend fe) {
        fe.accepted();
        counters.connectionAccepted();
        counters.sessionStarted();
    }

    private List<Frontend.SwitchingRule> switching(ProxySpec p) {
        List<Frontend.SwitchingRule> rules = new ArrayList<>();
        for (BackendRef ref : p.useBackends) {
            rules.add(new Frontend.SwitchingRule(ref.condition(), ref.dynamic() == null ? backends.get(ref.name()) : null, ref.dynamic(),
                    backends));
        }
        return rules;
    }

    /** default_backend, else the proxy's own backend half. */
    private Backend defaultBackend(ProxySpec p) {
        if (p.defaultBackend != null) {
            return backends.get(p.defaultBackend.name());
        }
        return p.kind().isBackend() ? backends.get(p.name()) : null;
    }

    /**
     * Binds every listener; on failure reports each one as HAProxy does and returns false. With older processes to
     * replace ({@code -sf}/{@code -st}), an address they still hold is tried again every 10 ms for 2 s, after a
     * SIGTTOU each time that makes them let go of addresses they hold without SO_REUSEPORT; when it stays taken, they
     * get a SIGTTIN to resume.
     */
    public boolean start(OldProcesses old) {
        // Unix sockets (the stats socket...) are bound first: a client that saw an IP port open finds them. Each
        // listener is bound once the one before it is, in the configuration's order as HAProxy binds them: a client
        // that saw a port open finds the ports before it open too.
        List<Listener> order = new ArrayList<>(listeners);
        order.sort(java.util.Comparator.comparing(l -> l.endpoint() instanceof Endpoint.Inet));
        Map<Listener, String> failed = bind(order);
        int retries = MAX_START_RETRIES;
        while (!failed.isEmpty() && retries > 0 && !old.isEmpty()
                && failed.values().stream().allMatch(e -> e.contains("Address already in use"))) {
            if (!old.signal("TTOU")) {
                break; // no old process left to let go of an address
            }
            sleep(10);
            retries--;
            failed.keySet().forEach(Listener::close);
            failed = bind(new ArrayList<>(failed.keySet()));
        }
        if (!failed.isEmpty()) {
            // HAProxy reports by protocol, the IP sockets before the unix ones.
            failed.entrySet().stream().sorted(Comparator.comparing(f -> f.getKey().endpoint() instanceof Endpoint.Unix))
                    .forEach(f -> diag.alert(f.getKey().bindFailure(f.getValue())));
            if (retries != MAX_START_RETRIES) {
                listeners.forEach(Listener::close);
                old.signal("TTIN");
            }
            return false;
        }
        if (!services.start(this)) {
            return false;
        }
        cli.warmUp(this);
        bytesOutRate.start(loops.next());
        return true;
    }

    /**
     * Starts the health checks and agents once the process serves, as HAProxy's first checks run in its polling loop:
     * what they report is not part of the start-up messages ({@code show startup-logs}).
     */
    public void startChecks() {
        checks.start();
    }

    /** HAProxy's MAX_START_RETRIES: binds tried every 10 ms while older processes let go of their addresses. */
    private static final int MAX_START_RETRIES = 200;

    /** Binds {@code order}, the unix sockets one after the other, then the IP ones at once; the failed ones and why. */
    private static Map<Listener, String> bind(List<Listener> order) {
        List<List<ChannelFuture>> bound = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (Listener l : order) {
            try {
                List<ChannelFuture> f = l.bind();
                f.forEach(ChannelFuture::awaitUninterruptibly);
                bound.add(f);
                errors.add(null);
            } catch (Exception e) {
                bound.add(List.of());
                errors.add(BindFailure.reason(e));
            }
        }
        Map<Listener, String> failed = new LinkedHashMap<>();
        for (int i = 0; i < order.size(); i++) {
            String error = errors.get(i);
            for (ChannelFuture f : bound.get(i)) {
                if (error == null && !f.awaitUninterruptibly().isSuccess()) {
                    error = BindFailure.reason(f.cause());
                }
            }
            if (error != null) {
                failed.put(order.get(i), error);
            }
        }
        return failed;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public List<Listener> listeners() {
        return listeners;
    }

    /** What runs beside the proxies (peers sections...). */
    public Services services() {
        return services;
    }

    /**
     * Once the sockets are bound: {@code chroot}, then {@code group}/{@code gid} and {@code user}/{@code uid}; false
     * (with HAProxy's alert) when one of them fails.
     */
    public boolean lockDown() {
        return ProcessIdentity.apply(global, diag);
    }

    /** The process's maxconn, maxsock and limit on open files. */
    public FdBudget fds() {
        return fds;
    }

    /** Whether the process can accept anything: a proxy's listener or a service's (the local peer's). */
    public boolean listens() {
        return !listeners.isEmpty() || services.info(InfoField.LISTENERS) > 0;
    }

    /**
     * Whether a configuration has anything to accept on, as HAProxy's {@code -c} judges it: a bind line of a proxy
     * not disabled (a backend's too, which HAProxy binds after its warning), a stats socket, or a local peer.
     */
    public static boolean listens(ConfigModel model) {
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            BindList binds = p.partOrNull(BindList.class);
            if (!p.disabled && binds != null && !binds.binds.isEmpty()) {
                return true;
            }
        }
        return !CliSettings.of(model).sockets.isEmpty() || Services.of(model).info(InfoField.LISTENERS) > 0;
    }

    /** The names of the proxies (frontends, backends, listens) in the order of the configuration. */
    public List<String> proxyNames() {
        return proxyNames;
    }

    /** Where the process reports to the operator, and what it reported while it started. */
    public Diagnostics diagnostics() {
        return diag;
    }

    public Map<String, Backend> backends() {
        return backends;
    }

    public List<Frontend> frontends() {
        return frontends;
    }

    /** The health checks, for the CLI's state commands. */
    public HealthChecks checks() {
        return checks;
    }

    public GlobalSettings global() {
        return global;
    }

    public EventLoops loops() {
        return loops;
    }

    /** The environment as the configuration left it (setenv, HAPROXY_* variables...). */
    public Map<String, String> environment() {
        return environment;
    }

    /** The last invalid request and response of each proxy ({@code show errors}). */
    public H1Errors h1Errors() {
        return h1Errors;
    }

    /** The whole process's rates. */
    /** {@code BytesOutRate} of {@code show info}. */
    public SampledRate bytesOutRate() {
        return bytesOutRate;
    }

    /** The accept rate limits ({@code set rate-limit}) and the TLS accept rate. */
    public AcceptRate acceptRate() {
        return acceptRate;
    }

    public Counters counters() {
        return counters;
    }

    /** The process's logging: its sender, rings and their forwarders. */
    public ProcessLog logging() {
        return logging;
    }

    /** Log lines dropped so far. */
    public long droppedLogs() {
        return logging.droppedLogs();
    }

    /** When the process started, wall clock (Start_time_sec, Uptime). */
    public long startMillis() {
        return startMillis;
    }

    /** A soft stop has begun (SIGUSR1): the stopping fetch, show info's Stopping. */
    public boolean stopping() {
        return stopping;
    }

    /** The soft stop proper has begun (after grace): the listeners are closed, the connections close. */
    public boolean closing() {
        return closing;
    }

    /** {@code close-spread-time}: when each client connection closes during the soft stop. */
    public CloseSpread closeSpread() {
        return closeSpread;
    }

    /** The process-wide connection limit and count ({@code maxconn}, CurrConns, CumConns). */
    public ConnLimit connections() {
        return connections;
    }

    /** The stats sockets' connections, unlimited: they count apart from {@link #connections()}. */
    public ConnLimit cliConnections() {
        return cliConnections;
    }

    /** Live client connections, all frontends together. */
    public int activeConnections() {
        return connections.current();
    }

    /** SIGTTOU: stop accepting, keep the sockets. */
    public void pause() {
        listeners.forEach(Listener::pause);
        diag.warning("Paused " + listeners.size() + " listener(s).");
    }

    /** SIGTTIN: accept again; a socket closed by the pause that cannot be bound again is reported. */
    public void resume() {
        for (Listener l : listeners) {
            Throwable failure = l.resume();
            if (failure != null) {
                diag.alert("Cannot resume frontend " + l.owner() + ": cannot bind socket (" + BindFailure.reason(failure) + ") [" + l.endpoint() + "]");
            }
        }
        diag.warning("Resumed " + listeners.size() + " listener(s).");
    }

    /**
     * SIGUSR1: close the listening sockets, let live sessions finish, then exit; after
     * {@code hard-stop-after} the remaining sessions are closed.
     */
    public void softStop() {
        if (stopping) {
            return;
        }
        stopping = true;
        if (global.grace > 0) {
            // grace: the stopping fetch and show info say so at once; the listeners keep accepting until it ends.
            diag.notice("Scheduling a soft-stop in " + global.grace + " ms.");
            // The stop proper runs off the loops: it waits for the listening sockets to close (io_uring closes them
            // asynchronously, on their loops).
            loops.next().schedule(() -> {
                diag.notice("Grace period expired, proceeding with soft-stop now.");
                offTheLoops("soft-stop", this::stopListening);
            }, global.grace, TimeUnit.MILLISECONDS);
        } else {
            stopListening();
        }
    }

    /** The soft stop proper, after the grace period: the listeners close, the connections follow. */
    private void stopListening() {
        if (closing) {
            return;
        }
        closing = true;
        closeSpread.begin();
        for (Frontend fe : frontends) {
            String stopped = "Proxy " + fe.name() + " stopped (cumulated conns: FE: " + fe.limit().current() + ").";
            diag.warning(stopped);
            fe.logger().warning(stopped); // as HAProxy, also to the proxy's log targets
        }
        listeners.forEach(Listener::close);
        CompletableFuture<Void> servicesDone = services.softStop();
        if (global.hardStopAfter > 0) {
            offTheLoops("hard-stop-after", () -> {
                try {
                    if (!stopped.await(global.hardStopAfter, TimeUnit.MILLISECONDS)) {
                        diag.warning("soft-stop running for too long, performing a hard-stop.");
                        hardStop();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        // Idle HTTP connections close now, busy ones after their current response.
        // (A connection accepted before the listeners closed is registered before these tasks run on its loop.)
        loops.eachChannel(ch -> {
            if (!(ch instanceof ServerChannel) && Listener.of(ch) != null) {
                ch.pipeline().fireUserEventTriggered(SoftStop.INSTANCE);
            }
        });
        servicesDone.thenRun(() -> connections.whenEmpty(() -> offTheLoops("soft-stop", this::hardStop)));
    }

    /** Runs {@code step} of a stop on a daemon thread of its own: it waits for the loops, so it must not run on one. */
    private static void offTheLoops(String name, Runnable step) {
        Thread t = new Thread(step, name);
        t.setDaemon(true);
        t.start();
    }

    /** SIGTERM/SIGINT, or the end of a soft stop: close everything now. */
    public void hardStop() {
        stopping = true;
        closing = true;
        checks.stop();
        services.stop();
        listeners.forEach(Listener::close);
        loops.closeAll(2000);
        loops.shutdown();
        loops.group().terminationFuture().awaitUninterruptibly(5, TimeUnit.SECONDS);
        logging.close(); // after the loops: the lines of the connections they closed are sent too
        stopped.countDown();
    }

    /** SIGHUP: one line per server, as HAProxy dumps server states to its logs. */
    public void dumpServerStates() {
        for (Backend b : backends.values()) {
            for (Server s : b.servers()) {
                diag.notice("SIGHUP: Server " + s.id() + " is " + (s.usable() ? "UP" : "MAINT") + ". Conn: " + s.currentConnections()
                        + " act, 0 pend, " + s.totalConnections() + " tot.");
            }
            diag.notice("SIGHUP: Proxy " + b.name() + " has " + b.servers().stream().filter(Server::usable).count()
                    + " active servers and 0 backup servers available.");
        }
    }

    /** Blocks until the process has stopped. */
    public void awaitStop() throws InterruptedException {
        stopped.await();
    }
}
