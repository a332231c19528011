package io.fulcrum.peers;

import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.conn.BindFailure;
import io.fulcrum.listener.Transport;
import io.fulcrum.runtime.EventLoops;
import io.fulcrum.runtime.Fulcrum;
import io.fulcrum.runtime.Services;
import io.fulcrum.stats.InfoField;
import io.fulcrum.stick.StickTable;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.unix.UnixChannelOption;
import io.netty.util.concurrent.ScheduledFuture;

import java.net.Inet6Address;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A running peers section: the local peer's listener, a session with each remote peer (connected again 5 s after a
 * failure), heartbeats every 3 s on idle sessions, a session closed when nothing came for a whole reconnect period
 * twice, and the resync at start: a connected peer, chosen at random, is asked for all its entries; without an answer
 * in 5 s, the process considers itself up to date. On a reload (HAProxy's "local peer" resync), the new process first
 * waits 5 s for the old one, which connects to the local peer's address at its soft stop, teaches its whole tables and
 * exits once the new process confirms; after a partial or broken lesson it waits 5 s more for another, then asks the
 * remote peers. Everything runs on one event loop, chosen at start.
 */
final class PeersRuntime implements Services.Service {
    static final long RECONNECT_MS = 5000;
    private static final long HEARTBEAT_MS = 3000;
    private static final long RESYNC_MS = 5000;
    /** Silence after which a session is considered dead (HAProxy: a reconnect period without any message). */
    private static final long DEAD_MS = 2 * RECONNECT_MS;
    private static final long TICK_MS = 500;

    final PeersSpec spec;
    final String localName;
    final List<SharedTable> tables = new ArrayList<>();
    final List<PeerLink> links = new ArrayList<>();
    /** The updates a session pushes at once before the loop runs its other tasks ({@code tune.peers.max-updates-at-once}). */
    final int maxUpdatesAtOnce;
    private final List<StickTable> sticks;
    private final Diagnostics diag;
    private final long started = System.nanoTime();
    /** When the section started, wall clock ({@code show peers}). */
    final long startedMillis = System.currentTimeMillis();
    private EventLoops loops;
    EventLoop loop;
    private Channel server;
    private ScheduledFuture<?> ticker;
    private volatile boolean stopped;
    private boolean upToDate;
    /** The session asked for a resync, or null. */
    private PeerSession learning;
    private long resyncDeadline;
    /** A reload: the old process is expected to teach this one before the remote peers are asked. */
    private boolean waitLocal;
    /** The sessions accepted and initiated so far; written on the loop only, read by {@code show info}. */
    private volatile long sessions;
    /** The resync's history, HAProxy's section flags ({@code show peers}). */
    int flags = Wire.RESYNC_REQUESTED;
    /** Completes when a soft-stopping process has taught the new one, or cannot: the process may exit. */
    private final CompletableFuture<Void> taught = new CompletableFuture<>();
    long taskCalls;

    PeersRuntime(PeersSpec spec, Diagnostics diag, int maxUpdatesAtOnce) {
        this.spec = spec;
        this.maxUpdatesAtOnce = maxUpdatesAtOnce;
        this.localName = spec.localName;
        this.sticks = List.copyOf(spec.tables);
        this.diag = diag;
        for (PeersSpec.Peer p : spec.peers) {
            boolean local = p.name().equals(localName);
            links.add(new PeerLink(p.name(), local && p.address() == null ? spec.bind : p.address(), local, p.server().transport,
                    sticks.size()));
        }
    }

    /** Milliseconds since the section started (the sessions' clock). */
    long now() {
        return (System.nanoTime() - started) / 1_000_000;
    }

    @Override
    public boolean start(Fulcrum process) {
        loops = process.loops();
        share(loops.next());
        resyncDeadline = RESYNC_MS;
        PeerLink local = local();
        waitLocal = process.global().oldProcesses > 0 && local != null && local.address != null;
        if (!waitLocal) {
            flags |= Wire.RESYNC_LOCAL | Wire.RESYNC_LOCALTIMEOUT; // HAProxy's words for "no old process to learn from"
        }
        if (local != null && local.address != null && !listen(local)) {
            return false;
        }
        ticker = loop.scheduleAtFixedRate(this::tick, 0, TICK_MS, TimeUnit.MILLISECONDS);
        return true;
    }

    /** Runs the section on {@code loop}: the tables' changes are sent from there. */
    void share(EventLoop loop) {
        this.loop = loop;
        for (StickTable t : sticks) {
            SharedTable st = new SharedTable(t, tables.size() + 1, loop, this::pushAll);
            tables.add(st);
            t.replicator(st);
        }
    }

    /** Closes the listener and the sessions now (a hard stop). */
    @Override
    public void stop() {
        if (loop == null) {
            return;
        }
        stopped = true;
        loop.execute(() -> {
            if (ticker != null) { // null when its start failed
                ticker.cancel(false);
            }
            if (server != null) {
                server.close();
            }
            links.stream().filter(l -> l.session != null).forEach(l -> l.session.close());
            taught.complete(null);
        });
    }

    /**
     * A soft stop: the listener closes, so that the new process (bound to the same address) gets the next connection
     * to the local peer; the remote sessions close, so that the remote peers connect to the new process; then this
     * process connects to the local peer and teaches it everything. Done when the new process confirms the lesson,
     * when nothing answers there, or after {@code DEAD_MS}.
     */
    @Override
    public CompletableFuture<Void> softStop() {
        if (loop == null) {
            taught.complete(null); // never started
            return taught;
        }
        if (stopped) {
            return taught;
        }
        stopped = true;
        loop.execute(() -> {
            ticker.cancel(false);
            links.stream().filter(l -> l.session != null).forEach(l -> l.session.close());
            PeerLink local = local();
            if (server == null) {
                taught.complete(null);
                return;
            }
            flags |= Wire.DONOTSTOP;
            taught.thenRun(() -> loop.execute(() -> flags &= ~Wire.DONOTSTOP));
            server.close().addListener(f -> connect(local));
            loop.schedule(this::stop, DEAD_MS, TimeUnit.MILLISECONDS);
        });
        return taught;
    }

    /**
     * HAProxy's gauges: ActivePeers counts the peers with a session (connecting, or accepted past the hello),
     * ConnectedPeers those whose session is established; the local peer's listener is one of the Listeners. Each
     * session counts in CumConns, CumReq and, while it lasts, Jobs, as HAProxy's peers sessions and their streams do.
     */
    @Override
    public long info(InfoField field) {
        return switch (field) {
            case ACTIVEPEERS -> links.stream().filter(l -> l.session != null).count();
            case CONNECTEDPEERS -> links.stream().filter(l -> l.session != null && l.session.established()).count();
            case LISTENERS -> local() != null && local().address != null ? 1 : 0; // as configured, bound or not yet
            // Each session, accepted or initiated, is one of HAProxy's sessions (CumConns) with its stream (CumReq)...
            case CUMCONNS, CUMREQ -> sessions;
            // ... and a job while it lasts.
            case JOBS -> links.stream().filter(l -> l.session != null).count();
            default -> 0;
        };
    }

    /**
     * As HAProxy 2.6 counts a section with a local peer in its maxsock beside its listener: three for each peer
     * (peers_init_sync() raises the section's maxconn by 3 a peer, all of it added to maxsock).
     */
    @Override
    public int reservedSockets() {
        return local() != null && local().address != null ? 3 * links.size() : 0;
    }

    private PeerLink local() {
        return links.stream().filter(l -> l.local).findFirst().orElse(null);
    }

    /** Listens for the remote peers' sessions; false (alerted) when the address is taken. */
    private boolean listen(PeerLink local) {
        SocketProtocolFamily family = local.address.getAddress() instanceof Inet6Address ? SocketProtocolFamily.INET6 : SocketProtocolFamily.INET;
        ServerBootstrap b = new ServerBootstrap()
                .group(loop, loop)
                .channelFactory(() -> loops.newServerSocket(family))
                .option(ChannelOption.SO_REUSEADDR, true);
        if (loops.isNative()) {
            b.option(UnixChannelOption.SO_REUSEPORT, true); // a reloading process binds while the old one stops
        }
        Transport tls = spec.listener.transport;
        ChannelFuture f = b
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        sessions++;
                        if (tls == null) {
                            ch.pipeline().addLast("peer", new PeerSession(PeersRuntime.this, null));
                        } else {
                            tls.install(ch, () -> ch.pipeline().addLast("peer", new PeerSession(PeersRuntime.this, null)),
                                    (reason, bytes) -> ch.close());
                        }
                    }
                })
                .bind(local.address)
                .awaitUninterruptibly();
        if (f.isSuccess()) {
            server = f.channel();
            return true;
        }
        diag.alert(BindFailure.alert(spec.listener.source(), spec.proxy.kind().typeName() + " " + spec.proxy.name(), local.address, f.cause()));
        return false;
    }

    /** Connects to the remote peers due, sends heartbeats, closes dead sessions, ends a resync that takes too long. */
    private void tick() {
        taskCalls++;
        long now = now();
        if (waitLocal && learning == null && now >= resyncDeadline) {
            waitLocal = false; // the old process did not come: the remote peers teach
            flags |= Wire.RESYNC_LOCAL | Wire.RESYNC_LOCALTIMEOUT;
            resyncDeadline = now + RESYNC_MS;
        }
        assign();
        for (PeerLink l : links) {
            if (l.local) {
                continue;
            }
            PeerSession s = l.session;
            if (s == null && now >= l.reconnectAt) {
                connect(l);
            } else if (s != null && s.established()) {
                if (now - s.lastRead >= DEAD_MS) {
                    l.noHeartbeat++;
                    l.reconnectAt = now + 50 + ThreadLocalRandom.current().nextInt(2000);
                    s.close();
                } else if (now - s.lastWrite >= HEARTBEAT_MS) {
                    s.heartbeat();
                }
            }
        }
        if (!upToDate && now >= resyncDeadline && (learning == null || !learning.link().local)) {
            upToDate = true; // no peer could teach us in time
            flags |= Wire.RESYNC_REMOTE | Wire.RESYNC_REMOTETIMEOUT;
            if (learning != null) {
                // A lesson that never ends (seen with haproxy) no longer holds this process's updates back.
                learning = null;
                flags &= ~(Wire.RESYNC_ASSIGN | Wire.RESYNC_PROCESS);
                pushAll();
            }
        }
        tables.forEach(SharedTable::purge);
    }

    private void connect(PeerLink l) {
        l.newConnections++;
        sessions++;
        l.status = Wire.STATUS_CONNECTING;
        l.reconnectAt = now() + RECONNECT_MS;
        PeerSession s = new PeerSession(this, l);
        l.session = s;
        new Bootstrap()
                .group(loop)
                .channelFactory(() -> loops.newSocketFor(l.address))
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 1000)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (l.transport != null) {
                            l.transport.install(ch, null); // its handshake starts once connected, before the hello goes
                        }
                        ch.pipeline().addLast("peer", s);
                    }
                })
                .connect(l.address)
                .addListener((ChannelFuture f) -> {
                    if (!f.isSuccess() && l.session == s) {
                        l.session = null;
                    }
                    if (!f.isSuccess() && l.local) {
                        taught.complete(null); // no new process to teach
                    }
                });
    }

    PeerLink link(String name) {
        for (PeerLink l : links) {
            if (l.name.equals(name)) {
                return l;
            }
        }
        return null;
    }

    int tableIndex(String wireName) {
        for (int i = 0; i < tables.size(); i++) {
            if (tables.get(i).table.wireName().equals(wireName)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * A hello named {@code l}: a session already open with it is replaced (both peers may connect at once; the other
     * one waits a random delay before trying again), unless it is the local peer, which is told to try again.
     */
    int accepted(PeerSession s, PeerLink l) {
        if (l.session != null && l.session != s) {
            if (l.local) {
                return Wire.STATUS_TRY_AGAIN;
            }
            PeerSession old = l.session;
            l.session = null;
            l.collisions++;
            if (learning == old) {
                learning = null; // the new session is asked again
            }
            old.close();
            l.reconnectAt = now() + 50 + ThreadLocalRandom.current().nextInt(2000);
        }
        l.session = s;
        return Wire.STATUS_OK;
    }

    /**
     * A session is established: the old process's (the local peer connecting on a reload) teaches without being asked;
     * a remote one may be asked for a resync.
     */
    void established(PeerSession s) {
        if (s.link().local && !s.outgoing() && waitLocal && learning == null) {
            learning = s;
            flags |= Wire.RESYNC_ASSIGN | Wire.RESYNC_PROCESS | Wire.RESYNC_LOCALASSIGN;
            resyncDeadline = now() + RESYNC_MS;
        } else {
            assign();
        }
    }

    /**
     * Asks an established remote peer, chosen at random, for all its entries, when this process needs them and nobody
     * is teaching.
     */
    private void assign() {
        if (upToDate || learning != null || waitLocal || stopped) {
            return;
        }
        int first = ThreadLocalRandom.current().nextInt(links.size());
        for (int i = 0; i < links.size(); i++) {
            PeerLink l = links.get((first + i) % links.size());
            PeerSession s = l.session;
            if (!l.local && !l.notUpToDate && s != null && s.established()) {
                learning = s;
                flags |= Wire.RESYNC_ASSIGN | Wire.RESYNC_PROCESS | Wire.RESYNC_REMOTEASSIGN;
                resyncDeadline = now() + RESYNC_MS;
                s.requestResync();
                return;
            }
        }
    }

    /** The peer taught everything it knew; "partial" when it was not up to date itself: another one is asked. */
    void learned(PeerSession s, boolean finished) {
        PeerLink l = s.link();
        if (learning != s) {
            return;
        }
        learning = null;
        flags &= ~(Wire.RESYNC_ASSIGN | Wire.RESYNC_PROCESS);
        resyncDeadline = now() + RESYNC_MS;
        if (finished) {
            upToDate = true;
            waitLocal = false;
            flags |= Wire.RESYNC_LOCAL | Wire.RESYNC_REMOTE | (l.local ? Wire.RESYNC_LOCALFINISHED : Wire.RESYNC_REMOTEFINISHED);
        } else if (l.local) {
            flags |= Wire.RESYNC_LOCALPARTIAL; // another old process may come within 5 s (peers-v2.0.txt III a)
        } else {
            flags |= Wire.RESYNC_REMOTEPARTIAL;
            l.notUpToDate = true;
            assign();
        }
        pushAll();
    }

    /** Whether this process learns from {@code s} now: its own updates wait for the end of the lesson. */
    boolean learningFrom(PeerSession s) {
        return learning == s;
    }

    boolean upToDate() {
        return upToDate;
    }

    /** Milliseconds before the resync gives up waiting (negative: past). */
    long resyncIn() {
        return resyncDeadline - now();
    }

    void closed(PeerSession s) {
        PeerLink l = s.link();
        if (l == null) {
            return;
        }
        if (l.session == s) {
            l.session = null;
            if (l.status == Wire.STATUS_OK) {
                l.status = Wire.STATUS_CONNECTED;
            }
        }
        if (learning == s) {
            learning = null;
            flags &= ~(Wire.RESYNC_ASSIGN | Wire.RESYNC_PROCESS);
            flags |= l.local ? Wire.RESYNC_LOCALABORT : Wire.RESYNC_REMOTEABORT; // the next one gets 5 s again
            resyncDeadline = now() + RESYNC_MS;
        }
        if (l.local && s.outgoing() && stopped) {
            taught.complete(null); // the lesson of the new process is over (confirmed or not)
        }
    }

    /** New local updates: every established session pushes them. */
    private void pushAll() {
        for (PeerLink l : links) {
            if (l.session != null && l.session.established()) {
                l.session.push();
            }
        }
    }
}
