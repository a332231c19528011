package io.fulcrum.rules;

import io.fulcrum.http.ResponseHead;

/** An answer a rule makes the proxy send instead of forwarding. */
public sealed interface Reply {

    /**
     * The proxy's response for {@code status} (its errorfile, or the built-in page), with one more header
     * when {@code header} is not null (WWW-Authenticate for {@code auth}).
     */
    record Error(int status, String header, String value) implements Reply {
        public Error(int status) {
            this(status, null, null);
        }
    }

    /** A response built by the rule: a head (its Content-Length already set) and the body. */
    record Content(ResponseHead head, byte[] body) implements Reply {
    }
}
