package io.fulcrum.auth;

import io.fulcrum.http.RequestHead;
import io.netty.util.AsciiString;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** What the Authorization header of a request says: its scheme and, for Basic, the user and password. */
record Credentials(String type, String user, String password) {

    /** The request's credentials, or null without an Authorization header. */
    static Credentials of(RequestHead req) {
        if (req == null) {
            return null;
        }
        AsciiString h = req.headers().get("authorization");
        if (h == null) {
            return null;
        }
        String v = h.toString().strip();
        int sp = v.indexOf(' ');
        String type = sp < 0 ? v : v.substring(0, sp);
        if (!type.equalsIgnoreCase("basic") || sp < 0) {
            return new Credentials(type, null, null);
        }
        try {
            String decoded = new String(Base64.getDecoder().decode(v.substring(sp + 1).strip()), StandardCharsets.ISO_8859_1);
            int colon = decoded.indexOf(':');
            return colon < 0 ? new Credentials(type, null, null)
                    : new Credentials(type, decoded.substring(0, colon), decoded.substring(colon + 1));
        } catch (IllegalArgumentException e) {
            return new Credentials(type, null, null);
        }
    }
}
