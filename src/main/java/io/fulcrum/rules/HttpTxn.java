package io.fulcrum.rules;

import io.fulcrum.sample.SampleContext;

/** The transaction as rule actions see it: what fetches see, plus the ability to answer. */
public interface HttpTxn extends SampleContext {

    /** Answers with {@code reply} instead of forwarding the request (or the server's response). */
    void reply(Reply reply);
}
