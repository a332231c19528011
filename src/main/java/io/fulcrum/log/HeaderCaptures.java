package io.fulcrum.log;

import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.proxy.ProxyPart;

import java.util.ArrayList;
import java.util.List;

/**
 * A frontend's {@code capture request header} and {@code capture response header} lines: the last value of
 * each named field, cut to its length, kept for the log line (%hr, %hs). Not inherited: HAProxy refuses
 * them in defaults sections.
 */
public final class HeaderCaptures implements ProxyPart {
    static final HeaderCaptures NONE = new HeaderCaptures();

    /** One capture: a field name and the longest value kept. */
    record Capture(String name, int length) {
    }

    final List<Capture> request = new ArrayList<>();
    final List<Capture> response = new ArrayList<>();

    @Override
    public ProxyPart inherit() {
        return null;
    }

    boolean hasRequest() {
        return !request.isEmpty();
    }

    boolean hasResponse() {
        return !response.isEmpty();
    }

    /** The captured values of a request, null for an absent field; null when nothing is captured. */
    String[] request(HttpHead head) {
        return capture(request, head.headers());
    }

    String[] response(HttpHead head) {
        return capture(response, head.headers());
    }

    private static String[] capture(List<Capture> captures, HttpHeaders headers) {
        if (captures.isEmpty()) {
            return null;
        }
        String[] values = new String[captures.size()];
        for (int c = 0; c < values.length; c++) {
            Capture cap = captures.get(c);
            int last = -1;
            for (int i = headers.indexOf(cap.name(), 0); i >= 0; i = headers.indexOf(cap.name(), i + 1)) {
                if (!headers.removed(i)) {
                    last = i;
                }
            }
            if (last >= 0) {
                CharSequence v = headers.value(last);
                values[c] = v.subSequence(0, Math.min(v.length(), cap.length())).toString();
            }
        }
        return values;
    }
}
