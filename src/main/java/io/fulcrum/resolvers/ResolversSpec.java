package io.fulcrum.resolvers;

import io.fulcrum.cfg.Source;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** A {@code resolvers} section (configuration.txt 5.3.2), with HAProxy's defaults. */
final class ResolversSpec {
    /**
     * A {@code nameserver} line (or one found by {@code parse-resolv-conf}).
     *
     * @param stream  reached over TCP ({@code tcp@})
     * @param maxconn the connections a stream name server may have at once (0: no limit)
     */
    record Nameserver(String name, InetSocketAddress address, boolean stream, int maxconn, Source source) {
        /** A datagram name server. */
        Nameserver(String name, InetSocketAddress address, Source source) {
            this(name, address, false, 0, source);
        }
    }

    final String name;
    final Source source;
    final List<Nameserver> nameservers = new ArrayList<>();
    int payloadSize = 512;
    int retries = 3;
    long resolveMs = 1000;
    long retryMs = 1000;
    /** {@code hold <status>}: how long a valid answer outweighs a failure of that kind, in ms. */
    final Map<DnsStatus, Long> hold = new EnumMap<>(DnsStatus.class);
    /** {@code hold obsolete}: how long an SRV record missing from the answers keeps its server, in ms. */
    long holdObsolete;
    ResolversSpec(String name, Source source) {
        this.name = name;
        this.source = source;
        for (DnsStatus s : DnsStatus.values()) {
            if (s != DnsStatus.VALID) {
                hold.put(s, 30_000L);
            }
        }
    }

    Nameserver nameserver(String n) {
        return nameservers.stream().filter(ns -> ns.name().equals(n)).findFirst().orElse(null);
    }
}
