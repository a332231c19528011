package io.fulcrum.rules;

import io.fulcrum.acl.Condition;
import io.fulcrum.cfg.Source;
import io.fulcrum.proxy.ProxyKind;
import io.fulcrum.proxy.ProxyPart;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.sample.SampleContext;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code tcp-request connection}, {@code session} and {@code content} rules of a proxy section and its
 * {@code tcp-request inspect-delay}; its {@code tcp-response content} rules and {@code tcp-response inspect-delay}.
 * A proxy inherits those of its (named) defaults section, which run before its own, and the inspect delays.
 */
public final class TcpRules implements ProxyPart {
    /** What a proxy without rules has. */
    public static final TcpRules EMPTY = new TcpRules();

    /** A rule: what it does (accept: stop, reject: close) under its condition, and its line (for last_rule_file/line). */
    public record Rule(TcpAction action, Condition condition, Source source) {
    }

    /** What a tcp-request rule does; returns the verdict for the list. */
    @FunctionalInterface
    public interface TcpAction {
        Verdict run(SampleContext ctx);
    }

    final List<Rule> connection = new ArrayList<>();
    final List<Rule> session = new ArrayList<>();
    final List<Rule> content = new ArrayList<>();
    final List<Rule> response = new ArrayList<>();
    long inspectDelay;
    long responseInspectDelay;
    /** Some connection rule may ask for a PROXY or NetScaler header ({@code expect-proxy}, {@code expect-netscaler-cip}). */
    boolean expectsHeaders;
    /** Content capture rules whose sample depends on the request's contents (warned about without an inspect delay). */
    int contentCaptures;

    @Override
    public ProxyPart inherit() {
        TcpRules r = new TcpRules();
        r.connection.addAll(connection);
        r.session.addAll(session);
        r.content.addAll(content);
        r.response.addAll(response);
        r.expectsHeaders = expectsHeaders;
        r.inspectDelay = inspectDelay;
        r.responseInspectDelay = responseInspectDelay;
        return r;
    }

    @Override
    public boolean holdsRules() {
        return !(connection.isEmpty() && session.isEmpty() && content.isEmpty() && response.isEmpty());
    }

    @Override
    public String rulesRefusedTo(ProxyKind kind) {
        if (!kind.isFrontend() && !(connection.isEmpty() && session.isEmpty())) {
            return "'tcp-request connection' or 'tcp-request session'";
        }
        return kind.isBackend() || response.isEmpty() ? null : "'tcp-response content'";
    }

    public static TcpRules of(ProxySpec proxy) {
        TcpRules r = proxy.partOrNull(TcpRules.class);
        return r == null ? EMPTY : r;
    }

    /** Runs the connection rules; false when the connection is rejected. */
    public boolean acceptConnection(SampleContext ctx) {
        return run(connection, ctx);
    }

    /** True when a connection rule may ask for a header: the listener then waits for the rules before setting up the connection. */
    public boolean expectsHeaders() {
        return expectsHeaders;
    }

    /** Runs the session rules (after the PROXY header); false when rejected. */
    public boolean acceptSession(SampleContext ctx) {
        return run(session, ctx);
    }

    /** True when the content rules wait for data ({@code tcp-request inspect-delay}). */
    public boolean inspects() {
        return inspectDelay > 0 && !content.isEmpty();
    }

    public long inspectDelay() {
        return inspectDelay;
    }

    /**
     * Runs the content rules over the bytes received so far, from the first one, as HAProxy does at each arrival:
     * WAIT when a rule's condition lacked bytes that may still come ({@code missed} says so, and is cleared) or an action
     * waits ({@link SampleContext#resumeWhen}), DONE when
     * rejected, CONTINUE when accepted (explicitly, or at the end of the list).
     */
    public Verdict inspectContent(SampleContext ctx, java.util.function.BooleanSupplier missed) {
        return inspect(content, ctx, missed);
    }

    /** True when the backend's {@code tcp-response content} rules wait for the server's bytes. */
    public boolean inspectsResponse() {
        return responseInspectDelay > 0 && !response.isEmpty();
    }

    public boolean hasResponseRules() {
        return !response.isEmpty();
    }

    public long responseInspectDelay() {
        return responseInspectDelay;
    }

    /** Runs the {@code tcp-response content} rules over the server's bytes received so far, as {@link #inspectContent}. */
    public Verdict inspectResponse(SampleContext ctx, java.util.function.BooleanSupplier missed) {
        return inspect(response, ctx, missed);
    }

    private static Verdict inspect(List<Rule> rules, SampleContext ctx, java.util.function.BooleanSupplier missed) {
        for (Rule r : rules) {
            int result = Condition.inspect(r.condition(), ctx, missed);
            if (result == Condition.MISS) {
                return Verdict.WAIT;
            }
            if (result == Condition.PASS) {
                Verdict v = runNoted(r, ctx);
                if (v == Verdict.STOP || v == Verdict.DONE) {
                    return v == Verdict.STOP ? Verdict.CONTINUE : Verdict.DONE;
                }
                if (v == Verdict.WAIT) {
                    return v; // the action waits for something (do-resolve): the rules run again once it is there
                }
            }
        }
        return Verdict.CONTINUE;
    }

    /** Runs the content rules; false when rejected. */
    public boolean acceptContent(SampleContext ctx) {
        return run(content, ctx);
    }

    public boolean hasConnectionRules() {
        return !connection.isEmpty();
    }

    public boolean hasSessionRules() {
        return !session.isEmpty();
    }

    /**
     * Runs {@code r}'s action, noting the rule for last_rule_file/line first (a rule that ends the session may log it
     * before it returns), and forgetting it again unless its verdict is final.
     */
    private static Verdict runNoted(Rule r, SampleContext ctx) {
        Source before = ctx.finalRule(r.source());
        Verdict v = r.action().run(ctx);
        if (v != Verdict.STOP && v != Verdict.DONE) {
            ctx.finalRule(before);
        }
        return v;
    }

    private static boolean run(List<Rule> rules, SampleContext ctx) {
        // Indexed: an iterator per transaction is not always optimized away, and most proxies have no rules.
        for (int i = 0, n = rules.size(); i < n; i++) {
            Rule r = rules.get(i);
            if (Condition.passes(r.condition(), ctx)) {
                Verdict v = runNoted(r, ctx);
                if (v == Verdict.STOP || v == Verdict.DONE) {
                    return v == Verdict.STOP;
                }
            }
        }
        return true;
    }
}
