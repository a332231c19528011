package io.fulcrum.rules;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.Source;
import io.fulcrum.http.ErrorMessage;
import io.fulcrum.http.ErrorMessageReader;
import io.fulcrum.http.ErrorPages;
import io.fulcrum.http.HttpErrorsTable;
import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.LiveReply;
import io.fulcrum.http.Reasons;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.log.LogFormat;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.mux.h1.H1Encoder;
import io.fulcrum.sample.SampleContext;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.util.AsciiString;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The response arguments shared by {@code return}, {@code deny} and {@code tarpit} ({@code status}, {@code content-type},
 * {@code string}, {@code lf-string}, {@code file}, {@code lf-file}, {@code default-errorfiles}, {@code errorfile},
 * {@code errorfiles}, {@code hdr}), and the reply they build for a transaction, as HAProxy's {@code http_parse_http_reply()}.
 */
final class ReplyBuilder {
    private record Header(String name, LogFormat value) {
    }

    private final boolean refused;
    /** Whether the rules look the {@code errorfiles} section up ({@code http-error} imports it into the proxy's set). */
    private final boolean rulesResolve;
    private int status;
    private String contentType;
    /** The payload argument given ("string", "errorfile"...): one at most. */
    private String payload;
    private byte[] body;
    private LogFormat lfBody;
    /** The text of {@link #lfBody} until the whole line is read. */
    private String lfText;
    /** The file of {@code errorfile}, or the message of the {@code errorfiles} section once resolved (null if it has none). */
    private ErrorMessage message;
    private String section;
    private final List<Header> headers = new ArrayList<>();

    /**
     * @param refused the reply refuses the transaction (deny, tarpit); with no argument or only {@code deny_status}
     *                it is then the proxy's error page for it ("default-errorfiles" implied)
     */
    ReplyBuilder(int defaultStatus, boolean refused) {
        this(defaultStatus, refused, true);
    }

    private ReplyBuilder(int defaultStatus, boolean refused, boolean rulesResolve) {
        this.status = defaultStatus;
        this.refused = refused;
        this.rulesResolve = rulesResolve;
    }

    /** The reply of {@code http-error status <status>}: its {@code errorfiles} section is the proxy's to import. */
    static ReplyBuilder forHttpError(int status) {
        return new ReplyBuilder(status, false, false);
    }

    /**
     * Reads the reply arguments; {@code statusKeywords} name the status argument ("status", or "deny_status" too
     * for deny). Stops at the first word that is none of them.
     */
    ReplyBuilder parse(ActionArgs a, String... statusKeywords) throws ConfigException {
        boolean onlyStatus = true;
        while (a.more()) {
            String w = a.peek();
            if (List.of(statusKeywords).contains(w)) {
                a.next();
                String s = a.next("missing status code");
                try {
                    status = Integer.parseInt(s);
                } catch (NumberFormatException e) {
                    status = -1;
                }
                if (status < 200 || status > 599) {
                    throw new ConfigException("Unexpected status code '" + s + "'");
                }
                // Only the legacy "deny_status" alone means the error page: "status" alone is an empty reply.
                onlyStatus &= w.equals("deny_status");
                continue;
            }
            switch (w) {
                case "content-type" -> {
                    a.next();
                    contentType = a.next("missing content-type");
                }
                case "hdr" -> {
                    a.next();
                    String name = a.nextWord();
                    String value = a.nextWord();
                    if (name.isEmpty() || value.isEmpty()) {
                        throw new ConfigException("'hdr' expects <name> and <value> as arguments");
                    }
                    String lower = name.toLowerCase(Locale.ROOT);
                    if (lower.equals("content-length") || lower.equals("transfer-encoding") || lower.equals("content-type")) {
                        // the reply frames and types its body itself
                        a.warn("header '" + name + "' always ignored by the http reply.");
                    } else {
                        headers.add(new Header(lower, a.format(value)));
                    }
                }
                case "string", "lf-string", "file", "lf-file", "default-errorfiles", "errorfile", "errorfiles" -> payload(a, a.next());
                default -> {
                    return done(a, onlyStatus);
                }
            }
            onlyStatus = false;
        }
        return done(a, onlyStatus);
    }

    private void payload(ActionArgs a, String w) throws ConfigException {
        if (payload != null) {
            throw new ConfigException("unexpected '" + w + "' argument, '" + payload + "' already defined");
        }
        payload = w;
        switch (w) {
            case "string" -> body = operand(a, w, "str").getBytes(StandardCharsets.ISO_8859_1);
            case "lf-string" -> lfText = operand(a, w, "fmt");
            case "file" -> body = read(a.source(), operand(a, w, "file"));
            case "lf-file" -> lfText = new String(read(a.source(), operand(a, w, "file")), StandardCharsets.ISO_8859_1);
            case "errorfile" -> message = ErrorMessageReader.file(a.source(), a.next("'errorfile' expects <fmt> as argument"));
            case "errorfiles" -> {
                section = a.next("'errorfiles' expects <name> as argument");
                if (rulesResolve) {
                    a.resolveLater(this);
                }
            }
            default -> {
                // default-errorfiles: the proxy's page for the status
            }
        }
    }

    /** The word after {@code w}, which may be neither missing nor empty. */
    private static String operand(ActionArgs a, String w, String what) throws ConfigException {
        String v = a.next();
        if (v.isEmpty()) {
            throw new ConfigException("'" + w + "' expects <" + what + "> as argument");
        }
        return v;
    }

