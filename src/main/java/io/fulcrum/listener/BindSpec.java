package io.fulcrum.listener;

import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.Source;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.conn.NetNamespace;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** One {@code bind} line: its addresses and options. */
public final class BindSpec {
    private final Source source;
    private final String text;
    private List<Endpoint> endpoints;

    public String name;
    /** {@code id}: the numeric id chosen for the line's single socket, or 0. */
    public int id;
    /** The numeric ids of the line's sockets ({@code so_id}), in the order of its addresses: see {@link BindList#number()}. */
    private int[] ids;
    /** 0: no limit of its own (the frontend's and the global limits apply). */
    public int maxconn;
    /** 0: the frontend's maxconn, as HAProxy does. */
    public int backlog;
    public boolean deferAccept;
    /** Connections accepted per wake-up: a proxy's line gets tune.maxaccept (4 by default); 0: one; negative: all. */
    public int maxaccept;
    /** {@code shards}: listening sockets per IP address, each on its own loop; {@link #BY_THREAD}: one per loop. */
    public int shards = 1;
    /** {@code thread}: the threads (loops) that accept and serve its connections, bit N-1 for thread N; 0: all. */
    public long threads;
    public static final int BY_THREAD = -1;
    public boolean tfo;
    /** {@code mss}: TCP_MAXSEG of the listening socket (negative: by how much to lower the client's); 0: the system's. */
    public int mss;
    /** {@code tcp-ut}: TCP_USER_TIMEOUT (ms) of the listening socket, which accepted connections inherit; 0: the system's. */
    public int tcpUserTimeout;
    /** {@code namespace}: the network namespace its sockets are made in; null: the process's. */
    public NetNamespace namespace;
    /** {@code transparent}: IP_TRANSPARENT, to bind addresses that are not local. */
    public boolean transparent;
    /**
     * {@code proto}: "h1", "none" or null (the mode's own). "none" is refused with the frontend's mode, as HAProxy
     * does after parsing; "h1" is what HTTP frontends use anyway, and a TCP frontend refuses it too.
     */
    public String proto;
    public boolean v4v6;
    public boolean v6only;
    public String iface;
    public boolean acceptProxy;
    /** {@code accept-netscaler-cip}: the magic number of the NetScaler Client IP header; 0 (never valid) for none. */
    public int netscalerCipMagic;
    /** Unix socket permissions ({@code mode}), -1 when not set. */
    public int unixMode = -1;
    public int uid = -1;
    public int gid = -1;
    /** The layer between the socket and the session (TLS), set by the subsystem providing it; null for none. */
    public Transport transport;
    /** How the line's option errors and warnings are worded, set while its options are parsed. */
    ListenerModule.OptionErrors wording;
    /** What other subsystems keep about the line (the TLS options, the CLI's level...), by type. */
    private final Map<Class<?>, Object> parts = new HashMap<>();

    public BindSpec(Source source, String text, List<Endpoint> endpoints) {
        this.source = source;
        this.text = text;
        this.endpoints = List.copyOf(endpoints);
    }

    public Source source() {
        return source;
    }

    /** The address argument as written. */
    public String text() {
        return text;
    }

    /** The numeric id of the socket of the line's {@code index}-th address. */
    public int socketId(int index) {
        return ids[index];
    }

    /** Numbers the line's sockets from {@code first}. */
    public void number(int first) {
        ids = new int[endpoints.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = first + i;
        }
    }

    void ids(int[] ids) {
        this.ids = ids;
    }

    public List<Endpoint> endpoints() {
        return endpoints;
    }

    /** Replaces the addresses ({@code unix-bind}'s prefix), before the sockets are numbered. */
    void endpoints(List<Endpoint> endpoints) {
        this.endpoints = List.copyOf(endpoints);
    }

    /** Reports a warning about the option of {@code l}, worded as the line's errors ("'bind X' in section ... : "). */
    public void warn(ConfigLine l, String message) {
        l.warn(wording == null ? message : wording.invalid(message));
    }

    /** The part of type {@code type}, created by {@code create} when absent. */
    public <T> T part(Class<T> type, Supplier<T> create) {
        return type.cast(parts.computeIfAbsent(type, t -> create.get()));
    }

    /** The part of type {@code type}, or null. */
    public <T> T partOrNull(Class<T> type) {
        return type.cast(parts.get(type));
    }
}
