package io.fulcrum.resolvers;

import io.fulcrum.conn.Endpoint;
import io.fulcrum.conn.IpNetwork;
import io.fulcrum.conn.InetText;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerSpec;
import io.fulcrum.server.ServerState;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.dns.DnsRawRecord;
import io.netty.handler.codec.dns.DnsRecord;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.DnsResponse;
import io.netty.handler.codec.dns.DnsResponseCode;
import io.netty.handler.codec.dns.DnsSection;
import io.netty.util.concurrent.ScheduledFuture;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The run-time resolution of a name for the servers that resolve it with the same preferred family (HAProxy's
 * resolution and its requesters), as HAProxy's resolvers.c runs it: every {@code timeout resolve} a
 * query of the preferred type goes to all the name servers; the first valid answer wins. When all of them answer an
 * error, the other type is tried, then the preferred one again, {@code resolve_retries} times; a query that gets no
 * valid answer within {@code timeout retry} is sent again. When the retries run out, the server goes to maintenance
 * unless a valid answer came within the {@code hold} period of that error. A valid answer is offered to each server in
 * turn: the first one names the name server that gave it, the others "DNS cache", as HAProxy's lines do. Runs on the
 * section's event loop.
 */
final class Resolution {
    private final ResolversRuntime section;
    private final String name;
    private final boolean preferIpv4;
    /** The servers resolving the name, in their configuration's order. */
    private final List<Requester> requesters = new ArrayList<>();
    private DnsRecordType type;
    private int id = -1;
    private int retriesLeft;
    private boolean triedOther;
    private final Set<NameserverLink> answered = new HashSet<>();
    private DnsStatus lastError;
    private long lastValid = System.nanoTime();
    private ScheduledFuture<?> timer;
    /** For a do-resolve lookup (resolved once, no server): its address, or null when the name did not resolve. */
    private final CompletableFuture<InetAddress> answer;
    /** For an SRV name: the servers its records fill (no requester then). */
    private final SrvRecords srv;

    /** A server and its DNS settings. */
    private record Requester(Server server, ServerResolve settings) {
    }

    Resolution(ResolversRuntime section, String name, boolean preferIpv4) {
        this(section, name, preferIpv4, null);
    }

    /** A resolution that runs once and completes {@code answer} (do-resolve). */
    Resolution(ResolversRuntime section, String name, boolean preferIpv4, CompletableFuture<InetAddress> answer) {
        this(section, name, preferIpv4, answer, null);
    }

    /** The resolution of an SRV name, whose answers go to {@code srv}. */
    Resolution(ResolversRuntime section, SrvRecords srv) {
        this(section, srv.name, false, null, srv);
    }

    private Resolution(ResolversRuntime section, String name, boolean preferIpv4, CompletableFuture<InetAddress> answer, SrvRecords srv) {
        this.section = section;
        this.name = name;
        this.preferIpv4 = preferIpv4;
        this.answer = answer;
        this.srv = srv;
    }

    void add(Server server, ServerResolve settings) {
        requesters.add(new Requester(server, settings));
    }

    /** Takes {@code server} out of the servers resolving the name; true when it was the last one. */
    boolean remove(Server server) {
        return requesters.removeIf(r -> r.server == server) && requesters.isEmpty();
    }

    /** It was started: a query or the next one is scheduled. */
    boolean running() {
        return timer != null;
    }

    /** Starts now, and again {@code timeout resolve} after each outcome. */
    void start() {
        if (section.stopped()) {
            return;
        }
        retriesLeft = section.spec.retries;
        triedOther = false;
        lastError = null;
        query(preferred());
    }

    void cancel() {
        if (timer != null) {
            timer.cancel(false);
        }
        section.forget(id);
    }

    /** Stops it for good, with the resolutions of an SRV name's targets. */
    void stop() {
        cancel();
        if (srv != null) {
            srv.cancel();
        }
    }

    private DnsRecordType preferred() {
        return srv != null ? DnsRecordType.SRV : preferIpv4 ? DnsRecordType.A : DnsRecordType.AAAA;
    }

