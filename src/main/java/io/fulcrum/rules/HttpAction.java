package io.fulcrum.rules;

import io.fulcrum.http.HttpHead;

/** What an {@code http-request}, {@code http-response} or {@code http-after-response} rule does. */
@FunctionalInterface
public interface HttpAction {

    /** @param msg the message the rule applies to: the request, or the response */
    Verdict run(HttpTxn txn, HttpHead msg);
}
