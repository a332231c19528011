package io.fulcrum.check;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/** The request of an HTTP check as HAProxy 2.6 writes it: lower-case names, {@code connection: close} for HTTP/1.1. */
final class HttpCheck {
    private HttpCheck() {
    }

    /** The request's bytes, its log-format parts ({@code uri-lf}, {@code hdr} values, {@code body-lf}) made in {@code c}. */
    static byte[] request(CheckRule.HttpSend h, CheckContext c, Supplier<String> stateHeader) {
        StringBuilder sb = new StringBuilder();
        sb.append(h.method()).append(' ').append(h.uri().of(c)).append(' ').append(h.version()).append("\r\n");
        for (CheckRule.Header f : h.headers()) {
            sb.append(f.name().toLowerCase(java.util.Locale.ROOT)).append(": ").append(f.value().of(c)).append("\r\n");
        }
        String state = stateHeader == null ? null : stateHeader.get();
        if (state != null) {
            sb.append("x-haproxy-server-state: ").append(state).append("\r\n");
        }
        byte[] body = h.body() == null ? new byte[0] : h.body().of(c).getBytes(StandardCharsets.ISO_8859_1);
        if (body.length > 0) {
            sb.append("content-length: ").append(body.length).append("\r\n");
        }
        if (h.version().equals("HTTP/1.1")) {
            sb.append("connection: close\r\n");
        }
        sb.append("\r\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(body);
        return out.toByteArray();
    }
}
