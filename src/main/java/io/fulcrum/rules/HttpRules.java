package io.fulcrum.rules;

import io.fulcrum.cfg.Source;
import io.fulcrum.proxy.ProxyPart;
import io.fulcrum.proxy.ProxySpec;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code http-request}, {@code http-response} and {@code http-after-response} rules of one proxy
 * section, in declaration order. Rules are not inherited from defaults sections.
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
    /** Rules of experimental actions, refused without {@code expose-experimental-directives}. */
    final List<Experimental> experimental = new ArrayList<>();

    /** Where an experimental action is used. */
    record Experimental(Source source, String action) {
    }

    private HttpRule[] requestArray;
    private HttpRule[] responseArray;
    private HttpRule[] afterResponseArray;

    @Override
    public ProxyPart inherit() {
        return null;
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
        List<HttpRule> request = new ArrayList<>(r.request);
        request.addAll(r.redirects);
        r.requestArray = request.toArray(NONE);
        r.responseArray = r.response.toArray(NONE);
        r.afterResponseArray = r.afterResponse.toArray(NONE);
        return r;
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
