package io.fulcrum.peers;

import io.fulcrum.server.ServerTransport;

import java.net.InetSocketAddress;

/**
 * A peer of a section, connected or not: its current session, when to connect again, the last status of a handshake,
 * and per shared table the last update it acknowledged (where a new session resumes pushing). Owned by the section's
 * event loop.
 */
final class PeerLink {
    final String name;
    /** Where it listens; null for the local peer without an address. */
    final InetSocketAddress address;
    final boolean local;
    /** The TLS layer of the connections to it, or null (clear TCP). */
    final ServerTransport transport;
    final long[] acked;
    /** Volatile: {@code show info} counts the sessions from another thread. */
    volatile PeerSession session;
    long reconnectAt;
    int status;
    /** The protocol's minor version to offer: 0 after the peer refused ours (502). */
    int minor = Wire.MINOR;
    /** It answered a resync request with "partial": not asked again. */
    boolean notUpToDate;
    long lastHandshake;
    long newConnections;
    long protocolErrors;
    /** Sessions replaced by another the peer opened at the same time. */
    long collisions;
    /** Sessions closed because nothing came for too long. */
    long noHeartbeat;
    long heartbeatsSent;
    long heartbeatsReceived;

    PeerLink(String name, InetSocketAddress address, boolean local, ServerTransport transport, int tables) {
        this.name = name;
        this.transport = transport;
        this.address = address;
        this.local = local;
        this.acked = new long[tables];
    }
}