    private void query(DnsRecordType t) {
        cancel();
        type = t;
        answered.clear();
        id = section.send(this, name, t);
        timer = section.loop.schedule(this::timedOut, section.spec.retryMs, TimeUnit.MILLISECONDS);
    }

    /** Whether {@code m} answers this resolution's current question. */
    boolean answers(DnsResponse m) {
        DnsRecord q = m.recordAt(DnsSection.QUESTION);
        return q != null && q.type().equals(type) && q.name().replaceAll("\\.$", "").equalsIgnoreCase(name);
    }

    void answer(NameserverLink ns, DnsResponse m) {
        if (!answered.add(ns)) {
            ns.outdated++;
            return;
        }
        DnsStatus status = status(m.code());
        List<InetAddress> addresses = new ArrayList<>();
        for (int i = 0, n = m.count(DnsSection.ANSWER); i < n; i++) {
            DnsRecord r = m.recordAt(DnsSection.ANSWER, i);
            if (r.type().equals(DnsRecordType.CNAME)) {
                ns.cname++;
            } else if ((r.type().equals(DnsRecordType.A) || r.type().equals(DnsRecordType.AAAA)) && r instanceof DnsRawRecord raw) {
                InetAddress ip = address(raw.content());
                if (ip != null) {
                    addresses.add(ip);
                }
            }
        }
        if (m.isTruncated()) {
            ns.truncated++;
        }
        if (status == DnsStatus.VALID && (srv != null ? SrvRecords.hasRecords(m) : !addresses.isEmpty())) {
            ns.valid++;
            if (srv != null) {
                lastValid = System.nanoTime();
                srv.answered(m);
                next();
            } else {
                valid(ns, addresses);
            }
            return;
        }
        if (status == DnsStatus.VALID) {
            ns.anyErr++; // no address of the type asked
            status = DnsStatus.OTHER;
        } else {
            ns.count(status);
        }
        lastError = status;
        if (answered.size() == section.nameservers.size()) {
            allFailed();
        }
    }

    private static DnsStatus status(DnsResponseCode code) {
        if (code.equals(DnsResponseCode.NOERROR)) {
            return DnsStatus.VALID;
        }
        if (code.equals(DnsResponseCode.NXDOMAIN)) {
            return DnsStatus.NX;
        }
        return code.equals(DnsResponseCode.REFUSED) ? DnsStatus.REFUSED : DnsStatus.OTHER;
    }

    /** The address an A or AAAA record holds, or null when it has neither 4 nor 16 bytes. */
    static InetAddress address(ByteBuf content) {
        int n = content.readableBytes();
        if (n != 4 && n != 16) {
            return null;
        }
        try {
            return InetAddress.getByAddress(ByteBufUtil.getBytes(content));
        } catch (UnknownHostException e) {
            throw new AssertionError(e); // 4 or 16 bytes are always an address
        }
    }

    /**
     * Every name server answered an error: the other address type (an SRV name has none), then the preferred one again
     * while retries are left.
     */
    private void allFailed() {
        if (!triedOther && srv == null) {
            triedOther = true;
            query(type.equals(DnsRecordType.A) ? DnsRecordType.AAAA : DnsRecordType.A);
        } else if (--retriesLeft > 0) {
            triedOther = false;
            query(preferred());
        } else {
            failed(lastError);
        }
    }

    private void timedOut() {
        section.forget(id);
        for (NameserverLink ns : section.nameservers) {
            if (!answered.contains(ns)) {
                ns.timeout++;
            }
        }
        if (--retriesLeft > 0) {
            query(type);
        } else {
            failed(lastError != null && answered.size() == section.nameservers.size() ? lastError : DnsStatus.TIMEOUT);
        }
    }

