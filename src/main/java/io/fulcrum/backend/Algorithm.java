package io.fulcrum.backend;

/** The server selection algorithms of {@code balance}. */
public enum Algorithm {
    ROUNDROBIN("roundrobin"),
    STATIC_RR("static-rr");

    private final String keyword;

    Algorithm(String keyword) {
        this.keyword = keyword;
    }

    public String keyword() {
        return keyword;
    }
}
