package io.fulcrum.http;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Source;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;

/**
 * Reads error messages as HAProxy 2.6 loads them ({@code http_load_errorfile()},
 * {@code http_parse_errorloc()}, {@code http_str_to_htx()}), with its checks and its messages: the
 * message must be a complete HTTP/1 response with a known or close-delimited body, and must fit in a
 * buffer once converted to HAProxy's internal form (HTX).
 */
public final class ErrorMessageReader {
    private ErrorMessageReader() {
    }

    /** {@code tune.bufsize}'s default, for error files (they are read before the global settings are final). */
    static final int BUFSIZE = 16384;
    /** {@code tune.http.maxhdr}'s default, for error files. */
    private static final int MAX_HEADERS = 101;

    /**
     * An {@code errorfile} named {@code file} on the line at {@code where} (which finds a relative name): the file's first
     * {@link #BUFSIZE} bytes, as HAProxy reads no more.
     */
    public static ErrorMessage file(Source where, String file) throws ConfigException {
        InputStream in;
        try {
            in = Files.newInputStream(where.path(file));
        } catch (IOException | RuntimeException e) {
            throw new ConfigException("error opening file '" + file + "'.");
        }
        byte[] raw;
        try (in) {
            raw = in.readNBytes(BUFSIZE);
        } catch (IOException e) {
            throw new ConfigException("error reading file '" + file + "'.");
        }
        try {
            return parse(raw);
        } catch (ConfigException e) {
            throw new ConfigException("'" + file + "': " + e.getMessage());
        }
    }

    /** The redirect of {@code errorloc302} ({@code code} 302) or {@code errorloc303} (303), as HAProxy writes it. */
    static ErrorMessage redirect(int code, String url) throws ConfigException {
        String raw = (code == 302 ? "HTTP/1.1 302 Found\r\n" : "HTTP/1.1 303 See Other\r\n")
                + "Cache-Control: no-cache\r\nContent-length: 0\r\nLocation: " + url + "\r\n\r\n";
        try {
            return parse(raw.getBytes(StandardCharsets.ISO_8859_1));
        } catch (ConfigException e) {
            throw new ConfigException("invalid error message: " + e.getMessage());
        }
    }

    /** A raw response (status line, fields, body), checked as an errorfile's; an empty one is the empty message (nothing is sent). */
    public static ErrorMessage parse(byte[] raw) throws ConfigException {
        return parse(raw, BUFSIZE, MAX_HEADERS);
    }

    /** A raw response, that must fit a buffer of {@code bufsize} bytes and {@code maxHeaders} header slots. */
    static ErrorMessage parse(byte[] raw, int bufsize, int maxHeaders) throws ConfigException {
        if (raw.length == 0) {
            return ErrorMessage.EMPTY;
        }
        ResponseHeadParser.Head h = ResponseHeadParser.parse(raw, maxHeaders);
        String v = h.version();
        if (v.length() != 8) {
            throw new ConfigException("invalid http version (" + v + ")");
        }
        int status = h.status();
        if (status < 200 && (status == 100 || status >= 102)) {
            throw new ConfigException("invalid http status code for an error message (" + status + ")");
        }
        boolean noBody = status == 204 || status == 304;
        if (h.chunked() && !noBody) {
            throw new ConfigException("chunk-encoded payload not supported");
        }
        boolean contentLength = h.contentLength() && !noBody;
        int payload = raw.length - h.bodyOffset();
        if ((noBody || contentLength && h.bodyLength() == 0) && payload > 0) {
            throw new ConfigException("message payload not expected");
        }
        if (contentLength && h.bodyLength() != payload) {
            throw new ConfigException("payload size does not match the announced content-length (" + payload
                    + " != " + Long.toUnsignedString(h.bodyLength()) + ")");
        }
        checkSize(h, payload, bufsize);
        boolean version11 = v.charAt(5) > '1' || v.charAt(5) == '1' && v.charAt(7) >= '1';
        return ErrorMessage.of(h, Arrays.copyOfRange(raw, h.bodyOffset(), raw.length), version11, noBody || contentLength);
    }

    private static void checkSize(ResponseHeadParser.Head h, int payload, int bufsize) throws ConfigException {
        long size = HttpHead.HTX_FIXED + (long) HttpHead.HTX_BLOCK * h.fields().size() + h.strings();
        if (size > bufsize) {
            throw new ConfigException("unable to add headers into the HTX message");
        }
        if (payload > 0 && size + HttpHead.HTX_BLOCK + payload > bufsize) {
            throw new ConfigException("unable to add payload into the HTX message");
        }
    }
}
