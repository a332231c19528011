package io.fulcrum.resolvers;

import io.fulcrum.backend.Backend;
import io.fulcrum.runtime.EventLoops;
import io.fulcrum.runtime.Fulcrum;
import io.fulcrum.runtime.Services;
import io.fulcrum.server.Server;
import io.netty.channel.EventLoop;

import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.DnsResponse;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A resolvers section at run time: its name servers (UDP or TCP), all on one event loop (as HAProxy runs its
 * resolvers on one thread), and the resolutions of the servers that use the section. Queries carry a random id; an
 * answer is matched by it, so a late one (after the resolution moved on) only counts as outdated.
 */
final class ResolversRuntime implements Services.Service {
    final ResolversSpec spec;
    final List<NameserverLink> nameservers = new ArrayList<>();
    final List<Resolution> resolutions = new ArrayList<>();
    /** The resolutions of servers' names, by name and preferred family ({@link Lookup#key}); on the loop once started. */
    private final Map<String, Resolution> byName = new HashMap<>();
    /** The resolutions waiting for an answer, by query id. */
    private final Map<Integer, Resolution> pending = new HashMap<>();
    /** do-resolve's lookups in flight, by name and type. */
    private final Map<String, Lookup> lookups = new ConcurrentHashMap<>();
    /** What can be asked: labels of letters, digits, '-' and '_', 63 bytes at most, 253 in all. */
    private static final Pattern HOST_NAME = Pattern.compile("(?=.{1,253}\\.?$)([A-Za-z0-9_-]{1,63}\\.)*[A-Za-z0-9_-]{1,63}\\.?");
    /** The section's loop, set at start (the CLI reads the counters there). */
    volatile EventLoop loop;
    private boolean stopped;
    private EventLoops loops;
    /** A do-resolve rule names the section. */
    private boolean usedByRules;
    /** What waits for the name servers' sockets to open; null once they are (used on the section's loop only). */
    private List<Runnable> waiting = new ArrayList<>();

    ResolversRuntime(ResolversSpec spec) {
        this.spec = spec;
        spec.nameservers.forEach(ns -> nameservers.add(NameserverLink.of(ns)));
    }

    /** The counters are the loop's (when started; the next show resolvers, also read there, comes after). */
    @Override
    public void clearAll() {
        EventLoop l = loop;
        if (l == null) {
            nameservers.forEach(NameserverLink::clearCounters);
        } else {
            l.execute(() -> nameservers.forEach(NameserverLink::clearCounters));
        }
    }

    /** A do-resolve rule names this section: its sockets open at start. */
    void usedByRules() {
        usedByRules = true;
    }

    @Override
    public boolean start(Fulcrum process) {
        for (Backend b : process.backends().values()) {
            Map<String, SrvRecords> srvs = new HashMap<>();
            for (Server s : b.servers()) {
                ServerResolve r = s.spec().partOrNull(ServerResolve.class);
                if (r != null && spec.name.equals(r.resolvers) && s.spec().srvRecord != null) {
                    // One SRV resolution per name and backend, as HAProxy's srvrq.
                    srvs.computeIfAbsent(s.spec().srvRecord.toLowerCase(Locale.ROOT), k -> {
                        SrvRecords records = new SrvRecords(this, s.spec().srvRecord, b.dynamicWeights());
                        resolutions.add(new Resolution(this, records));
                        return records;
                    }).add(s, r);
                } else if (r != null && spec.name.equals(r.resolvers) && s.spec().fqdn != null) {
                    resolution(s.spec().fqdn, r.preferIpv4).add(s, r);
                }
            }
        }
        this.loops = process.loops();
        EventLoop l = loops.next();
        loop = l;
        if (!resolutions.isEmpty() || usedByRules) {
            l.execute(() -> whenOpen(() -> List.copyOf(resolutions).forEach(Resolution::start)));
        }
        return true;
    }

