package io.fulcrum.backend;

/** The server selection algorithms of {@code balance}. */
public enum Algorithm {
    ROUNDROBIN("roundrobin", true, false),
    STATIC_RR("static-rr", false, false),
    LEASTCONN("leastconn", true, false),
    FIRST("first", false, false),
    SOURCE("source", false, false),
    URI("uri", false, true),
    URL_PARAM("url_param", false, true),
    HDR("hdr", false, true),
    /** {@code rdp-cookie(name)}: the RDP connection request's cookie (layer 6: it works in TCP backends). */
    RDP_COOKIE("rdp-cookie", false, false),
    /** {@code hash <expr>}: any sample expression. */
    HASH("hash", false, false),
    RANDOM("random", true, false);

    private final String keyword;
    private final boolean dynamic;
    private final boolean layer7;

    Algorithm(String keyword, boolean dynamic, boolean layer7) {
        this.keyword = keyword;
        this.dynamic = dynamic;
        this.layer7 = layer7;
    }

    public String keyword() {
        return keyword;
    }

    /** Its key comes from the HTTP request: in a TCP backend it falls back to roundrobin, as in HAProxy. */
    public boolean layer7() {
        return layer7;
    }

    /** It hashes a key of the request to choose ({@code source}, {@code uri}, {@code url_param}, {@code hdr}, {@code rdp-cookie}, {@code hash}). */
    public boolean hashed() {
        return this == SOURCE || this == RDP_COOKIE || this == HASH || layer7;
    }

    /**
     * A waiter in the backend's queue means every server is full: a new stream queues behind it without asking the
     * algorithm (HAProxy's assign_server(), for {@code roundrobin}, {@code static-rr} and {@code first}), so a
     * server whose dynamic maxconn ({@code minconn}) grew takes the queued streams first.
     */
    public boolean queuesBehindWaiters() {
        return this == ROUNDROBIN || this == STATIC_RR || this == FIRST;
    }

    /**
     * Weights may change at run time (slow start, {@code set weight}); the hashed algorithms are dynamic with
     * {@code hash-type consistent} only.
     */
    public boolean dynamic(boolean consistent) {
        return dynamic || hashed() && consistent;
    }

    /**
     * {@code add server} takes a backend whose algorithm places servers at run time (HAProxy's BE_LB_PROP_DYN): all but
     * {@code static-rr} and the map-based hashes ({@code first} included, whose weights are static).
     */
    public boolean takesDynamicServers(boolean consistent) {
        return this != STATIC_RR && (!hashed() || consistent);
    }
}
