package io.fulcrum.peers;

import io.fulcrum.server.ServerTransport;

import java.net.InetSocketAddress;

/**
 * A peer of a section, connected or not: its current session, when to connect again, the last status of a handshake,
 * and per shared table the last update it acknowledged (where a new session resumes pushing) and the cursors of its
 * sessions. Owned by the section's event loop.
 */
final class PeerLink {

    /**
     * Where the peer's sessions stand with one shared table. Kept from one session to the next, as HAProxy keeps them
     * in its peer's shared table: {@code show peers} still shows the last session's once it is gone, and the peer's
     * table id and data types until the peer defines the table again (a restarted peer that has nothing to push does
     * not); a new session restarts the counts of updates received and acknowledged.
     */
    static final class Cursor {
        long lastPushed;
        long lastGet;
        long lastAcked;
        /** The last update id when a resync lesson began: the peer's confirmation acknowledges everything up to it. */
        long teachingOrigin;
        /** The peer's id of this table, from its definition (0: none yet). */
        long remoteId;
        /** The data types the peer's definition announced. */
        long remoteTypes;

        /** A new session: pushes resume after {@code acked}, the last update the peer acknowledged, as HAProxy's. */
        void begin(long acked) {
            lastGet = 0;
            lastAcked = 0;
            lastPushed = acked;
            teachingOrigin = acked;
        }
    }

    final String name;
    /** Where it listens; null for the local peer without an address. */
    final InetSocketAddress address;
    final boolean local;
    /** The TLS layer of the connections to it, or null (clear TCP). */
    final ServerTransport transport;
    final long[] acked;
    final Cursor[] cursors;
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
        this.cursors = new Cursor[tables];
        for (int i = 0; i < tables; i++) {
            cursors[i] = new Cursor();
        }
    }
}
