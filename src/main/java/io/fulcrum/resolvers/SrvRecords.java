package io.fulcrum.resolvers;

import io.fulcrum.conn.Endpoint;
import io.fulcrum.conn.InetText;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerSpec;
import io.fulcrum.server.ServerState;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.dns.DefaultDnsRecordDecoder;
import io.netty.handler.codec.dns.DnsRawRecord;
import io.netty.handler.codec.dns.DnsRecord;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.DnsResponse;
import io.netty.handler.codec.dns.DnsSection;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The servers of a backend named by one SRV record ({@code server-template s 3 _http._tcp.app.test}), filled from its
 * answers as HAProxy's resolv_check_response() does: each target of the answer takes the server it had, else the first
 * free one; it gets the target's name, the record's port and its weight scaled from 0-65535 to 0-256 (unless
 * {@code resolve-opts ignore-weight}), and its address from the answer's additional records, or else from a resolution
 * of the target of its own. A record not seen for {@code hold obsolete} frees its server, which goes to maintenance;
 * so do all of them when the SRV name stops resolving. Runs on the section's event loop.
 */
final class SrvRecords {
    /** A target seen in the answers. */
    private static final class Item {
        final String target;
        final int port;
        int weight;
        long lastSeen;
        /** The target's address from the additional records, and when it was last there. */
        InetAddress additional;
        long additionalSeen;
        Server server;

        Item(String target, int port) {
            this.target = target;
            this.port = port;
        }
    }

    private final ResolversRuntime section;
    final String name;
    private final List<Item> items = new ArrayList<>();
    /** The servers no record uses, the first to be taken first (a freed one goes last, as in HAProxy). */
    private final Deque<Server> free = new ArrayDeque<>();
    private final Map<Server, ServerResolve> settings = new HashMap<>();
    /** The resolutions of targets that came without an additional record, by server. */
    private final Map<Server, Resolution> targets = new HashMap<>();

    /** Whether the backend's algorithm takes any weight (a static one takes only 0 and the initial weight). */
    private final boolean dynamicWeights;

    SrvRecords(ResolversRuntime section, String name, boolean dynamicWeights) {
        this.section = section;
        this.name = name;
        this.dynamicWeights = dynamicWeights;
    }

    void add(Server server, ServerResolve r) {
        free.add(server);
        settings.put(server, r);
    }

    /** The SRV records of a valid answer: false when it has none (the resolution counts that as an error). */
    static boolean hasRecords(DnsResponse m) {
        for (int i = 0, n = m.count(DnsSection.ANSWER); i < n; i++) {
            if (m.recordAt(DnsSection.ANSWER, i).type().equals(DnsRecordType.SRV)) {
                return true;
            }
        }
        return false;
    }

    /** A valid answer: the records it lists are seen now, the obsolete ones go, and the servers follow. */
    void answered(DnsResponse m) {
        long now = System.nanoTime();
        for (int i = 0, n = m.count(DnsSection.ANSWER); i < n; i++) {
            if (m.recordAt(DnsSection.ANSWER, i) instanceof DnsRawRecord r && r.type().equals(DnsRecordType.SRV)) {
                seen(r.content().duplicate(), now);
            }
        }
        for (int i = 0, n = m.count(DnsSection.ADDITIONAL); i < n; i++) {
            DnsRecord r = m.recordAt(DnsSection.ADDITIONAL, i);
            if ((r.type().equals(DnsRecordType.A) || r.type().equals(DnsRecordType.AAAA)) && r instanceof DnsRawRecord raw) {
                InetAddress ip = Resolution.address(raw.content());
                String target = lower(r.name());
                for (Item item : items) {
                    if (ip != null && item.target.equals(target)) {
                        item.additional = ip;
                        item.additionalSeen = now;
                    }
                }
            }
        }
        long obsolete = TimeUnit.MILLISECONDS.toNanos(section.spec.holdObsolete);
        for (Iterator<Item> it = items.iterator(); it.hasNext(); ) {
            Item item = it.next();
            if (item.additional != null && now - item.additionalSeen > obsolete) {
                item.additional = null;
            }
            if (now - item.lastSeen > obsolete) {
                it.remove();
                if (item.server != null) {
                    release(item.server);
                }
            }
        }
        for (Item item : items) {
            if (item.server == null && !free.isEmpty()) {
                item.server = free.poll();
            }
            if (item.server != null) {
                fill(item.server, item);
            }
        }
    }

