package io.fulcrum.backend;

import io.fulcrum.compression.Compression;
import io.fulcrum.compression.CompressionModule;
import io.fulcrum.conn.SocketOptions;
import io.fulcrum.http.ErrorSet;
import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpModule;
import io.fulcrum.http.HttpOptions;
import io.fulcrum.http.RequestHead;
import io.fulcrum.persist.PersistSpec;
import io.fulcrum.persist.Persistence;
import io.fulcrum.pool.PoolModule;
import io.fulcrum.pool.ReuseMode;
import io.fulcrum.proxy.Mode;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.Timeouts;
import io.fulcrum.rules.HttpRules;
import io.fulcrum.stats.StatsPage;
import io.fulcrum.rules.TcpRules;
import io.fulcrum.runtime.ConnLimit;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerGroup;
import io.fulcrum.server.ServerList;
import io.fulcrum.stats.Counters;

import io.fulcrum.sample.SampleContext;
import io.fulcrum.server.ServerSpec;
import io.netty.util.concurrent.GlobalEventExecutor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A backend (or the backend half of a listen section) at run time: its servers, how one is chosen for a
 * stream, and the queues of streams waiting for a connection slot.
 *
 * <p>Choosing ({@link #assign}) runs on the stream's event loop and takes no lock: the algorithm reads an
 * immutable plan, slots are taken with a compare-and-set on the server's stream count. A stream that finds
 * its server (or, for the algorithms that skip full servers, every server) at its {@code maxconn} waits in
 * that server's queue (or the backend's). Whoever frees a slot, on any loop, hands it to the oldest waiter of
 * the server's queue and the backend's, and posts the news to the waiter's own loop (see {@link Ticket}).
 * Plans are rebuilt under a lock, off the data path, when a server's usability or weight changes.
 */
public final class Backend {
    /** What {@link #assign} did with a stream. */
    public enum Outcome {
        /** The ticket holds a slot of a server. */
        ASSIGNED,
        /** The ticket waits in a queue: its callback runs when a slot comes. */
        QUEUED,
        /** No server is usable (503, termination state SC). */
        NO_SERVER,
        /** The server's queue is at its {@code maxqueue} (503, termination state SQ). */
        QUEUE_FULL
    }

    private final String name;
    private final ServerGroup group;
    /**
     * Its servers and their members, replaced whole under the backend's lock when a server is added or deleted at run
     * time ({@code add server}, {@code del server}): readers (the pick path, stats, the CLI) take one snapshot and
     * need no lock.
     */
    private volatile Roster roster;
    private final Object rosterLock = new Object();
    private final BalanceSpec balance;
    private final Balancer balancer;
    private final boolean dynamicWeights;
    private volatile Farm farm = Farm.EMPTY;
    private final PendingQueue queue = new PendingQueue();
    private final AtomicLong arrivals = new AtomicLong();
    /**
     * Slots given back so far. A stream that queues looks at the queues again only when one was given back since it
     * found its server full (that slot may have gone back unseen): otherwise its wait ends at the next release, as in
     * HAProxy, even when a dynamic maxconn grew meanwhile.
     */
    private final AtomicLong releases = new AtomicLong();
    private volatile int fullconn;
    private boolean rampScheduled;
    /**
     * HAProxy's pendconn_redistribute(): the streams waiting for a server that goes down choose again only with
     * {@code option redispatch} and without {@code option persist}; otherwise they wait on (until {@code timeout queue}).
     */
    private final boolean requeueOnDown;
    private final int retries;
    private final Timeouts timeouts;
    private final SocketOptions socket;
    private final HttpOptions http;
    private final Compression compression;
    private final ErrorSet errors;
    private final ReuseMode reuse;
    private final HttpRules rules;
    private final StatsPage statsPage;
    private final TcpRules tcpRules;
    /** The stick rules, or null. */
    private final Affinity affinity;
    private final int id;
    /** Its id comes from the configuration's {@code id} (HAProxy's PR_O_FORCED_ID). */
    private final boolean forcedId;
    private final String description;
    private final Mode mode;
    private final Algorithm algorithm;
    /** The {@code dispatch} address, or the stream's destination ({@code option transparent}), as a server; or null. */
    private final Member dispatch;
    /** Cookie persistence and persist rules, or null. */
    private final Persistence persistence;
    /** The transactions using it now (beconn, %bc). */
    private final ConnLimit streams = new ConnLimit(0);
    private final Counters counters = new Counters();

    public Backend(ProxySpec spec) {
        this.name = spec.name();
        this.id = spec.id;
        this.forcedId = spec.customId != 0;
        this.description = spec.description;
        ServerList list = spec.partOrNull(ServerList.class);
        this.group = new ServerGroup(spec.name());
        List<Server> servers = list == null ? List.of() : servers(group, list.servers);
        this.balance = spec.part(BalanceSpec.class, BalanceSpec::new);
        this.balancer = balancer(balance);
        this.dynamicWeights = balance.algorithm.dynamic(balance.consistent);
        this.fullconn = balance.fullconn > 0 ? balance.fullconn : 1;
        PersistSpec persist = spec.partOrNull(PersistSpec.class);
        this.requeueOnDown = balance.redispatch != 0 && (persist == null || !persist.persistDown);
        this.roster = new Roster(servers, servers.stream().map(s -> new Member(this, s)).toArray(Member[]::new));
        // Apart from the servers (in no stats, never checked), without limit: it takes every transaction.
        ServerSpec direct = balance.dispatch != null ? balance.dispatch : balance.transparent ? ServerSpec.destination("<NOSRV>") : null;
        this.dispatch = direct == null ? null : new Member(this, new Server(new ServerGroup(name), direct, 0));
        for (Member m : roster.members) {
            m.wasUsable = m.server.usable();
            m.server.onChange(this::plan);
        }
        plan();
        this.retries = balance.retries;
        this.mode = spec.mode;
        this.algorithm = balance.algorithm;
        this.timeouts = spec.timeouts.copy();
        this.socket = spec.part(SocketOptions.class, SocketOptions::new);
        this.http = HttpModule.of(spec);
        this.compression = CompressionModule.of(spec);
        this.errors = ErrorSet.of(spec);
        this.reuse = PoolModule.of(spec).mode;
        this.rules = HttpRules.of(spec);
        this.statsPage = StatsPage.of(spec);
        this.tcpRules = TcpRules.of(spec);
        this.persistence = Persistence.of(spec, servers);
        this.affinity = spec.partOrNull(Affinity.class);
    }

    /**
     * The servers of a backend with HAProxy's numeric ids: the {@code id} given, else the first id not taken
     * from the server's position on (HAProxy's numbering moves on at each line, given id or not).
     */
    private static List<Server> servers(ServerGroup group, List<ServerSpec> specs) {
        Set<Integer> taken = new HashSet<>();
        specs.forEach(s -> taken.add(s.id));
        List<Server> out = new ArrayList<>(specs.size());
        int next = 1;
        for (ServerSpec s : specs) {
            int id = s.id;
            if (id == 0) {
                while (taken.contains(next)) {
                    next++;
                }
                id = next;
                taken.add(id);
            }
            next++;
            out.add(new Server(group, s, id));
        }
        return List.copyOf(out);
    }

    /** A backend's servers in order, and the member of each at the same index. */
    record Roster(List<Server> servers, Member[] members) {
        Roster {
            servers = List.copyOf(servers);
        }

        /** This roster and {@code m} last. */
        Roster with(Member m) {
            List<Server> s = new ArrayList<>(servers);
            s.add(m.server);
            Member[] ms = Arrays.copyOf(members, members.length + 1);
            ms[members.length] = m;
            return new Roster(s, ms);
        }

        /** This roster without {@code m}. */
        Roster without(Member m) {
            List<Server> s = new ArrayList<>(servers);
            s.remove(m.server);
            return new Roster(s, Arrays.stream(members).filter(x -> x != m).toArray(Member[]::new));
        }
    }

    /**
     * The id {@code add server} gives a server without {@code id}: the first one no server of the backend has (HAProxy's
     * get_next_id()), which may be the id of a server deleted before.
     */
    public int nextServerId() {
        Set<Integer> taken = new HashSet<>();
        roster.servers.forEach(s -> taken.add(s.numericId()));
        int id = 1;
        while (taken.contains(id)) {
            id++;
        }
        return id;
    }

    /**
     * Adds {@code server} after the others ({@code add server}): it joins the plan, and so the pick path, when it
     * becomes usable. The caller checked its name and id under {@link #rosterLock()}.
     */
    public void add(Server server) {
        Member m = new Member(this, server);
        synchronized (this) {
            m.wasUsable = false; // (so that a server added usable comes up as one that was not: its slow start runs)
            roster = roster.with(m);
            if (persistence != null) {
                persistence.servers(roster.servers);
            }
        }
        server.onChange(this::plan);
        plan();
    }

    /**
     * Deletes {@code server} ({@code del server}): why it cannot be deleted, in HAProxy's words, or null once it is gone
     * from every view. It must be in maintenance (so out of the plan), without a transaction and without a waiter;
     * under the backend's lock, so that no plan puts it back meanwhile.
     */
    public String remove(Server server) {
        synchronized (this) {
            Member m = member(server);
            if (m == null) {
                return "No such server.";
            }
            if (!server.state().inMaintenance()) {
                return "Only servers in maintenance mode can be deleted.";
            }
            // (Its idle pooled connections do not count: they are closed once it is gone, as HAProxy's maintenance closes them.)
            if (m.served() > 0 || m.queue.size() > 0) {
                return "Server still has connections attached to it, cannot remove it.";
            }
            roster = roster.without(m);
            if (persistence != null) {
                persistence.servers(roster.servers);
            }
        }
        group.remove(server);
        return null;
    }

    /**
     * The lock under which servers are added to this backend: a name or id checked free stays free while it is held. Not
     * the plan's lock: a server's constructor and {@code track} take the servers' state lock, under which state changes
     * then plan (that order only).
     */
    public Object rosterLock() {
        return rosterLock;
    }

    private static Balancer balancer(BalanceSpec b) {
        return switch (b.algorithm) {
            case ROUNDROBIN -> new RoundRobin();
            case STATIC_RR -> new WeightMap();
            case LEASTCONN -> new LeastConn();
            case FIRST -> new FirstAvailable();
            case RANDOM -> new RandomDraws(b.balanceFactor, b.draws);
            case SOURCE, URI, URL_PARAM, HDR, RDP_COOKIE, HASH -> new Hashed(b);
        };
    }

    // --- plans: on the thread that changed a server, never on the pick path --------------------------

    /**
     * Plans the farm again: which servers are used (active ones, else backups), their effective weights,
     * and the algorithm's layout. A server that came back up starts its slow start; one that went down has
     * its waiting streams choose again; queued streams then flow into the free slots.
     */
    private void plan() {
        List<Member> redistribute = new ArrayList<>();
        List<Member> cameUp = new ArrayList<>();
        synchronized (this) {
            long now = System.nanoTime();
            boolean ramping = false;
            for (Member m : roster.members) {
                boolean usable = m.server.usable();
                if (usable && !m.wasUsable) {
                    cameUp.add(m);
                    if (m.spec().slowstart > 0) {
                        m.rampStart = now;
                    }
                } else if (!usable) {
                    m.rampStart = 0;
                    if (m.wasUsable) {
                        redistribute.add(m);
                    }
                } else if (m.rampStart != 0 && now - m.rampStart >= TimeUnit.SECONDS.toNanos(m.slowstartSeconds())) {
                    m.rampStart = 0;
                }
                m.wasUsable = usable;
                ramping |= m.rampStart != 0;
            }
            Farm f = farm(now);
            balancer.plan(f);
            farm = f;
            if (ramping && !rampScheduled) {
                rampScheduled = true;
                GlobalEventExecutor.INSTANCE.schedule(this::rampStep, rampInterval(), TimeUnit.MILLISECONDS);
            }
        }
        for (Member m : redistribute) {
            int moved = 0;
            Ticket t;
            while (requeueOnDown && (t = m.queue.poll()) != null) {
                if (t.redistribute()) {
                    moved++;
                }
            }
            m.server.requeued(moved, m.queue.size());
        }
        for (Member m : farm.members) {
            int fromBackend = drain(m);
            if (cameUp.contains(m)) {
                m.server.requeued(fromBackend, m.queue.size());
            }
        }
    }

    /** A slow start's next step: HAProxy raises the weights every max(1 s, slowstart / 20). */
    private void rampStep() {
        synchronized (this) {
            rampScheduled = false;
        }
        plan();
    }

    private long rampInterval() {
        long slowest = 0;
        for (Member m : roster.members) {
            slowest = Math.max(slowest, m.spec().slowstart);
        }
        return Math.max(1000, slowest / 20);
    }

    /**
     * Of the usable servers, those in use (HAProxy's): the active ones, else the first backup, or all the backups with
     * {@code allbackups}; the stats' backend weight is theirs.
     */
    public static <T> List<T> inUse(List<T> active, List<T> backups, boolean allBackups) {
        return !active.isEmpty() ? active : allBackups || backups.isEmpty() ? backups : backups.subList(0, 1);
    }

    /** The servers in use now ({@link #inUse}). */
    private Farm farm(long now) {
        List<Member> active = new ArrayList<>();
        List<Member> backups = new ArrayList<>();
        Member[] members = roster.members;
        for (Member m : members) {
            if (m.server.usable()) {
                (m.spec().backup ? backups : active).add(m);
            }
        }
        List<Member> used = inUse(active, backups, balance.allBackups);
        Member[] in = used.toArray(new Member[0]);
        for (Member m : members) {
            m.inFarm = used.contains(m);
        }
        int[] weights = new int[in.length];
        for (int i = 0; i < in.length; i++) {
            weights[i] = in[i].effectiveWeight(dynamicWeights, now);
        }
        return new Farm(in, weights);
    }

    /**
     * The weight of the servers in use: the usable active ones, else the backup(s) in use (HAProxy's lbprm.tot_weight, which
     * {@code http-check send-state} tells).
     */
    public int usedWeight() {
        int total = 0;
        for (Member m : farm.members) {
            total += m.server.weight();
        }
        return total;
    }

    /** Sets the backend load at which servers reach their maxconn, as computed from its frontends when not set. */
    public void computedFullconn(int value) {
        if (balance.fullconn == 0) {
            fullconn = Math.max(1, value);
        }
    }

    /** The backend load at which its servers reach their maxconn ({@code fullconn}, slim in the stats). */
    public int fullconn() {
        return fullconn;
    }

    /** Weights may change at run time ({@code set weight} takes any value); static algorithms take 0 or 100%. */
    public boolean dynamicWeights() {
        return dynamicWeights;
    }

    /** The scale of effective weights: a server at full speed has its weight times this. */
    public static final int WEIGHT_SCALE = Member.SCALE;

    /**
     * How far the slow start of {@code s} has come, in percent: the whole seconds since it began over slowstart's, at
     * least 1 (HAProxy's "throttle=" of {@code http-check send-state}); -1 when it is not in one.
     */
    public int slowStartPercent(Server s) {
        Member m = member(s);
        long start = m == null ? 0 : m.rampStart;
        long seconds = m == null ? 0 : m.slowstartSeconds();
        if (start == 0 || seconds == 0) {
            return -1;
        }
        long elapsed = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        return elapsed >= seconds ? -1 : (int) Math.max(1, 100 * elapsed / seconds);
    }

    /**
     * HAProxy's effective weight of {@code s} rounded up from its scale, as {@code srv_weight} and the stats' weight
     * give it: the user weight, or during a slow start the step it reached.
     */
    public int effectiveWeight(Server s) {
        int ramp = slowStartWeight(s);
        return ramp >= 0 && s.weight() > 0 ? (ramp + WEIGHT_SCALE - 1) / WEIGHT_SCALE : s.weight();
    }

    /**
     * The effective weight of {@code s} during a slow start, as the last step set it ({@link Member#SCALE}d,
     * HAProxy's cur_eweight), or -1 when it is in none (at full speed, or out of the servers in use).
     */
    public int slowStartWeight(Server s) {
        Member m = member(s);
        if (m == null || m.rampStart == 0) {
            return -1;
        }
        Farm f = farm;
        int i = f.indexOf(m);
        return i < 0 ? -1 : f.weights[i];
    }

    // --- choosing a server: on the stream's event loop ---------------------------------------------

    /**
     * True when {@code target} is the backend's {@code dispatch} address or its transparent destination rather than one of
     * its servers: as HAProxy, whatever {@code http-reuse} says, a connection to it serves its client connection only.
     */
    public boolean dispatches(Server target) {
        return dispatch != null && dispatch.server == target;
    }

    /**
     * True when the algorithm looks for its key in {@code request}'s body, to be waited for before choosing: {@code balance
     * url_param} on a POST, with or without {@code check_post} (HAProxy 2.6 reads no more from that word).
     */
    public boolean hashesPostBody(RequestHead request) {
        return dispatch == null && algorithm == Algorithm.URL_PARAM && request.method().contentEquals("POST")
                && request.bodyLength() != HttpHead.NO_BODY;
    }

    /**
     * Chooses a server for the stream of {@code ctx} and takes one of its slots for {@code ticket}, or puts
     * the ticket in a queue.
     *
     * @param avoid the server a retry leaves (another is preferred), or null
     */
    public Outcome assign(SampleContext ctx, Ticket ticket, Server avoid) {
        long seen = releases.get();
        if (dispatch != null) {
            return take(ticket, dispatch, seen);
        }
        if (farm.isEmpty()) {
            return Outcome.NO_SERVER;
        }
        Member m = avoid == null ? persisted(ctx) : null;
        if (m == null && !waitBehindQueue()) {
            m = balancer.pick(ctx, member(avoid));
        }
        if (m == null) {
            ticket.enqueue(queue, null, arrivals.getAndIncrement());
            if (releases.get() != seen) {
                for (Member each : farm.members) {
                    drain(each);
                }
            }
            return Outcome.QUEUED;
        }
        return take(ticket, m, seen);
    }

    /**
     * Whether the stream queues behind the backend's waiters without a pick ({@link Algorithm#queuesBehindWaiters}):
     * not when every stream of the backend waits there (this one counts in it already), as in HAProxy.
     */
    private boolean waitBehindQueue() {
        int waiting = queue.size();
        return waiting > 0 && algorithm.queuesBehindWaiters() && waiting != streams.current();
    }

    /** The server a stick rule gives the transaction, when it is in use; null for the algorithm to choose. */
    private Member persisted(SampleContext ctx) {
        Member m = affinity == null ? null : member(affinity.server(ctx, this));
        return m != null && m.inFarm ? m : null;
    }

    /** A transaction of this backend ended on {@code server}: the stick rules store it, unless it is {@code non-stick}. */
    public void ended(SampleContext ctx, Server server) {
        if (affinity != null && !server.spec().nonStick) {
            affinity.ended(ctx, server);
        }
    }

    /**
     * {@code option prefer-last-server}, or a client connection {@code bound} to its server: the transaction goes to
     * {@code server} when it is in use, to a free slot or else to its queue, unless that queue holds
     * {@code max-keep-alive-queue} transactions already (which does not apply to a bound connection); null when the
     * algorithm chooses instead.
     */
    public Outcome assignPreferred(Ticket ticket, Server server, boolean bound) {
        long seen = releases.get();
        Member m = member(server);
        if (m == null || !m.inFarm) {
            return null;
        }
        int limit = balance.maxKeepAliveQueue;
        boolean room = m.server.maxconn() == 0 || m.served() < m.dynamicMaxconn();
        if (!bound && limit >= 0 && !room && m.queue.size() >= limit) {
            return null;
        }
        return take(ticket, m, seen);
    }

    /**
     * Takes a slot of {@code server}, which persistence designated whatever its state, or queues the ticket on
     * it; the algorithm is not consulted.
     */
    public Outcome assignTo(Ticket ticket, Server server) {
        Member m = member(server);
        return m == null ? Outcome.NO_SERVER : take(ticket, m, releases.get()); // (deleted meanwhile)
    }

    /**
     * A slot of {@code m} for {@code ticket}, else a place in its queue unless that is full; {@code seen}: the
     * {@link #releases} before the stream found the server full.
     */
    private Outcome take(Ticket ticket, Member m, long seen) {
        if (m.tryTake()) {
            ticket.hold(m);
            return Outcome.ASSIGNED;
        }
        int maxqueue = m.spec().maxqueue;
        if (maxqueue > 0 && m.queue.size() >= maxqueue) {
            return Outcome.QUEUE_FULL;
        }
        ticket.enqueue(m.queue, m, arrivals.getAndIncrement());
        if (releases.get() != seen) {
            drain(m);
        }
        return Outcome.QUEUED;
    }

    private Member member(Server s) {
        if (s == null) {
            return null;
        }
        for (Member m : roster.members) {
            if (m.server == s) {
                return m;
            }
        }
        return null;
    }

    /** A slot of {@code m} was given back: the next waiter gets it. */
    void released(Member m) {
        m.server.streams().release();
        releases.incrementAndGet();
        drain(m);
    }

    /**
     * Hands free slots of {@code m} to the oldest waiters of its queue and of the backend's. Lock-free: a
     * slot is taken first, then a waiter; when none is left the slot goes back and the queues are looked at
     * again, so that a waiter that came meanwhile (and found no slot) is not forgotten.
     */
    /** Gives the server's free slots to the waiters; returns how many came from the backend's queue. */
    private int drain(Member m) {
        int fromBackend = 0;
        // (A server out of the farm still serves its own queue: persistence may send requests to it.)
        while (m.queue.size() > 0 || m.inFarm && queue.size() > 0) {
            if (!m.tryTakeForQueue()) {
                return fromBackend;
            }
            Ticket t = m.inFarm ? oldest(m) : m.queue.poll();
            if (t != null && t.grant(m)) {
                fromBackend += t.fromBackendQueue() ? 1 : 0;
                continue;
            }
            m.server.streams().release(); // no waiter took it (or it gave up): the slot goes back
        }
        return fromBackend;
    }

    /** The first of the server's and the backend's waiters, by priority then arrival. */
    private Ticket oldest(Member m) {
        Ticket mine = m.queue.peek();
        Ticket any = queue.peek();
        if (mine != null && (any == null || Ticket.ORDER.compare(mine, any) < 0)) {
            return m.queue.poll();
        }
        Ticket t = queue.poll();
        return t != null ? t : m.queue.poll();
    }

    /**
     * Whether retry number {@code retry} (from 1) after a failed connection to {@code failed} goes to another
     * server ({@code option redispatch}): when the server is no longer usable, on the retries the interval
     * designates (the last one by default), and, as HAProxy does, on any retry when the algorithm is not a
     * hash and more than one active server is in use.
     */
    public boolean redispatch(Server failed, int retry) {
        return redispatch(failed, retry, false);
    }

    /** As {@link #redispatch(Server, int)}; {@code direct}: a persistence cookie chose the server (no early redispatch). */
    public boolean redispatch(Server failed, int retry, boolean direct) {
        int interval = balance.redispatch;
        if (interval == 0) {
            return false;
        }
        if (!failed.usable() || (interval > 0 ? retry % interval == 0 : retry == retries + 1 + interval)) {
            return true;
        }
        Farm f = farm;
        return !direct && !balance.algorithm.hashed() && f.members.length > 1 && !f.members[0].spec().backup;
    }

    /** How long a stream may wait in a queue: {@code timeout queue}, else {@code timeout connect} (0: no limit). */
    public long queueTimeout() {
        return timeouts.queue > 0 ? timeouts.queue : timeouts.connect;
    }

    // --- state, for fetches, logs and stats ---------------------------------------------------------

    /** Slots held on its servers now (HAProxy's px->served): summed when asked, for hash-balance-factor only. */
    int served() {
        int n = 0;
        for (Member m : roster.members) {
            n += m.served();
        }
        return n;
    }

    /** Streams waiting in its queue and its servers' (HAProxy's totpend, the {@code queue} fetch). */
    public int queued() {
        int n = queue.size();
        for (Member m : roster.members) {
            n += m.queue.size();
        }
        return n;
    }

    /** Streams waiting in the queue of {@code server} (srv_queue). */
    public int queued(Server server) {
        Member m = member(server);
        return m == null ? 0 : m.queue.size();
    }

    /** The longest its own queue has been (the backend's qmax), since started or cleared. */
    public int queuePeak() {
        return queue.peak();
    }

    /** The longest the queue of {@code server} has been (its qmax). */
    public int queuePeak(Server server) {
        Member m = member(server);
        return m == null ? 0 : m.queue.peak();
    }

    /** {@code clear counters}: the queues' peaks come down to their lengths now. */
    public void resetQueuePeaks() {
        queue.resetPeak();
        for (Member m : roster.members) {
            m.queue.resetPeak();
        }
    }

    /** The servers in use now (active ones, else the backups in use): avg_queue divides by their number. */
    public int serversInUse() {
        return farm.members.length;
    }

    /** True when {@code server} is among the servers in use now. */
    public boolean inUse(Server server) {
        Member m = member(server);
        return m != null && m.inFarm;
    }

    /** The connection limit of {@code server} now (srv_dynamic_maxconn), 0 when it has none. */
    public int maxconnNow(Server server) {
        Member m = member(server);
        return m == null ? 0 : m.dynamicMaxconn();
    }

    /** Its cookie persistence and persist rules, or null. */
    public Persistence persistence() {
        return persistence;
    }

    /** Its tcp-request content rules (a listen section's are its frontend's). */
    public TcpRules tcpRules() {
        return tcpRules;
    }

    /** Its http-request, http-response and http-after-response rules (a listen section's are its frontend's). */
    public HttpRules rules() {
        return rules;
    }

    /** Its statistics page ({@code stats enable}...), or null (a listen section's is its frontend's). */
    public StatsPage statsPage() {
        return statsPage;
    }

    /** Which requests may use idle server connections ({@code http-reuse}). */
    public ReuseMode reuseMode() {
        return reuse;
    }

    /** The responses it sends for errors found once it was chosen (503, 502, 504...). */
    public ErrorSet errors() {
        return errors;
    }

    /** Its {@code compression} settings, or null. */
    public Compression compression() {
        return compression;
    }

    public HttpOptions httpOptions() {
        return http;
    }

    public String name() {
        return name;
    }

    /** HAProxy's numeric id of the proxy ({@link ProxySpec#id}). */
    public int numericId() {
        return id;
    }

    /** Its numeric id was given by its {@code id} keyword ({@code bk_f_forced_id} of {@code show servers state}). */
    public boolean forcedId() {
        return forcedId;
    }

    /** Its {@code description}, or null. */
    public String description() {
        return description;
    }

    /** Streams that chose this backend and have not ended yet. */
    public int currentStreams() {
        return streams.current();
    }

    /** Its servers as their state changes see them (where their events are logged). */
    public ServerGroup serverGroup() {
        return group;
    }

    /** Its servers now, in order (the configured ones, then those added at run time): a snapshot. */
    public List<Server> servers() {
        return roster.servers;
    }

    /** The transactions using this backend now. */
    public ConnLimit streams() {
        return streams;
    }

    public int retries() {
        return retries;
    }

    /** The algorithm, its arguments and the options of server choice. */
    public BalanceSpec balance() {
        return balance;
    }

    public Timeouts timeouts() {
        return timeouts;
    }

    public SocketOptions socketOptions() {
        return socket;
    }

    public Mode mode() {
        return mode;
    }

    /** Its {@code balance} algorithm. */
    public Algorithm algorithm() {
        return algorithm;
    }

    /** What {@code show stat} reports of it. */
    public Counters counters() {
        return counters;
    }
}
