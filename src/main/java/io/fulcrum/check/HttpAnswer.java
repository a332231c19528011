package io.fulcrum.check;

import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.mux.h1.HopByHop;
import io.netty.buffer.ByteBuf;
import io.netty.util.AsciiString;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * An HTTP check's answer: its status line ({@code version} 11 for HTTP/1.1), its headers and where its body lies in the
 * bytes read.
 */
record HttpAnswer(int version, int status, String reason, List<String[]> headers, int bodyStart, long contentLength) {
    /** A complete head that is not a valid HTTP response. */
    static final HttpAnswer INVALID = new HttpAnswer(0, -1, "", List.of(), 0, -1);
    /** Compiled once: String.matches and a split on a regex compile theirs at each call, thousands of times a second. */
    private static final Pattern LINES = Pattern.compile("\r?\n");
    private static final Pattern VERSION = Pattern.compile("HTTP/\\d\\.\\d");
    private static final Pattern STATUS = Pattern.compile("\\d{3}");

    /** The answer once its head is complete ({@link #INVALID} when it is not HTTP), or null while it is not. */
    static HttpAnswer parse(ByteBuf in) {
        String s = in.toString(StandardCharsets.ISO_8859_1);
        int end = s.indexOf("\r\n\r\n");
        int sep = 4;
        if (end < 0) {
            end = s.indexOf("\n\n");
            sep = 2;
        }
        if (end < 0) {
            return null; // (a head the server cut by closing is an invalid response, as HAProxy's)
        }
        String[] lines = LINES.split(s.substring(0, end));
        String[] start = lines[0].split(" ", 3);
        if (start.length < 2 || !VERSION.matcher(start[0]).matches() || !STATUS.matcher(start[1]).matches()) {
            return INVALID;
        }
        long length = -1;
        List<String[]> headers = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.add(new String[]{lines[i].substring(0, colon).trim(), lines[i].substring(colon + 1).trim()});
            }
            if (colon > 0 && lines[i].substring(0, colon).trim().equalsIgnoreCase("content-length")) {
                try {
                    length = Long.parseLong(lines[i].substring(colon + 1).trim());
                } catch (NumberFormatException e) {
                    return INVALID;
                }
            }
        }
        int version = (start[0].charAt(5) - '0') * 10 + start[0].charAt(7) - '0';
        return new HttpAnswer(version, Integer.parseInt(start[1]), start.length > 2 ? start[2] : "", headers, end + sep, length);
    }

    /** Whether the whole body has arrived (by its length; without one, only the close tells). */
    boolean complete(ByteBuf in) {
        return contentLength >= 0 && in.readableBytes() - bodyStart >= contentLength;
    }

    String body(ByteBuf in) {
        return bodyBytes(in).toString(StandardCharsets.ISO_8859_1);
    }

    /** The body bytes read so far, as a view of {@code in}. */
    ByteBuf bodyBytes(ByteBuf in) {
        int len = Math.max(0, in.readableBytes() - bodyStart);
        if (contentLength >= 0) {
            len = (int) Math.min(len, contentLength);
        }
        return in.slice(in.readerIndex() + Math.min(bodyStart, in.readableBytes()), len);
    }

    /** The answer as the HTTP sample fetches read a response ({@code status}, {@code res.hdr}...). */
    ResponseHead head() {
        HttpHeaders h = new HttpHeaders();
        for (String[] f : headers) {
            h.add(f[0], f[1]);
        }
        ResponseHead head = new ResponseHead(version, status, new AsciiString(reason), h);
        head.bodyLength(contentLength >= 0 ? contentLength : HttpHead.UNTIL_CLOSE);
        HopByHop.clean(head); // as HAProxy's HTTP/1 mux leaves a check's response: no close nor keep-alive token
        return head;
    }
}