    private void seen(ByteBuf rdata, long now) {
        if (rdata.readableBytes() <= 6) {
            return;
        }
        rdata.readUnsignedShort(); // priority: HAProxy does not use it
        int weight = rdata.readUnsignedShort();
        int port = rdata.readUnsignedShort();
        String target = lower(DefaultDnsRecordDecoder.decodeName(rdata));
        for (Item item : items) {
            if (item.target.equals(target) && item.port == port) {
                item.weight = weight;
                item.lastSeen = now;
                return;
            }
        }
        Item item = new Item(target, port);
        item.weight = weight;
        item.lastSeen = now;
        items.add(item);
    }

    private static String lower(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.endsWith(".") ? n.substring(0, n.length() - 1) : n;
    }

    /** Gives {@code server} the record's target, port and weight, and an address. */
    private void fill(Server server, Item item) {
        ServerState st = server.state();
        if (server.fqdn() == null) {
            server.fqdn(item.target);
            st.restoreAdmin(ServerState.HMAINT);
        }
        Server.Address a = server.address();
        InetAddress now = a.endpoint() instanceof Endpoint.Inet inet ? inet.host() : null;
        InetAddress ip = now;
        if (item.additional != null) {
            stopResolving(server);
            ip = item.additional;
            if (!ip.equals(now)) {
                st.group().events().notice(server.id() + " changed its IP from " + (now == null ? "(none)" : InetText.of(now))
                        + " to " + InetText.of(ip) + " by DNS additional record.");
            }
        } else if (!targets.containsKey(server)) {
            ServerResolve r = settings.get(server);
            Resolution res = new Resolution(section, item.target, r.preferIpv4);
            res.add(server, r);
            targets.put(server, res);
            section.resolutions.add(res);
            res.start();
        }
        if (ip != null && (!ip.equals(now) || a.port() != item.port || a.portMode() != ServerSpec.PortMode.FIXED)) {
            Endpoint.Family family = ip instanceof Inet4Address ? Endpoint.Family.IPV4 : Endpoint.Family.IPV6;
            server.moveTo(new Server.Address(new Endpoint.Inet(ip, item.port, family), ServerSpec.PortMode.FIXED, item.port));
        } else if (ip == null) {
            server.moveTo(new Server.Address(null, ServerSpec.PortMode.FIXED, item.port));
        }
        if (ip != null) {
            st.clearAdmin(ServerState.RMAINT);
        }
        // DNS weights go from 0 to 65535, HAProxy's from 0 to 256; 0 stays 0. A static algorithm refuses other changes
        // than to 0 or the initial weight, as "set weight" does.
        int weight = (item.weight + 255) / 256;
        if (!settings.get(server).ignoreWeight && (dynamicWeights || weight == 0 || weight == st.initialWeight())) {
            st.setWeight(weight);
        }
    }

    /** The record of {@code server} is gone: it goes to maintenance without a name nor an address, and is free again. */
    private void release(Server server) {
        stopResolving(server);
        ServerState st = server.state();
        if ((st.admin() & ServerState.RMAINT) == 0) {
            st.setAdmin(ServerState.RMAINT, " (entry removed from SRV record)");
        }
        server.fqdn(null);
        server.moveTo(new Server.Address(null, server.address().portMode(), 0));
        free.add(server);
    }

    private void stopResolving(Server server) {
        Resolution res = targets.remove(server);
        if (res != null) {
            res.cancel();
            section.resolutions.remove(res);
        }
    }

    /** The SRV name stopped resolving beyond its hold period: every server is released. */
    void lost() {
        for (Item item : items) {
            if (item.server != null) {
                release(item.server);
            }
        }
        items.clear();
    }

    /** Stops the targets' resolutions. */
    void cancel() {
        targets.values().forEach(Resolution::cancel);
        targets.clear();
    }
}
