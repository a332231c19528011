package io.fulcrum.peers;

import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;
import io.fulcrum.cli.HumanTime;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.ExecutionException;

/**
 * {@code show peers [dict|-] [<section>]} in HAProxy 2.6's layout: each section, its peers (the last declared first)
 * with their status and counters, and for a connected one its session and its cursor in each shared table. Addresses
 * are identity hashes, as {@code show table} prints them; the state is read on the section's event loop.
 */
final class ShowPeers {
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss", Locale.ENGLISH)
            .withZone(ZoneId.systemDefault());
    private static final String INDENT = "        ";
    /**
     * A shared table's flags while its whole content was taught and the peer has not confirmed yet: HAProxy's teach
     * stages 1 and 2 done (Fulcrum sends the whole lesson at once).
     */
    private static final int TEACH_STAGES = 0x3;

    private ShowPeers() {
    }

    static void register(CliCommands c, PeersConfig config) {
        c.add("show peers", "show peers [dict|-] [section]", "dump some information about all the peers or this peers section",
                CliLevel.USER, r -> show(r, config));
    }

    private static void show(CliRequest r, PeersConfig config) throws CliException {
        int i = 2;
        boolean dict = r.arg(i).equals("dict");
        if (dict || r.arg(i).equals("-")) {
            i++;
        }
        String only = r.arg(i);
        boolean found = only.isEmpty();
        StringBuilder b = new StringBuilder();
        for (PeersRuntime p : config.running) {
            if (!only.isEmpty() && !only.equals(p.spec.name)) {
                continue;
            }
            found = true;
            if (p.loop == null) {
                continue; // not started (the process is still binding)
            }
            try {
                b.append(p.loop.submit(() -> section(p, dict)).get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }
        if (!found) {
            throw new CliException("No such peers\n");
        }
        r.print(b);
    }

    private static String id(Object o) {
        return "0x" + Integer.toHexString(System.identityHashCode(o));
    }

    private static String section(PeersRuntime p, boolean dict) {
        StringBuilder b = new StringBuilder();
        b.append(id(p)).append(": [").append(DATE.format(Instant.ofEpochMilli(p.startedMillis))).append("] id=").append(p.spec.name)
                .append(" disabled=0 flags=0x").append(Integer.toHexString(p.flags))
                .append(" resync_timeout=").append(p.upToDate() ? "<PAST>" : in(p.resyncIn()))
                .append(" task_calls=").append(p.taskCalls).append('\n');
        for (int i = p.links.size() - 1; i >= 0; i--) {
            peer(b, p, p.links.get(i), dict);
        }
        return b.toString();
    }

    /** A delay as HAProxy prints a timer: "<PAST>" once expired. */
    private static String in(long ms) {
        return ms <= 0 ? "<PAST>" : HumanTime.of((ms + 999) / 1000);
    }

    private static void peer(StringBuilder b, PeersRuntime p, PeerLink l, boolean dict) {
        PeerSession s = l.session;
        long now = p.now();
        b.append("  ").append(id(l)).append(": id=").append(l.name).append('(').append(l.local ? "local" : "remote").append(',')
                .append(s != null ? "active" : "inactive").append(") addr=").append(l.address == null ? "" : l.address.getAddress()
                        .getHostAddress() + ":" + l.address.getPort())
                .append(" last_status=").append(Wire.statusName(l.status))
                .append(" last_hdshk=").append(l.lastHandshake == 0 ? "<NEVER>" : HumanTime.of((now - l.lastHandshake) / 1000)).append('\n');
        // An established session's timer is the one that closes it when nothing comes: as HAProxy's reconnect then.
        long reconnect = s != null && s.established() ? s.lastRead + PeersRuntime.RECONNECT_MS : l.reconnectAt;
        b.append(INDENT).append("reconnect=").append(l.local ? "<NEVER>" : in(reconnect - now))
                .append(" heartbeat=").append(s != null && s.established() ? in(s.lastWrite + 3000 - now) : "<NEVER>")
                .append(" confirm=0 tx_hbt=").append(l.heartbeatsSent).append(" rx_hbt=").append(l.heartbeatsReceived)
                .append(" no_hbt=").append(l.noHeartbeat).append(" new_conn=").append(l.newConnections).append(" proto_err=")
                .append(l.protocolErrors).append(" coll=").append(l.collisions).append('\n');
        b.append(INDENT).append("flags=0x").append(Integer.toHexString(flags(p, l, now)));
        if (s != null) {
            b.append(" appctx:").append(id(s)).append(" st0=").append(s.established() ? 7 : 6).append(" st1=0 task_calls=0 state=EST\n");
            if (!s.outgoing()) { // HAProxy has a connection to show for the sessions it accepted only
                b.append(INDENT).append(s.tls() ? "xprt=SSL " : "xprt=RAW ").append(s.addresses()).append('\n');
            }
            table(b, p, s, "remote_table", s.remoteTable());
            table(b, p, s, "last_local_table", s.lastLocalTable());
        } else {
            b.append('\n');
        }
        if (!p.tables.isEmpty()) { // (HAProxy says so only for a peer that has tables)
            b.append(INDENT).append("shared tables:\n");
        }
        for (int i = p.tables.size() - 1; i >= 0; i--) {
            SharedTable st = p.tables.get(i);
            PeerLink.Cursor c = l.cursors[i]; // (the last session's once it is gone, as HAProxy's)
            b.append("          ").append(id(st)).append(" local_id=").append(st.id).append(" remote_id=")
                    .append(c.remoteId).append(" flags=0x").append(s != null && s.teaching() ? TEACH_STAGES : 0)
                    .append(" remote_data=0x").append(Long.toHexString(c.remoteTypes)).append('\n');
            b.append("              last_acked=").append(c.lastAcked).append(" last_pushed=").append(c.lastPushed)
                    .append(" last_get=").append(c.lastGet).append(" teaching_origin=").append(c.teachingOrigin)
                    .append(" update=").append(l.acked[i]).append('\n');
            b.append("              table:").append(id(st.table)).append(" id=").append(st.table.name()).append(" update=")
                    .append(st.update()).append(" localupdate=").append(st.localUpdate()).append(" commitupdate=")
                    .append(st.localUpdate()).append(" refcnt=1\n");
            if (dict) {
                dictionaries(b, s);
            } else {
                b.append(INDENT).append("Dictionary cache not dumped (use \"show peers dict\")\n");
            }
        }
    }

    /**
     * The session's dictionary caches of server keys as HAProxy dumps them, four slots a line: the keys sent (up to the
     * first free slot), then every slot of the keys received ("-": free); empty without a session.
     */
    private static void dictionaries(StringBuilder b, PeerSession s) {
        b.append(INDENT).append("TX dictionary cache:");
        for (int i = 0; s != null && i < TxDictionary.SIZE && s.txDictionary().at(i) != null; i++) {
            slot(b, i, s.txDictionary().at(i));
        }
        b.append('\n').append(INDENT).append("RX dictionary cache:");
        for (int i = 0; i < TxDictionary.SIZE; i++) {
            String key = s == null ? null : s.received(i);
            slot(b, i, key == null ? "-" : key);
        }
        b.append('\n');
    }

    private static void slot(StringBuilder b, int i, String key) {
        if (i % 4 == 0) {
            b.append('\n').append(INDENT);
        }
        b.append(String.format("  %3d -> %s", i, key));
    }

    /** HAProxy's PEER_F_* flags of a peer: alive (a message came within a reconnect period), teaching, learning. */
    private static int flags(PeersRuntime p, PeerLink l, long now) {
        PeerSession s = l.session;
        int f = l.notUpToDate ? Wire.PEER_LEARN_NOTUP2DATE : 0;
        if (s != null && s.established()) {
            f |= now - s.lastRead < PeersRuntime.RECONNECT_MS ? Wire.PEER_ALIVE : 0;
            f |= p.learningFrom(s) ? Wire.PEER_LEARN_ASSIGN : 0;
            f |= s.teaching() ? Wire.PEER_TEACH_PROCESS : 0;
        }
        return f;
    }

    private static void table(StringBuilder b, PeersRuntime p, PeerSession s, String what, int index) {
        if (index < 0) {
            return;
        }
        SharedTable st = p.tables.get(index);
        PeerLink.Cursor c = s.cursor(index);
        b.append(INDENT).append(what).append(':').append(id(st)).append(" id=").append(st.table.name()).append(" local_id=")
                .append(st.id).append(" remote_id=").append(c.remoteId).append('\n');
    }
}
