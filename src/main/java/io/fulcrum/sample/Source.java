package io.fulcrum.sample;

/**
 * Where a fetch takes its data from (HAProxy's sample sources), and so at which {@link Stage}s it
 * can be used. The availability strings list the stages in {@link Stage} order, '1' where usable.
 */
public enum Source {
    CONST("constant", "1111111111111111111111"),
    INTRN("internal state", "1111111111111111111101"),
    LISTN("listener", "1111111111111111111000"),
    FTEND("frontend", "1111111111111111111000"),
    L4CLI("client address", "1111111111111111111100"),
    L5CLI("client-side connection", "0111111111111111111000"),
    TRACK("track counters", "1111111111111111111000"),
    L6REQ("request buffer", "0011111111100000000000"),
    HRQHV("HTTP request headers", "0011111111100000000000"),
    HRQHP("HTTP request", "0011111111111111111000"),
    HRQBO("HTTP request body", "0000111111100000000000"),
    BKEND("backend", "0000001111111111111100"),
    SERVR("server", "0000000000111111111100"),
    L4SRV("server address", "0000000000011111111100"),
    L5SRV("server-side connection", "0000000000011111111100"),
    L6RES("response buffer", "0000000000011111110100"),
    HRSHV("HTTP response headers", "0000000000011111110100"),
    HRSHP("HTTP response", "0000000000011111111100"),
    HRSBO("HTTP response body", "0000000000000111110100"),
    /** What a proxy knows of the response from the server's choice on: HAProxy declares the cache fetches so (SMP_VAL_RESPONSE). */
    HRSPX("HTTP response", "0000000000111111111100"),
    RQFIN("request buffer statistics", "0000000000000000001000"),
    RSFIN("response buffer statistics", "0000000000000000001000"),
    TXFIN("transaction statistics", "0000000000000000001000"),
    SSFIN("session statistics", "0000000000000000001000");

    private final String description;
    private final int stages;

    Source(String description, String availability) {
        this.description = description;
        this.stages = Integer.parseInt(new StringBuilder(availability).reverse().toString(), 2);
    }

    /** The {@link Stage} bits where this source's data exists. */
    public int stages() {
        return stages;
    }

    @Override
    public String toString() {
        return description;
    }
}
