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

    /** Weights may change at run time (HAProxy's BE_LB_PROP_DYN); a static algorithm only takes 0% and 100%. */
    public boolean dynamicWeights() {
        return this != STATIC_RR;
    }
}
