package io.fulcrum.rules;

import io.fulcrum.http.ErrorMessage;
import io.fulcrum.http.ResponseHead;

/**
 * An answer a rule makes the proxy send instead of forwarding. {@link #refused()} says whether the rule refused the
 * transaction (deny, tarpit: logged "P") or answered it itself (return, auth: logged "L"), as HAProxy logs them.
 */
public sealed interface Reply {

    boolean refused();

    /**
     * The proxy's response for {@code status} (its errorfile, or the built-in page), with one more header
     * when {@code header} is not null (WWW-Authenticate for {@code auth}).
     */
    record Error(int status, String header, String value, boolean refused) implements Reply {
        public Error(int status) {
            this(status, null, null, true);
        }
    }

    /**
     * A response built by the rule: a head (its Content-Length already set, or its body length {@code CHUNKED}: the
     * body then goes as one chunk) and the body. {@code streamed}: a body that HAProxy's applet makes as it goes (the
     * stats page), so that no more of it than fills the buffer less {@code tune.maxrewrite} is there beside the head
     * when the http-after-response rules rewrite it.
     */
    record Content(ResponseHead head, byte[] body, boolean refused, boolean streamed) implements Reply {
        public Content(ResponseHead head, byte[] body) {
            this(head, body, false, false);
        }

        public Content(ResponseHead head, byte[] body, boolean refused) {
            this(head, body, refused, false);
        }
    }

    /**
     * A full response read from a file ({@code errorfile}, {@code errorfiles}), sent as the proxy's errors are;
     * {@code status} is the rule's, which the log shows whatever the file's status line says.
     */
    record Message(int status, ErrorMessage message, boolean refused) implements Reply {
    }
}
