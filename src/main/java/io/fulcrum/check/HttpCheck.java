package io.fulcrum.check;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The request of an HTTP check as HAProxy 2.6 writes it: lower-case names, {@code connection: close} for HTTP/1.1 unless
 * the rules give a connection header.
 */
final class HttpCheck {
    private HttpCheck() {
    }

    /** The request's bytes, its log-format parts ({@code uri-lf}, {@code hdr} values, {@code body-lf}) made in {@code c}. */
    static byte[] request(CheckRule.HttpSend h, CheckContext c, Supplier<String> stateHeader) {
        StringBuilder sb = new StringBuilder();
        String uri = h.uri().of(c);
        boolean connection = false;
        for (CheckRule.Header f : h.headers()) {
            String name = f.name().toLowerCase(Locale.ROOT);
            String value = f.value().of(c);
            sb.append(name).append(": ").append(value).append("\r\n");
            connection |= name.equals("connection");
            if (name.equals("host")) {
                uri = withAuthority(uri, value);
            }
        }
        // an empty URI (a uri-lf that made nothing) goes out as "/", as HAProxy's start line
        sb.insert(0, h.method() + ' ' + (uri.isEmpty() ? "/" : uri) + ' ' + h.version() + "\r\n");
        String state = stateHeader == null ? null : stateHeader.get();
        if (state != null) {
            sb.append("x-haproxy-server-state: ").append(state).append("\r\n");
        }
        byte[] body = h.body() == null ? new byte[0] : h.body().of(c).getBytes(StandardCharsets.ISO_8859_1);
        if (body.length > 0) {
            sb.append("content-length: ").append(body.length).append("\r\n");
        }
        if (h.version().equals("HTTP/1.1") && !connection) {
            sb.append("connection: close\r\n");
        }
        sb.append("\r\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(body);
        return out.toByteArray();
    }

    /** An absolute URI with the Host header's value as its authority (HAProxy's http_update_authority()); others as they are. */
    private static String withAuthority(String uri, String host) {
        int scheme = uri.startsWith("/") ? -1 : uri.indexOf("://");
        if (scheme < 0) {
            return uri;
        }
        int from = scheme + 3;
        int path = uri.indexOf('/', from);
        return uri.substring(0, from) + host + (path < 0 ? "" : uri.substring(path));
    }
}