    /** The servers go to maintenance unless a valid answer came within the hold period of {@code status}. */
    private void failed(DnsStatus status) {
        if (answer != null) {
            cancel();
            answer.complete(null);
            return;
        }
        long held = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastValid);
        if (held > section.spec.hold.get(status)) {
            requesters.forEach(r -> noAddress(r.server, status.reason));
            if (srv != null) {
                srv.lost();
            }
        }
        next();
    }

    /** Resolution maintenance for {@code reason}, without an address (the next one is logged as from "(none)"). */
    private static void noAddress(Server server, String reason) {
        ServerState st = server.state();
        if ((st.admin() & ServerState.RMAINT) == 0) {
            st.setAdmin(ServerState.RMAINT, " (" + reason + ")");
            Server.Address a = server.address();
            server.moveTo(new Server.Address(null, a.portMode(), a.port()));
        }
    }

    private void valid(NameserverLink ns, List<InetAddress> addresses) {
        lastValid = System.nanoTime();
        if (answer != null) {
            cancel();
            answer.complete(addresses.stream().filter(ip -> (ip instanceof Inet4Address) == preferIpv4).findFirst()
                    .orElse(addresses.getFirst()));
            return;
        }
        boolean first = true;
        for (Requester r : requesters) {
            if (update(r, addresses, first ? section.spec.name + "/" + ns.spec.name() : "DNS cache") && first) {
                ns.update++;
            }
            first = false;
        }
        next();
    }

    /** Gives {@code r}'s server an address of the answer; true when it changed. */
    private boolean update(Requester r, List<InetAddress> addresses, String by) {
        Server server = r.server;
        InetAddress ip = pick(r, addresses);
        if (ip == null) {
            noAddress(server, "No IP for server ");
            return false;
        }
        Server.Address a = server.address();
        InetAddress now = a.endpoint() instanceof Endpoint.Inet inet ? inet.host() : null;
        boolean changed = !ip.equals(now);
        if (changed) {
            server.state().group().events().notice(server.id() + " changed its IP from " + (now == null ? "(none)" : InetText.of(now))
                    + " to " + InetText.of(ip) + " by " + by + ".");
            Endpoint.Family family = ip instanceof Inet4Address ? Endpoint.Family.IPV4 : Endpoint.Family.IPV6;
            int port = a.portMode() == ServerSpec.PortMode.FIXED ? a.port() : 0;
            server.moveTo(new Server.Address(new Endpoint.Inet(ip, port, family), a.portMode(), a.port()));
        }
        if ((server.state().admin() & ServerState.RMAINT) != 0) {
            server.state().clearAdmin(ServerState.RMAINT);
            server.state().group().events().notice("Server " + server.id() + " administratively READY thanks to valid DNS answer.");
        }
        return changed;
    }

    /**
     * HAProxy's choice among the addresses of an answer: never one another server of the backend resolving the same name
     * has (unless {@code allow-dup-ip}); the preferred family first, then one in a {@code resolve-net} network, then the
     * server's current address; the first of the best. Null when none is left.
     */
    private InetAddress pick(Requester r, List<InetAddress> addresses) {
        Set<InetAddress> taken = r.settings.allowDupIp ? Set.of() : takenByOthers(r.server);
        InetAddress current = r.server.endpoint() instanceof Endpoint.Inet inet ? inet.host() : null;
        InetAddress best = null;
        int bestScore = -1;
        for (InetAddress ip : addresses) {
            if (taken.contains(ip)) {
                continue;
            }
            int score = (ip instanceof Inet4Address) == preferIpv4 ? 8 : 0;
            for (IpNetwork net : r.settings.nets) {
                if (net.contains(ip)) {
                    score += 4;
                    break;
                }
            }
            score += ip.equals(current) ? 1 : 0;
            if (score > bestScore) {
                best = ip;
                bestScore = score;
            }
        }
        return best;
    }

    private Set<InetAddress> takenByOthers(Server server) {
        Set<InetAddress> taken = new HashSet<>();
        for (Server other : server.state().group().servers()) {
            if (other != server && name.equalsIgnoreCase(other.fqdn()) && other.endpoint() instanceof Endpoint.Inet inet) {
                taken.add(inet.host());
            }
        }
        return taken;
    }

    private void next() {
        cancel();
        timer = section.loop.schedule(this::start, section.spec.resolveMs, TimeUnit.MILLISECONDS);
    }
}
