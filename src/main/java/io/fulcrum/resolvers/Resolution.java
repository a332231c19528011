package io.fulcrum.resolvers;

import io.fulcrum.conn.Endpoint;
import io.fulcrum.conn.IpNetwork;
import io.fulcrum.conn.InetText;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerState;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.dns.DatagramDnsResponse;
import io.netty.handler.codec.dns.DnsRawRecord;
import io.netty.handler.codec.dns.DnsRecord;
import io.netty.handler.codec.dns.DnsRecordType;
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
import java.util.concurrent.TimeUnit;

/**
 * The run-time resolution of one server's name, as HAProxy's resolvers.c runs it: every {@code timeout resolve} a
 * query of the preferred type goes to all the name servers; the first valid answer wins. When all of them answer an
 * error, the other type is tried, then the preferred one again, {@code resolve_retries} times; a query that gets no
 * valid answer within {@code timeout retry} is sent again. When the retries run out, the server goes to maintenance
 * unless a valid answer came within the {@code hold} period of that error. Runs on the section's event loop.
 */
final class Resolution {
    private final ResolversRuntime section;
    private final Server server;
    private final ServerResolve settings;
    private final String name;
    private DnsRecordType type;
    private int id = -1;
    private int retriesLeft;
    private boolean triedOther;
    private final Set<NameserverLink> answered = new HashSet<>();
    private DnsStatus lastError;
    private long lastValid = System.nanoTime();
    private ScheduledFuture<?> timer;

    Resolution(ResolversRuntime section, Server server, ServerResolve settings) {
        this.section = section;
        this.server = server;
        this.settings = settings;
        this.name = server.spec().fqdn;
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

    private DnsRecordType preferred() {
        return settings.preferIpv4 ? DnsRecordType.A : DnsRecordType.AAAA;
    }

    private void query(DnsRecordType t) {
        cancel();
        type = t;
        answered.clear();
        id = section.send(this, name, t);
        timer = section.loop.schedule(this::timedOut, section.spec.retryMs, TimeUnit.MILLISECONDS);
    }

    /** Whether {@code m} answers this resolution's current question. */
    boolean answers(DatagramDnsResponse m) {
        DnsRecord q = m.recordAt(DnsSection.QUESTION);
        return q != null && q.type().equals(type) && q.name().replaceAll("\\.$", "").equalsIgnoreCase(name);
    }

    void answer(NameserverLink ns, DatagramDnsResponse m) {
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
                address(raw.content(), addresses);
            }
        }
        if (m.isTruncated()) {
            ns.truncated++;
        }
        if (status == DnsStatus.VALID && !addresses.isEmpty()) {
            ns.valid++;
            valid(ns, addresses);
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

    private static void address(ByteBuf content, List<InetAddress> out) {
        int n = content.readableBytes();
        if (n == 4 || n == 16) {
            try {
                out.add(InetAddress.getByAddress(ByteBufUtil.getBytes(content)));
            } catch (UnknownHostException e) {
                throw new AssertionError(e); // 4 or 16 bytes are always an address
            }
        }
    }

    /** Every name server answered an error: the other type, then the preferred one again while retries are left. */
    private void allFailed() {
        if (!triedOther) {
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

    /** The server goes to maintenance unless a valid answer came within the hold period of {@code status}. */
    private void failed(DnsStatus status) {
        long held = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastValid);
        ServerState st = server.state();
        if (held > section.spec.hold.get(status) && (st.admin() & ServerState.RMAINT) == 0 && server.endpoint() != null) {
            st.setAdmin(ServerState.RMAINT, " (" + status.reason + ")");
            Server.Address a = server.address();
            server.moveTo(new Server.Address(null, a.portMode(), a.port()));
        }
        next();
    }

    private void valid(NameserverLink ns, List<InetAddress> addresses) {
        lastValid = System.nanoTime();
        InetAddress ip = pick(addresses);
        Server.Address a = server.address();
        InetAddress now = a.endpoint() instanceof Endpoint.Inet inet ? inet.host() : null;
        if (!ip.equals(now)) {
            ns.update++;
            server.state().group().events().notice(server.id() + " changed its IP from " + (now == null ? "(none)" : InetText.of(now))
                    + " to " + InetText.of(ip) + " by " + section.spec.name + "/" + ns.spec.name() + ".");
            Endpoint.Family family = ip instanceof Inet4Address ? Endpoint.Family.IPV4 : Endpoint.Family.IPV6;
            int port = a.portMode() == io.fulcrum.server.ServerSpec.PortMode.FIXED ? a.port() : 0;
            server.moveTo(new Server.Address(new Endpoint.Inet(ip, port, family), a.portMode(), a.port()));
        }
        if ((server.state().admin() & ServerState.RMAINT) != 0) {
            server.state().clearAdmin(ServerState.RMAINT);
        }
        next();
    }

    /**
     * HAProxy's choice among the addresses of an answer: the preferred family first, then one in a {@code resolve-net}
     * network, then one no other server of the backend resolving the same name has (unless {@code allow-dup-ip}), then
     * the server's current address; the first of the best.
     */
    private InetAddress pick(List<InetAddress> addresses) {
        Set<InetAddress> taken = settings.allowDupIp ? Set.of() : takenByOthers();
        InetAddress current = server.endpoint() instanceof Endpoint.Inet inet ? inet.host() : null;
        InetAddress best = null;
        int bestScore = -1;
        for (InetAddress ip : addresses) {
            int score = (ip instanceof Inet4Address) == settings.preferIpv4 ? 8 : 0;
            for (IpNetwork net : settings.nets) {
                if (net.contains(ip)) {
                    score += 4;
                    break;
                }
            }
            score += taken.contains(ip) ? 0 : 2;
            score += ip.equals(current) ? 1 : 0;
            if (score > bestScore) {
                best = ip;
                bestScore = score;
            }
        }
        return best;
    }

    private Set<InetAddress> takenByOthers() {
        Set<InetAddress> taken = new HashSet<>();
        for (Server other : server.state().group().servers()) {
            if (other != server && name.equalsIgnoreCase(other.spec().fqdn) && other.endpoint() instanceof Endpoint.Inet inet) {
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
