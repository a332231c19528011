package io.fulcrum.rules;

import io.fulcrum.cache.CacheTxn;
import io.fulcrum.http.HttpHead;
import io.fulcrum.sample.SampleContext;

import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/** The transaction as rule actions see it: what fetches see, plus the ability to answer. */
public interface HttpTxn extends SampleContext {

    /** Answers with {@code reply} instead of forwarding the request (or the server's response). */
    void reply(Reply reply);

    /**
     * Answers once the request's body is all in (a service that reads a form): {@code answer} gets the body, or null
     * when it does not fit in a buffer ({@code tune.bufsize} less {@code tune.maxrewrite}).
     */
    void replyAfterBody(Function<byte[], Reply> answer);

    /** Holds the request for {@code timeout tarpit}, then answers with {@code reply}. */
    void tarpit(Reply reply);

    /** Closes the client connection without an answer; with {@code reset}, at once and with a reset. */
    void drop(boolean reset);

    /** Overrides {@code timeout server} for this transaction. */
    void serverTimeout(long millis);

    /** Overrides {@code timeout tunnel} for this transaction, should it become a tunnel. */
    void tunnelTimeout(long millis);

    /**
     * {@code wait-for-body}: true once the body of {@code msg} (the request, or the response) is in (or {@code atLeast}
     * bytes of it, or all the buffer holds); else its rules wait, at most {@code millis} (then 408 for a request, 504
     * for a response), and the rule runs again as more arrives.
     */
    boolean bodyIn(HttpHead msg, long millis, long atLeast);

    /**
     * A request rule that returned {@link Verdict#WAIT} for something else than the body ({@code do-resolve}'s answer):
     * the rules run again from that rule once {@code done} completes, on the transaction's loop.
     */
    @Override
    void resumeWhen(CompletionStage<?> done);

    @Override
    default boolean mayWait() {
        return true;
    }

    /** {@code http-request disable-l7-retry}: only a failed connection may be retried. */
    void disableL7Retry();

    /**
     * True when {@code msg} grown by {@code growth} bytes still fits in a buffer ({@code tune.bufsize}, the head counted in
     * HAProxy's internal form): a rewrite that would not is a failed rewrite ({@link #rewriteFailed()}).
     */
    boolean fits(HttpHead msg, int growth);

    /**
     * A rewrite did not fit: counted ({@code wrew}); in strict mode (the default) the transaction fails with a 500 and
     * DONE is returned, else the rewrite is skipped and the rules go on (CONTINUE).
     */
    Verdict rewriteFailed();

    /**
     * The rule failed on an error of the proxy's own (a reply that does not fit in a buffer): the transaction fails
     * with a 500 counted as an internal error ({@code eint}), as HAProxy's {@code return_int_err}; returns DONE.
     */
    Verdict internalError();

    /** {@code strict-mode off} (true) or {@code on}, until the end of this rule list. */
    void softRewrites(boolean soft);

    /** Adds a field to the 103 Early Hints response sent before anything else. */
    void earlyHint(String name, String value);

    /** What the transaction knows of the caches ({@code cache-use}, {@code cache-store}), made on first use. */
    CacheTxn cache();
}
