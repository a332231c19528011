package io.fulcrum.peers;

import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.Source;
import io.fulcrum.listener.BindList;
import io.fulcrum.listener.BindSpec;
import io.fulcrum.proxy.ProxyKind;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.server.ServerList;
import io.fulcrum.server.ServerSpec;
import io.fulcrum.stick.StickTable;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/** A {@code peers} section as written: its peers, where the local one listens, and whether it is disabled. */
final class PeersSpec {
    /**
     * A {@code peer} or {@code server} line; {@code address} is null for a local peer without one; {@code server} holds
     * its options (TLS), with which this process connects to it.
     */
    record Peer(String name, InetSocketAddress address, Source source, ServerSpec server) {
    }

    /** HAProxy's peers sessions time out a connection or a TLS handshake after 5 s. */
    private static final long TIMEOUT_MS = 5000;

    final String name;
    final Source source;
    /** The local peer's name when the section was read (a later {@code localpeer} does not change it). */
    final String localName;
    final List<Peer> peers = new ArrayList<>();
    /** The address of a {@code bind} line (with {@code server} lines), or null. */
    InetSocketAddress bind;
    /** The options of the local peer's listener ({@code bind} line, or the local {@code peer} line), or null. */
    BindSpec listener;
    /** The {@code default-bind} line, whose options come before each bind line's, or null. */
    ConfigLine defaultBind;
    boolean sawBind;
    boolean sawPeerLine;
    boolean disabled;
    /** The tables it shares, found by the configuration check. */
    final List<StickTable> tables = new ArrayList<>();
    /** The section's proxy, named after the local peer as HAProxy's: its listener and servers get their TLS layers. */
    final ProxySpec proxy;
    final ServerList servers;

    PeersSpec(String name, Source source, String localName) {
        this.name = name;
        this.source = source;
        this.localName = localName;
        this.proxy = new ProxySpec(localName, ProxyKind.LISTEN, source);
        proxy.timeouts.connect = TIMEOUT_MS;
        proxy.timeouts.client = TIMEOUT_MS;
        this.servers = proxy.part(ServerList.class, ServerList::new);
    }

    Peer peer(String peerName) {
        for (Peer p : peers) {
            if (p.name().equals(peerName)) {
                return p;
            }
        }
        return null;
    }

    /** The local peer's listener options, once per section. */
    void listener(BindSpec b) {
        listener = b;
        proxy.part(BindList.class, BindList::new).binds.add(b);
    }
}
