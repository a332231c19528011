package io.fulcrum.peers;

import io.fulcrum.cfg.Source;
import io.fulcrum.stick.StickTable;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/** A {@code peers} section as written: its peers, where the local one listens, and whether it is disabled. */
final class PeersSpec {
    /** A {@code peer} or {@code server} line; {@code address} is null for a local peer without one. */
    record Peer(String name, InetSocketAddress address, Source source) {
    }

    final String name;
    final Source source;
    /** The local peer's name when the section was read (a later {@code localpeer} does not change it). */
    final String localName;
    final List<Peer> peers = new ArrayList<>();
    /** The address of a {@code bind} line (with {@code server} lines), or null. */
    InetSocketAddress bind;
    boolean sawBind;
    boolean sawPeerLine;
    boolean disabled;
    /** The tables it shares, found by the configuration check. */
    final List<StickTable> tables = new ArrayList<>();

    PeersSpec(String name, Source source, String localName) {
        this.name = name;
        this.source = source;
        this.localName = localName;
    }

    Peer peer(String peerName) {
        for (Peer p : peers) {
            if (p.name().equals(peerName)) {
                return p;
            }
        }
        return null;
    }
}
