package io.fulcrum.rules;

import io.fulcrum.cfg.Source;
import io.fulcrum.proxy.ProxyPart;
import io.fulcrum.rules.HttpActions.Phase;
import io.fulcrum.proxy.ProxySpec;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * The {@code http-request}, {@code http-response} and {@code http-after-response} rules of one proxy
 * section, in declaration order. A proxy inherits those of its (named) defaults section: they run before its own.
 */
public final class HttpRules implements ProxyPart {
    private static final HttpRule[] NONE = new HttpRule[0];
    /** What a proxy without rules has. */
    public static final HttpRules EMPTY = new HttpRules();

    final List<HttpRule> request = new ArrayList<>();
    final List<HttpRule> response = new ArrayList<>();
    final List<HttpRule> afterResponse = new ArrayList<>();
    /** {@code redirect} directives: they run after all the section's http-request rules. */
    final List<HttpRule> redirects = new ArrayList<>();
    /** The phases whose last rule so far is a final action without condition: the rules after it never run. */
    final EnumSet<Phase> closed = EnumSet.noneOf(Phase.class);
    /** Rules of experimental actions, refused without {@code expose-experimental-directives}. */
    final List<Experimental> experimental = new ArrayList<>();

    /** Replies taken from an {@code http-errors} section, resolved once all sections are read. */
    final List<ReplyBuilder> errorReplies = new ArrayList<>();

    /** Where an experimental action is used. */
    record Experimental(Source source, String action) {
    }

    /** The rules of the defaults section this proxy inherits, or null. */
    private HttpRules inherited;
    private HttpRule[] requestArray;
    private HttpRule[] responseArray;
    private HttpRule[] afterResponseArray;

    @Override
    public ProxyPart inherit() {
        HttpRules r = new HttpRules();
        r.inherited = this;
        return r;
    }

    @Override
    public boolean holdsRules() {
        return !(request.isEmpty() && response.isEmpty() && afterResponse.isEmpty());
    }

    /**
     * The rules of {@code proxy}. The frontend and backend halves of a listen section get the same
     * object, so that a stream runs them once.
     */
    public static HttpRules of(ProxySpec proxy) {
        HttpRules r = proxy.partOrNull(HttpRules.class);
        if (r == null) {
            return EMPTY;
        }
        HttpRules d = r.inherited != null ? r.inherited : EMPTY;
        r.requestArray = concat(d.request, r.request, r.redirects);
        r.responseArray = concat(d.response, r.response);
        r.afterResponseArray = concat(d.afterResponse, r.afterResponse);
        return r;
    }

    @SafeVarargs
    private static HttpRule[] concat(List<HttpRule>... lists) {
        List<HttpRule> all = new ArrayList<>();
        for (List<HttpRule> l : lists) {
            all.addAll(l);
        }
        return all.toArray(NONE);
    }

    /** The replies of this section's rules and of its defaults section's that name an {@code http-errors} section. */
    List<ReplyBuilder> errorReplies() {
        if (inherited == null) {
            return errorReplies;
        }
        List<ReplyBuilder> all = new ArrayList<>(inherited.errorReplies);
        all.addAll(errorReplies);
        return all;
    }

    /** The rules of each phase, as arrays for the data path. */
    public HttpRule[] request() {
        return requestArray != null ? requestArray : NONE;
    }

    public HttpRule[] response() {
        return responseArray != null ? responseArray : NONE;
    }

    public HttpRule[] afterResponse() {
        return afterResponseArray != null ? afterResponseArray : NONE;
    }
}
