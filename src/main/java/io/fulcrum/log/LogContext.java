package io.fulcrum.log;

import io.fulcrum.sample.SampleContext;

/** A transaction as log lines see it: what fetches see, plus what was recorded of its life. */
public interface LogContext extends SampleContext {

    StreamLog streamLog();

    /** The transaction's unique id ({@code unique-id-format}), computed once, or null without a format. */
    @Override
    default CharSequence uniqueId() {
        StreamLog log = streamLog();
        return log == null ? null : log.uniqueId(this);
    }
}
