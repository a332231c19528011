package io.fulcrum.sample;

/**
 * The types of fetch and converter arguments, with HAProxy's names (used in error messages). A variable
 * name is a string to HAProxy, and named so.
 */
public enum ArgType {
    STR("string"), SINT("integer"), IPV4("IPv4 address"), MSK4("IPv4 mask"), IPV6("IPv6 address"), MSK6("IPv6 mask"),
    TIME("delay"), SIZE("size"), FE("frontend"), BE("backend"), TAB("table"), SRV("server"), USR("user list"),
    MAP("map"), REG("regex"), VAR("string"), PBUF_FNUM("Protocol buffers field number");

    private final String text;

    ArgType(String text) {
        this.text = text;
    }

    @Override
    public String toString() {
        return text;
    }
}
