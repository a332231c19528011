package io.fulcrum.tls;

import io.netty.channel.Channel;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.internal.tcnative.KeyLogCallback;
import io.netty.internal.tcnative.SSL;
import io.netty.internal.tcnative.SSLContext;

import javax.net.ssl.SSLEngine;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code tune.ssl.keylog on}: BoringSSL hands each secret of a handshake to a callback on the connection's event
 * loop, as an NSS key log line ("LABEL client_random secret"); it is kept with the connection until it closes, for
 * the {@code ssl_fc_*_secret} fetches. Connections are found by their native SSL pointer in a map of the loop's own
 * (the pointer is reused by later connections: an entry is removed only by its own connection).
 */
final class KeyLog implements KeyLogCallback {
    static final KeyLog INSTANCE = new KeyLog();
    private static final ThreadLocal<Map<Long, Secrets>> LIVE = ThreadLocal.withInitial(HashMap::new);

    /** A connection's secrets, hex, by NSS label; and the randoms and master key, once the handshake is done. */
    static final class Secrets {
        final Map<String, String> byLabel = new HashMap<>(8);
        byte[] clientRandom;
        byte[] serverRandom;
        byte[] masterKey;

        /** Takes what the handshake left that is not a key log line (TLS 1.2's master key, the randoms). */
        void completed(SSLEngine engine) {
            if (engine instanceof ReferenceCountedOpenSslEngine e) {
                long ssl = e.sslPointer();
                clientRandom = SSL.getClientRandom(ssl);
                serverRandom = SSL.getServerRandom(ssl);
                byte[] master = SSL.getMasterKey(ssl);
                masterKey = master != null && master.length > 0 && !"TLSv1.3".equals(SSL.getVersion(ssl)) ? master : null;
            }
        }
    }

    private KeyLog() {
    }

    /** Sets the callback on a context (an OpenSSL one; the JDK's engine has no key log). */
    static void enable(io.netty.handler.ssl.SslContext context) {
        long ctx = NativeContext.handle(context);
        if (ctx != 0) {
            SSLContext.setKeyLogCallback(ctx, INSTANCE);
        }
    }

    /** Collects the secrets of {@code engine}'s handshake, which has not begun, until {@code ch} closes. */
    static Secrets track(Channel ch, SSLEngine engine) {
        Secrets s = new Secrets();
        if (engine instanceof ReferenceCountedOpenSslEngine e) {
            long ssl = e.sslPointer();
            Map<Long, Secrets> live = LIVE.get();
            live.put(ssl, s);
            ch.closeFuture().addListener(f -> live.remove(ssl, s));
        }
        return s;
    }

    @Override
    public void handle(long ssl, byte[] line) {
        Secrets s = LIVE.get().get(ssl);
        if (s == null) {
            return;
        }
        String text = new String(line, StandardCharsets.US_ASCII);
        int a = text.indexOf(' ');
        int b = text.lastIndexOf(' ');
        if (a > 0 && b > a) {
            s.byLabel.put(text.substring(0, a), text.substring(b + 1));
        }
    }
}
