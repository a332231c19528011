package io.fulcrum.pool;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;

import java.net.SocketAddress;

/**
 * What an idle server connection must have been opened with to serve a request, as HAProxy's connection hash: the
 * destination of a server that follows the stream's ({@code to}), the name a server line's {@code sni} expression gave
 * ({@code sni}, null when it gave none), the PROXY header sent first ({@code proxy}, its bytes as ISO-8859-1 text; null
 * without send-proxy). Kept on the connection when it is opened.
 */
public record ReuseKey(SocketAddress to, String sni, String proxy) {
    private static final AttributeKey<ReuseKey> KEY = AttributeKey.valueOf(ReuseKey.class, "key");

    /** Marks {@code ch}, just opened for a request whose key is {@code key} (null: none). */
    public static void mark(Channel ch, ReuseKey key) {
        if (key != null) {
            ch.attr(KEY).set(key);
        }
    }

    /** {@code ch} may serve a request whose key is {@code key}: any connection when null, else one opened with the same. */
    public static boolean fits(Channel ch, ReuseKey key) {
        return key == null || key.equals(ch.attr(KEY).get());
    }
}
