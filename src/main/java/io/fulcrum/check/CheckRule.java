package io.fulcrum.check;

import io.fulcrum.log.LogFormat;
import io.fulcrum.sample.ConditionalVar;
import io.fulcrum.sample.Expr;
import io.fulcrum.sample.VarRef;
import io.netty.buffer.ByteBuf;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;

/** One step of a check's rule set ({@code tcp-check}/{@code http-check} lines, or those a protocol check implies). */
sealed interface CheckRule {

    /**
     * {@code connect [default] [port N|<expr>] [addr A[:P]] [send-proxy] [via-socks4] [ssl] [sni S] [alpn A]}: port 0 and a null address
     * are the server's check ones (the address's port, 0 when it has none, comes after {@code port} and {@code portExpr}); {@code portExpr}, when set, gives the port at each run (0 or no sample: {@code port}...);
     * {@code byDefault} takes TLS from the server's check settings ({@code check-ssl}...).
     */
    record Connect(int port, ToIntFunction<CheckContext> portExpr, InetSocketAddress addr, boolean sendProxy, boolean viaSocks4, boolean byDefault, boolean ssl,
                   String sni, List<String> alpn, String comment, boolean linger) implements CheckRule {
        private static final Connect IMPLICIT = new Connect(0, null, null, false, false, true, false, null, null, null, false);
        private static final Connect LINGERING = new Connect(0, null, null, false, false, true, false, null, null, null, true);

        /**
         * The connect a rule set starts with when it has none: one instance, told from
         * a written {@code connect default} by identity (a success there says no "(tcp-check)").
         */
        static Connect implicit() {
            return IMPLICIT;
        }

        /** The first rule of smtpchk, mysql-check and pgsql-check: HAProxy's {@code connect default linger}. */
        static Connect lingering() {
            return LINGERING;
        }
    }

    /** {@code tcp-check send|send-binary|send-lf|send-binary-lf}: the bytes, made when the rule runs. */
    record Send(Payload data, String comment) implements CheckRule {
        static Send of(byte[] fixed) {
            return new Send(c -> fixed, null);
        }
    }

    /** What a send rule sends (fixed bytes, or bytes made at each run: a log-format, the date of an SSL hello). */
    @FunctionalInterface
    interface Payload {
        /** The bytes, or null when they cannot be made (a log-format giving no valid hex digits). */
        byte[] bytes(CheckContext c);
    }

    /** A text made when the rule runs: fixed, read from the answer (protocol checks), or a log-format. */
    @FunctionalInterface
    interface Text {
        String of(CheckContext c);

        static Text fixed(String s) {
            return c -> s;
        }

        static Text of(LogFormat f) {
            return f.isConstant() ? fixed(f.format(null)) : f::format;
        }
    }

    /** {@code tcp-check|http-check set-var(name[,cond...]) <expr>} or {@code set-var-fmt(name[,cond...]) <fmt>} (one of the two). */
    record SetVar(ConditionalVar var, Expr expr, LogFormat format) implements CheckRule {
    }

    /** {@code tcp-check|http-check comment <text>}: a step that does nothing (the rules after it took its text: {@code CheckRules.add}). */
    record Comment(String text) implements CheckRule {
    }

    /** {@code tcp-check|http-check unset-var(name)}. */
    record UnsetVar(VarRef var) implements CheckRule {
    }

    /** A protocol's own judgement of the answer (HAProxy's "expect custom"). */
    @FunctionalInterface
    interface Judge {
        /** The verdict, or null to wait for more bytes ({@code eof}: none will come). */
        Verdict judge(ByteBuf answer, boolean eof);
    }

    /**
     * A judge's verdict: passed (status null, {@code info} what the log line of a success tells) or failed with its
     * status, code and info.
     */
    record Verdict(CheckStatus status, int code, String info) {
        static Verdict pass(String info) {
            return new Verdict(null, 0, info);
        }

        boolean passed() {
            return status == null;
        }
    }

    /**
     * {@code http-check send} or {@code option httpchk} ({@code fromOption}): the request, completed when sent. A null
     * method, URI, version or body is one the line did not give: another send may give it ({@link #over}), else
     * {@link #complete} puts HAProxy's defaults.
     */
    record HttpSend(String method, Text uri, String version, List<Header> headers, Text body, String comment, boolean fromOption)
            implements CheckRule {

        /**
         * This request with what {@code newer} gives over it (HAProxy's tcpcheck_overwrite_send_http_rule(): its headers
         * replace these when it has some), no longer the option's: the merge of an option and an explicit send is explicit.
         */
        HttpSend over(HttpSend newer) {
            return new HttpSend(newer.method != null ? newer.method : method, newer.uri != null ? newer.uri : uri,
                    newer.version != null ? newer.version : version, newer.headers.isEmpty() ? headers : newer.headers,
                    newer.body != null ? newer.body : body, comment, false);
        }

        /** With HAProxy's defaults for what no line gave: {@code OPTIONS / HTTP/1.0}. */
        HttpSend complete() {
            return new HttpSend(method != null ? method : "OPTIONS", uri != null ? uri : Text.fixed("/"), version != null ? version : "HTTP/1.0",
                    headers, body, comment, fromOption);
        }
    }

