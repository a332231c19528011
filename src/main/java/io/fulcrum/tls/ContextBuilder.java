package io.fulcrum.tls;

import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslCachingX509KeyManagerFactory;
import io.netty.handler.ssl.OpenSslContextOption;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.KeyManagerFactoryWrapper;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLException;
import javax.net.ssl.X509ExtendedKeyManager;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.Set;

/**
 * Builds the TLS contexts of bind lines and servers from their options: on BoringSSL through Netty's OpenSSL
 * engine, on the JDK's engine when the native library cannot load. A problem with an option comes back as the
 * HAProxy message naming it (the caller adds the proxy and the line).
 */
final class ContextBuilder {
    /** TLS 1.3's suites: BoringSSL offers its fixed set, the names are still checked as OpenSSL would. */
    private static final Set<String> TLS13_SUITES = Set.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256", "TLS_AES_128_CCM_SHA256", "TLS_AES_128_CCM_8_SHA256");

    /** A refused option, with HAProxy's words: "unable to set SSL cipher list to 'FOO'". */
    static final class OptionError extends Exception {
        private static final long serialVersionUID = 1L;

        OptionError(String message) {
            super(message, null, false, false);
        }
    }

    /** The in-memory key store's password (it never leaves the process). */
    private static final char[] PASSWORD = "fulcrum".toCharArray();

    private ContextBuilder() {
    }

    static SslProvider provider() {
        return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
    }

    /**
     * The builder of a server context presenting {@code ck}. With an RSA key and OpenSSL 3 at hand, OpenSSL does the
     * key's operations ({@link RsaKeyMethod}: a full RSA handshake costs a third less) and BoringSSL gets the chain
     * alone.
     */
    static SslContextBuilder forServer(CertKey ck) throws OptionError {
        RsaKeyMethod method = keyMethod(ck);
        SslContextBuilder b = SslContextBuilder.forServer(keyManager(ck, method != null));
        return method == null ? b : b.option(OpenSslContextOption.PRIVATE_KEY_METHOD, method);
    }

    /**
     * The key manager of a certificate, without its key when {@code chainOnly}. On OpenSSL, one that keeps the
     * native form of the key and chain: Netty's default converts them again for every handshake.
     */
    private static KeyManagerFactory keyManager(CertKey ck, boolean chainOnly) throws OptionError {
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("crt", ck.key(), PASSWORD, ck.chain());
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, PASSWORD);
            if (chainOnly) {
                X509ExtendedKeyManager km = (X509ExtendedKeyManager) kmf.getKeyManagers()[0];
                kmf = new KeyManagerFactoryWrapper(new ChainOnlyKeyManager(km));
            }
            return cached(kmf);
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new OptionError("unable to use the certificate of '" + ck.file() + "' (" + e.getMessage() + ")");
        }
    }

    /**
     * Gives a server line's builder its client certificate ({@link ClientCertificate}), on OpenSSL cached as above,
     * the RSA key's operations OpenSSL 3's as on bind lines. The builder makes the context again for a new
     * certificate: a former one's key method goes.
     */
    static void clientCertificate(SslContextBuilder b, CertKey ck) {
        RsaKeyMethod method = keyMethod(ck);
        b.keyManager(cached(new KeyManagerFactoryWrapper(new ClientCertificate(ck, method == null))))
                .option(OpenSslContextOption.PRIVATE_KEY_METHOD, method); // (null removes it)
    }

    /** OpenSSL 3's operations for {@code ck}'s key, or null: BoringSSL's (or the JDK engine's) then. */
    private static RsaKeyMethod keyMethod(CertKey ck) {
        return provider() == SslProvider.OPENSSL ? RsaKeyMethod.of(ck.key()) : null;
    }

    private static KeyManagerFactory cached(KeyManagerFactory kmf) {
        return provider() == SslProvider.OPENSSL ? new OpenSslCachingX509KeyManagerFactory(kmf) : kmf;
    }

    /**
     * The TLS 1.2 suites of OpenSSL 3's DEFAULT list that BoringSSL has, in OpenSSL's order: what HAProxy offers and
     * prefers without {@code ciphers}. Netty's own default leaves out the ECDSA ChaCha20 and CBC suites (a client
     * asking for ECDHE-ECDSA-AES128-SHA failed its handshake). The list's PSK and SRP suites need settings HAProxy
     * has no keyword for; BoringSSL has no DHE and no SHA-2 CBC suites.
     */
    static final String OPENSSL_DEFAULT_CIPHERS = String.join(":",
            "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-ECDSA-CHACHA20-POLY1305",
            "ECDHE-RSA-CHACHA20-POLY1305", "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256",
            "ECDHE-ECDSA-AES256-SHA", "ECDHE-RSA-AES256-SHA", "ECDHE-ECDSA-AES128-SHA", "ECDHE-RSA-AES128-SHA",
            "AES256-GCM-SHA384", "AES128-GCM-SHA256", "AES256-SHA", "AES128-SHA");

    /** Applies the shared options to a builder, builds, then sets what only the native context takes. */
    static SslContext build(SslContextBuilder b, TlsOptions o) throws OptionError {
        String[] protocols = o.protocols();
        if (protocols.length == 0) {
            throw new OptionError("all SSL/TLS versions are disabled");
        }
        b.sslProvider(provider()).protocols(protocols);
        if (o.alpn != null && !o.alpn.isEmpty()) {
            b.applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                    ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                    ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, o.alpn));
        }
        if (o.ciphersuites != null) {
            for (String s : o.ciphersuites.split(":")) {
                if (!TLS13_SUITES.contains(s)) {
                    throw new OptionError("unable to set TLS 1.3 cipher suites to '" + o.ciphersuites + "'");
                }
            }
        }
        SslContext context;
        try {
            context = b.build();
        } catch (SSLException | RuntimeException e) {
            throw new OptionError("unable to build the TLS context (" + e.getMessage() + ")");
        }
        long ctx = NativeContext.handle(context);
        if (ctx == 0) {
            return context; // the JDK's engine: its defaults (no OpenSSL cipher strings, curves or ticket switch)
        }
        if (!NativeContext.ciphers(ctx, o.ciphers != null ? o.ciphers : OPENSSL_DEFAULT_CIPHERS)) {
            throw new OptionError("unable to set SSL cipher list to '" + o.ciphers + "'");
        }
        if (o.curves != null && !NativeContext.curves(ctx, o.curves)) {
            throw new OptionError("unable to set SSL curves list to '" + o.curves + "'");
        }
        if (o.curves == null && o.ecdhe != null && !NativeContext.curves(ctx, o.ecdhe)) {
            throw new OptionError("unable to set elliptic named curve to '" + o.ecdhe + "'");
        }
        if (o.preferClientCiphers) {
            NativeContext.preferClientCiphers(ctx);
        }
        // Netty's contexts refuse tickets unless told (a JDK property): HAProxy's binds and servers use them by default.
        NativeContext.tickets(ctx, !o.noTickets);
        return context;
    }

    /** True when {@code ciphersuites} asks for less than BoringSSL's fixed TLS 1.3 suites (a warning: it cannot). */
    static boolean restrictsTls13(TlsOptions o) {
        return o.ciphersuites != null && provider() == SslProvider.OPENSSL
                && !Set.of(o.ciphersuites.split(":")).containsAll(List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
                "TLS_CHACHA20_POLY1305_SHA256"));
    }
}
