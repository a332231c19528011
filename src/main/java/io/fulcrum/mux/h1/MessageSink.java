package io.fulcrum.mux.h1;

import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.netty.buffer.ByteBuf;

/** What {@link H1Parser} finds in a message, in order: a head, body data, trailers, the end. */
public interface MessageSink {

    /** The whole head is there; for an interim (1xx) response, the final head follows with no end() between. */
    void head(HttpHead head);

    /** Body bytes: a retained slice of the parser's input, that the sink must release (by default: dropped). */
    default void data(ByteBuf data) {
        data.release();
    }

    /** The trailer fields of a chunked body, when it has some (called before {@link #end()}). */
    default void trailers(HttpHeaders trailers) {
    }

    /** The message is complete. */
    default void end() {
    }
}
