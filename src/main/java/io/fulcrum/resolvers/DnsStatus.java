package io.fulcrum.resolvers;

/**
 * How a resolution ended, as HAProxy's RSLV_STATUS_*: what "hold" looks at, and the reason a failed server's maintenance
 * line gives.
 */
enum DnsStatus {
    VALID(""),
    NX("DNS NX status"),
    TIMEOUT("DNS timeout status"),
    REFUSED("DNS refused status"),
    OTHER("unspecified DNS error");

    /** What follows "is going DOWN for maintenance" in parentheses. */
    final String reason;

    DnsStatus(String reason) {
        this.reason = reason;
    }
}
