package io.fulcrum.mux.h1;

import io.fulcrum.pool.ReuseKey;
import io.fulcrum.server.Server;

/**
 * The idle server connections a client connection keeps for itself between its requests (those that may not be
 * shared: {@code http-reuse never}, dispatch and transparent addresses, NTLM), at most {@code max-session-srv-conns}
 * of them, as HAProxy's session server list: one past the limit is closed. Lives on the client's loop; a few entries,
 * searched in order.
 */
final class SessionServerConns {
    private final int max;
    private final Server[] targets;
    private final H1ServerConnection[] conns;
    private int size;

    SessionServerConns(int max) {
        this.max = Math.max(0, max);
        this.targets = new Server[this.max];
        this.conns = new H1ServerConnection[this.max];
    }

    /** Keeps {@code conn} to {@code target}, or closes it when the list is full of live connections. */
    void keep(Server target, H1ServerConnection conn) {
        dropClosed();
        if (size == max) {
            conn.channel().close();
            return;
        }
        targets[size] = target;
        conns[size++] = conn;
    }

    /** Takes the kept live connection to {@code target}, opened with the key {@code to} unless null, or null; the others stay kept. */
    H1ServerConnection take(Server target, ReuseKey to) {
        dropClosed();
        for (int i = 0; i < size; i++) {
            if (targets[i] == target && ReuseKey.fits(conns[i].channel(), to)) {
                H1ServerConnection c = conns[i];
                remove(i);
                return c;
            }
        }
        return null;
    }

    /** A kept connection to {@code target} is bound to this client by authentication (NTLM, Negotiate). */
    boolean boundTo(Server target) {
        for (int i = 0; i < size; i++) {
            if (targets[i] == target && conns[i].isPrivate()) {
                return true;
            }
        }
        return false;
    }

    /** Closes every kept connection: the client connection is gone. */
    void closeAll() {
        for (int i = 0; i < size; i++) {
            conns[i].channel().close();
            conns[i] = null;
            targets[i] = null;
        }
        size = 0;
    }

    private void dropClosed() {
        for (int i = size - 1; i >= 0; i--) {
            if (!conns[i].channel().isActive()) {
                remove(i);
            }
        }
    }

    private void remove(int i) {
        System.arraycopy(targets, i + 1, targets, i, size - i - 1);
        System.arraycopy(conns, i + 1, conns, i, size - i - 1);
        size--;
        targets[size] = null;
        conns[size] = null;
    }
}