    /** A header of an HTTP check's request, its value made when the request is. */
    record Header(String name, Text value) {
    }

    /** What an expect rule looks at. */
    enum Kind {
        STRING("string"), RSTRING("regex"), BINARY("binary"), RBINARY("binary regex"), STRING_LF("log-format string"),
        BINARY_LF("log-format binary"), STATUS("status"), RSTATUS("rstatus"), BODY("string"), RBODY("regex"), BODY_LF("log-format string"),
        HEADER("header pattern"), CUSTOM("custom function");

        /** Its name in HAProxy's messages ("at step 1 of tcp-check (expect regex)"). */
        final String word;

        Kind(String word) {
            this.word = word;
        }

        boolean http() {
            return this == STATUS || this == RSTATUS || this == BODY || this == RBODY || this == BODY_LF || this == HEADER;
        }
    }

    /**
     * {@code expect [min-recv N] [!] <kind> <pattern>} with its statuses and messages.
     *
     * @param text         the pattern as written (strings, status lists)
     * @param regex        the compiled pattern of the regex kinds
     * @param bytes        the pattern's bytes for string and binary kinds
     * @param lf           the pattern of the log-format kinds ({@code string-lf}, {@code binary-lf}), made at each run
     * @param minRecv      bytes to wait for before deciding, -1 for none
     * @param onSuccess    the info of a success, null for the default
     * @param onError      the info of a failure, null for the default
     * @param statusCode   the check's code read from the answer ({@code status-code}), or null
     * @param header       what the {@link Kind#HEADER} kind looks for
     * @param judge        the judge of the {@link Kind#CUSTOM} kind
     * @param protocol     part of a protocol check: no generic "TCPCHK did not match" info
     */
    record Expect(Kind kind, boolean negate, String text, Pattern regex, byte[] bytes, Text lf, int minRecv, String comment,
                  Text onSuccess, Text onError, ToIntFunction<CheckContext> statusCode, HeaderMatch header, Judge judge, boolean protocol,
                  CheckStatus ok, CheckStatus error, CheckStatus timeout)
            implements CheckRule {

        /** The same expect, its match inverted ({@code !}). */
        Expect negated() {
            return new Expect(kind, !negate, text, regex, bytes, lf, minRecv, comment, onSuccess, onError, statusCode, header, judge, protocol, ok,
                    error, timeout);
        }

        /** The same expect with {@code text} as its comment (a comment rule before it). */
        Expect commented(String text) {
            return new Expect(kind, negate, this.text, regex, bytes, lf, minRecv, text, onSuccess, onError, statusCode, header, judge, protocol, ok,
                    error, timeout);
        }

        /** Whether an HTTP status matches a {@code status} list ("200", "200-399", "200,301"). */
        boolean statusMatches(int status) {
            int[] codes = statusCodes(text, IllegalStateException::new); // checked when the configuration was read
            for (int i = 0; i < codes.length; i += 2) {
                if (status >= codes[i] && status <= codes[i + 1]) {
                    return true;
                }
            }
            return false;
        }

        /**
         * The ranges of a status list, low and high of each in turn, read as HAProxy reads them (a missing number is 0,
         * so "200,,300" holds 0); {@code refused} makes the exception for HAProxy's reason otherwise.
         */
        static <E extends Exception> int[] statusCodes(String list, java.util.function.Function<String, E> refused) throws E {
            java.util.List<Integer> codes = new java.util.ArrayList<>();
            int[] at = {0};
            while (true) {
                int low = readUint(list, at);
                int high = low;
                if (at[0] < list.length() && list.charAt(at[0]) == '-') {
                    at[0]++;
                    high = readUint(list, at);
                }
                if (low > high) {
                    throw refused.apply("invalid range of status codes '" + list + "'");
                }
                codes.add(low);
                codes.add(high);
                if (at[0] == list.length()) {
                    return codes.stream().mapToInt(Integer::intValue).toArray();
                }
                if (list.charAt(at[0]) != ',') {
                    throw refused.apply("invalid character '" + list.charAt(at[0]) + "' in the list of status codes");
                }
                at[0]++;
            }
        }

        /** The digits from {@code at[0]} as a number (0 without any), {@code at[0]} left after them (HAProxy's read_uint()). */
        private static int readUint(String s, int[] at) {
            long v = 0;
            while (at[0] < s.length() && s.charAt(at[0]) >= '0' && s.charAt(at[0]) <= '9') {
                v = Math.min(Integer.MAX_VALUE, v * 10 + s.charAt(at[0]++) - '0');
            }
            return (int) v;
        }
    }
}
