package io.fulcrum.resolvers;

import io.netty.channel.Channel;

/**
 * A name server at run time: its socket and the counters {@code show resolvers} prints. Touched only on its section's
 * event loop; the CLI reads the counters there too.
 */
final class NameserverLink {
    final ResolversSpec.Nameserver spec;
    /** Its UDP socket, bound once the section starts; null before. */
    Channel channel;
    long sent;
    long sendErrors;
    long valid;
    long update;
    long cname;
    long anyErr;
    long nx;
    long timeout;
    long refused;
    long other;
    long invalid;
    long truncated;
    long outdated;

    NameserverLink(ResolversSpec.Nameserver spec) {
        this.spec = spec;
    }

    /** Counts an error answer by its kind. */
    void count(DnsStatus s) {
        switch (s) {
            case NX -> nx++;
            case REFUSED -> refused++;
            case TIMEOUT -> timeout++;
            default -> other++;
        }
    }
}