    private ReplyBuilder done(ActionArgs a, boolean onlyStatus) throws ConfigException {
        if (refused && onlyStatus) {
            payload = "default-errorfiles";
        }
        if (fromErrorfile()) {
            if ((section != null || payload.equals("default-errorfiles")) && !ErrorPages.hasBuiltin(status)) {
                throw new ConfigException("status code '" + status + "' not handled by default with '" + payload + "' argument.");
            }
            if (contentType != null) {
                a.warn("content-type '" + contentType + "' ignored by the http reply when used with an erorrfile."); // (sic)
                contentType = null;
            }
            if (!headers.isEmpty()) {
                a.warn("hdr parameters ignored by the http reply when used with an erorrfile.");
                headers.clear();
            }
        } else if (lfText != null) {
            // As HAProxy, a log-format body is compiled last, after the "hdr" values.
            checkBodyAllowed();
            if (contentType == null) {
                throw new ConfigException("a content type must be defined with a log-format payload");
            }
            lfBody = a.format(lfText);
        } else if (body != null) {
            if (body.length > 0) {
                checkBodyAllowed();
            }
            if (contentType == null && body.length > 0) {
                throw new ConfigException("a content type must be defined when non-empty payload is configured");
            }
            if (contentType != null && body.length == 0) {
                a.warn("content-type '" + contentType + "' ignored by the http reply when used with an empty payload.");
                contentType = null;
            }
        } else if (contentType != null && payload == null) {
            a.warn("content-type '" + contentType + "' ignored by the http reply because neither errorfile nor payload defined.");
            contentType = null;
        }
        return this;
    }

    /** A 204 or a 304 has no body (HAProxy checks a log-format payload even when it would make nothing). */
    private void checkBodyAllowed() throws ConfigException {
        if (status == 204 || status == 304) {
            throw new ConfigException("No body expected for " + status + " responses");
        }
    }

    private boolean fromErrorfile() {
        return payload != null && (payload.equals("default-errorfiles") || payload.equals("errorfile") || payload.equals("errorfiles"));
    }

    /**
     * Looks the {@code errorfiles} section up, as HAProxy's configuration check: an unknown section is an error, a
     * status the section lacks a warning (the reply is then the bare status).
     */
    void resolve(ProxySpec proxy, HttpErrorsTable sections, Diagnostics diag) {
        if (!sections.has(section)) {
            diag.configAlert("Proxy '" + proxy.name() + "': unknown http-errors section '" + section + "' referenced by an http reply .");
            return;
        }
        message = sections.message(section, status);
        if (message == null) {
            diag.configWarning("Proxy '" + proxy.name() + "': status '" + status + "' referenced by an http reply not declared in "
                    + "http-errors section '" + section + "'.");
        }
    }

    private static byte[] read(Source where, String file) throws ConfigException {
        try {
            return Files.readAllBytes(where.path(file));
        } catch (IOException | RuntimeException e) {
            throw new ConfigException("failed to open file '" + file + "'");
        }
    }

    /** Whether the reply is the same for every transaction: no log-format in its body or header values. */
    boolean fixed() {
        return lfBody == null && headers.stream().allMatch(h -> h.value().isConstant());
    }

    /** The {@code errorfiles} section named, or null. */
    String section() {
        return section;
    }

    /**
     * The reply as a message built once ({@code http-error}, when {@link #fixed()} and it names no section); null for
     * {@code default-errorfiles} (the proxy's message no longer replaces the usual one).
     */
    ErrorMessage fixedMessage() throws ConfigException {
        if ("default-errorfiles".equals(payload)) {
            return null;
        }
        if (message != null) {
            return message;
        }
        Reply.Content c = (Reply.Content) build(null);
        ByteBuf raw = Unpooled.buffer();
        try {
            H1Encoder.writeHead(c.head(), raw);
            raw.writeBytes(c.body());
            return ErrorMessageReader.parse(ByteBufUtil.getBytes(raw));
        } finally {
            raw.release();
        }
    }

    /** The reply made for each transaction ({@code http-error} when not {@link #fixed()}). */
    LiveReply live() {
        return txn -> {
            Reply.Content c = (Reply.Content) build(txn);
            return new LiveReply.Built(c.head(), c.body());
        };
    }

    /** The reply for this transaction: user headers first, then Content-Length and Content-Type, as HAProxy. */
    Reply build(SampleContext txn) {
        if ("default-errorfiles".equals(payload)) {
            return new Reply.Error(status, null, null, refused);
        }
        if (message != null) {
            return new Reply.Message(status, message, refused);
        }
        byte[] bytes = lfBody != null ? lfBody.format(txn).getBytes(StandardCharsets.ISO_8859_1) : body != null ? body : new byte[0];
        HttpHeaders h = new HttpHeaders();
        for (Header x : headers) {
            String v = x.value.format(txn);
            if (!v.isEmpty()) { // HAProxy's http_reply_to_htx() leaves out a header whose value came out empty
                h.add(x.name, v);
            }
        }
        h.add("content-length", Integer.toString(bytes.length));
        if (contentType != null) {
            h.add("content-type", contentType);
        }
        ResponseHead head = new ResponseHead(11, status, new AsciiString(Reasons.of(status)), h);
        head.bodyLength(HttpHead.NO_BODY);
        return new Reply.Content(head, bytes, refused);
    }
}
