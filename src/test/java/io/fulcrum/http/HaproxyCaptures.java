package io.fulcrum.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** The bytes HAProxy 2.6 sent, from haproxy-2.6-error-responses.txt (see its header for how they were captured). */
final class HaproxyCaptures {
    private HaproxyCaptures() {
    }

    private static final Map<String, byte[]> CAPTURES = load();

    /** The capture named {@code name}. */
    static byte[] get(String name) {
        byte[] b = CAPTURES.get(name);
        if (b == null) {
            throw new IllegalArgumentException("no capture " + name);
        }
        return b;
    }

    /** The readable bytes of {@code buf}, which is then released. */
    static byte[] bytes(ByteBuf buf) {
        try {
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    /** Bytes as text with CR and LF visible, for readable assertion failures. */
    static String show(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1).replace("\r", "\\r").replace("\n", "\\n\n");
    }

    private static Map<String, byte[]> load() {
        Map<String, byte[]> m = new LinkedHashMap<>();
        try (InputStream in = HaproxyCaptures.class.getResourceAsStream("haproxy-2.6-error-responses.txt")) {
            String text = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            for (String line : text.split("\n")) {
                if (!line.isEmpty() && !line.startsWith("#")) {
                    int tab = line.indexOf('\t');
                    m.put(line.substring(0, tab), unescape(line.substring(tab + 1)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return m;
    }

    private static byte[] unescape(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') {
                c = switch (s.charAt(++i)) {
                    case 'r' -> '\r';
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    default -> s.charAt(i);
                };
            }
            sb.append(c);
        }
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }
}
