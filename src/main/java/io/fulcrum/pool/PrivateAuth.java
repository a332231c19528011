package io.fulcrum.pool;

import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.ResponseHead;

/**
 * Authentication schemes that bind to the connection (NTLM, Negotiate): a connection whose server asked for one
 * becomes private to its client connection, never shared, as in HAProxy's http_wait_for_response().
 */
public final class PrivateAuth {
    private PrivateAuth() {
    }

    /** A 401 or 407 asking, in one of its values, for a scheme starting with "NTLM" or "Nego". */
    public static boolean asked(ResponseHead head) {
        String field = head.status() == 401 ? "www-authenticate" : head.status() == 407 ? "proxy-authenticate" : null;
        if (field == null) {
            return false;
        }
        HttpHeaders h = head.headers();
        for (int i = h.indexOf(field, 0); i >= 0; i = h.indexOf(field, i + 1)) {
            for (String value : h.value(i).toString().split(",")) {
                String v = value.strip();
                if (v.regionMatches(true, 0, "NTLM", 0, 4) || v.regionMatches(true, 0, "Nego", 0, 4)) {
                    return true;
                }
            }
        }
        return false;
    }
}