    /**
     * Runs {@code then} on the section's loop once the name servers' sockets are open. A section that servers or
     * do-resolve rules use opens them at start (the first rule then does not wait for it); one that nothing uses (the
     * implicit "default" one) holds no socket until a query needs it, as HAProxy connects a name server at its first
     * query.
     */
    private void whenOpen(Runnable then) {
        if (waiting == null) {
            then.run();
            return;
        }
        waiting.add(then);
        if (waiting.size() > 1) {
            return; // opening already
        }
        // The first queries go once every socket is bound (a write before that fails).
        int[] binding = {nameservers.size()};
        for (NameserverLink ns : nameservers) {
            ns.open(loops, loop, this).addListener(f -> {
                if (--binding[0] == 0) {
                    List<Runnable> ready = waiting;
                    waiting = null;
                    if (stopped) {
                        nameservers.forEach(NameserverLink::close); // stopped while they opened
                    } else {
                        ready.forEach(Runnable::run);
                    }
                }
            });
        }
    }

    /** The resolution of {@code name} for the preferred family: one per name and family, as HAProxy shares them. */
    private Resolution resolution(String name, boolean ipv4) {
        return byName.computeIfAbsent(Lookup.key(name, ipv4), k -> {
            Resolution res = new Resolution(this, name, ipv4);
            resolutions.add(res);
            return res;
        });
    }

    /**
     * {@code set server fqdn}: {@code server} resolves {@code name} from now on, with the servers that resolve it already
     * or in a resolution of its own that starts at once; the resolution of its old name ends when no server is left to it.
     */
    void rename(Server server, ServerResolve settings, String name) {
        loop.execute(() -> {
            byName.values().removeIf(res -> {
                if (!res.remove(server)) {
                    return false;
                }
                res.stop();
                resolutions.remove(res);
                return true;
            });
            Resolution res = resolution(name.endsWith(".") ? name.substring(0, name.length() - 1) : name, settings.preferIpv4);
            res.add(server, settings);
            if (!res.running()) {
                whenOpen(res::start);
            }
        });
    }

    @Override
    public void stop() {
        EventLoop l = loop;
        if (l != null) {
            l.execute(() -> {
                stopped = true;
                List.copyOf(resolutions).forEach(Resolution::stop);
                if (waiting == null) {
                    nameservers.forEach(NameserverLink::close);
                }
            });
        }
    }

    boolean stopped() {
        return stopped;
    }

    /**
     * do-resolve's lookup of {@code fqdn}: completes with the address, or null when the name does not resolve. The
     * transactions asking for the same name meanwhile share the lookup; none is kept once answered (as HAProxy frees a
     * resolution that has no requester left).
     */
    Lookup lookup(String fqdn, boolean ipv4) {
        String name = fqdn.endsWith(".") ? fqdn.substring(0, fqdn.length() - 1) : fqdn;
        String key = Lookup.key(name, ipv4);
        EventLoop l = loop;
        if (l == null || !HOST_NAME.matcher(name).matches()) {
            Lookup none = new Lookup(key);
            none.complete(null);
            return none;
        }
        return lookups.computeIfAbsent(key, k -> {
            Lookup lookup = new Lookup(k);
            lookup.whenComplete((ip, e) -> lookups.remove(k, lookup));
            l.execute(() -> whenOpen(() -> new Resolution(this, name, ipv4, lookup).start()));
            return lookup;
        });
    }

    /** A do-resolve lookup: the address of a name and family, or null. */
    static final class Lookup extends CompletableFuture<InetAddress> {
        final String key;

        Lookup(String key) {
            this.key = key;
        }

        static String key(String name, boolean ipv4) {
            return name.toLowerCase(Locale.ROOT) + (ipv4 ? "/A" : "/AAAA");
        }
    }

    /** Sends {@code name}'s query of {@code type} to every name server; returns its id. */
    int send(Resolution r, String name, DnsRecordType type) {
        int id;
        do {
            id = ThreadLocalRandom.current().nextInt(1 << 16);
        } while (pending.containsKey(id));
        pending.put(id, r);
        for (NameserverLink ns : nameservers) {
            ns.send(id, name, type, spec.payloadSize);
        }
        return id;
    }

    /** The query {@code id} gets no more answers. */
    void forget(int id) {
        pending.remove(id);
        nameservers.forEach(ns -> ns.forget(id));
    }

    /** An answer of {@code ns}: to the resolution that waits for it, else outdated. */
    void answered(NameserverLink ns, DnsResponse m) {
        Resolution r = pending.get(m.id());
        if (r == null || !r.answers(m)) {
            ns.outdated++;
            return;
        }
        r.answer(ns, m);
    }
}
