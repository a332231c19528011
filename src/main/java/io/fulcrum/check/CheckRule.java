package io.fulcrum.check;

import java.net.InetAddress;
import java.util.List;
import java.util.regex.Pattern;

/** One step of a check's rule set ({@code tcp-check}/{@code http-check} lines, or those a protocol check implies). */
sealed interface CheckRule {

    /** {@code connect [port N] [addr A] [send-proxy]}: port 0 and a null address are the server's check ones. */
    record Connect(int port, InetAddress addr, boolean sendProxy, String comment) implements CheckRule {
    }

    /** {@code tcp-check send|send-binary}: bytes sent as they are. */
    record Send(byte[] data, String comment) implements CheckRule {
    }

    /** {@code http-check send} or {@code option httpchk}: the request, completed when sent. */
    record HttpSend(String method, String uri, String version, List<String[]> headers, String body, String comment) implements CheckRule {
    }

    /** What an expect rule looks at. */
    enum Kind {
        STRING("string"), RSTRING("regex"), BINARY("binary"), RBINARY("binary regex"),
        STATUS("status"), RSTATUS("rstatus"), BODY("string"), RBODY("regex");

        /** Its name in HAProxy's messages ("at step 1 of tcp-check (expect regex)"). */
        final String word;

        Kind(String word) {
            this.word = word;
        }

        boolean http() {
            return this == STATUS || this == RSTATUS || this == BODY || this == RBODY;
        }
    }

    /**
     * {@code expect [min-recv N] [!] <kind> <pattern>} with its statuses and messages.
     *
     * @param text         the pattern as written (strings, status lists)
     * @param regex        the compiled pattern of the regex kinds
     * @param bytes        the pattern's bytes for string and binary kinds
     * @param minRecv      bytes to wait for before deciding, -1 for none
     * @param payloadInfo  the failure's info is the answer's first line (protocol checks: "-ERR ...")
     */
    record Expect(Kind kind, boolean negate, String text, Pattern regex, byte[] bytes, int minRecv, String comment,
                  String onSuccess, String onError, boolean payloadInfo, CheckStatus ok, CheckStatus error, CheckStatus timeout)
            implements CheckRule {

        /** Whether an HTTP status matches a {@code status} list ("200", "200-399", "200,301"). */
        boolean statusMatches(int status) {
            for (String part : text.split(",")) {
                int dash = part.indexOf('-');
                int lo = Integer.parseInt(part.substring(0, dash < 0 ? part.length() : dash));
                int hi = dash < 0 ? lo : Integer.parseInt(part.substring(dash + 1));
                if (status >= lo && status <= hi) {
                    return true;
                }
            }
            return false;
        }
    }
}
