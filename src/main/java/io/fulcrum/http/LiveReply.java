package io.fulcrum.http;

import io.fulcrum.sample.SampleContext;

/**
 * A proxy's error reply made anew for each transaction: an {@code http-error} whose body or header values are
 * log-formats ({@code lf-string}, {@code lf-file}, {@code hdr}), which HAProxy evaluates with the failing stream.
 */
public interface LiveReply {
    /** The reply to {@code txn}: its head, Content-Length set, with the body it frames. */
    Built build(SampleContext txn);

    /** A head and its body. */
    record Built(ResponseHead head, byte[] body) {
    }
}
