package io.fulcrum.rules;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.Reasons;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.log.LogFormat;
import io.netty.util.AsciiString;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The response arguments shared by {@code return} and {@code deny} ({@code status}, {@code content-type},
 * {@code string}, {@code lf-string}, {@code file}, {@code lf-file}, {@code default-errorfiles},
 * {@code hdr}), and the reply they build for a transaction.
 */
final class ReplyBuilder {
    private record Header(String name, LogFormat value) {
    }

    private int status;
    private String contentType;
    private byte[] body;
    private LogFormat lfBody;
    private boolean errorfile;
    private final List<Header> headers = new ArrayList<>();

    ReplyBuilder(int defaultStatus) {
        this.status = defaultStatus;
    }

    /**
     * Reads the reply arguments; {@code statusKeyword} names the status argument ("status", or
     * "deny_status" too for deny). Stops at the first word that is none of them.
     */
    ReplyBuilder parse(ActionArgs a, String... statusKeywords) throws ConfigException {
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
                continue;
            }
            switch (w) {
                case "content-type" -> {
                    a.next();
                    contentType = a.next("missing content-type");
                }
                case "string" -> {
                    a.next();
                    body = a.next("missing string").getBytes(StandardCharsets.ISO_8859_1);
                }
                case "lf-string" -> {
                    a.next();
                    lfBody = a.format(a.next("missing lf-string"));
                }
                case "file" -> {
                    a.next();
                    body = read(a.next("missing file"));
                }
                case "lf-file" -> {
                    a.next();
                    lfBody = a.format(new String(read(a.next("missing lf-file")), StandardCharsets.ISO_8859_1));
                }
                case "default-errorfiles" -> {
                    a.next();
                    errorfile = true;
                }
                case "hdr" -> {
                    a.next();
                    String name = a.next("missing header name");
                    headers.add(new Header(name.toLowerCase(java.util.Locale.ROOT), a.format(a.next("missing header value"))));
                }
                case "errorfile", "errorfiles" -> throw new ConfigException("'" + w + "' is not supported by Fulcrum yet");
                default -> {
                    return this;
                }
            }
        }
        if (contentType == null && (body != null || lfBody != null)) {
            throw new ConfigException("a content type must be specified for a response with a payload");
        }
        return this;
    }

    private static byte[] read(String file) throws ConfigException {
        try {
            return Files.readAllBytes(Path.of(file));
        } catch (IOException | RuntimeException e) {
            throw new ConfigException("failed to open file '" + file + "'");
        }
    }

    int status() {
        return status;
    }

    /** True when nothing but a status was given (deny then sends the proxy's page for it). */
    boolean bare() {
        return body == null && lfBody == null && contentType == null && headers.isEmpty();
    }

    /** The reply for this transaction: user headers first, then Content-Length and Content-Type, as HAProxy. */
    Reply build(HttpTxn txn) {
        if (errorfile) {
            return new Reply.Error(status);
        }
        byte[] payload = lfBody != null ? lfBody.format(txn).getBytes(StandardCharsets.ISO_8859_1) : body != null ? body : new byte[0];
        HttpHeaders h = new HttpHeaders();
        for (Header x : headers) {
            h.add(x.name, x.value.format(txn));
        }
        h.add("content-length", Integer.toString(payload.length));
        if (contentType != null) {
            h.add("content-type", contentType);
        }
        ResponseHead head = new ResponseHead(11, status, new AsciiString(Reasons.of(status)), h);
        head.bodyLength(HttpHead.NO_BODY);
        return new Reply.Content(head, payload);
    }
}
