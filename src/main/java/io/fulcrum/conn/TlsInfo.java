package io.fulcrum.conn;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;

/**
 * What the TLS layer of a connection tells the rest of the process (log variables, fetches of other subsystems),
 * kept on the channel once its handshake is done. A connection without TLS has none.
 */
public interface TlsInfo {
    AttributeKey<TlsInfo> KEY = AttributeKey.valueOf("fulcrum.tls");

    /** The TLS layer of {@code ch} once its handshake is done, or null (no TLS, or not yet). */
    static TlsInfo of(Channel ch) {
        return ch != null && ch.hasAttr(KEY) ? ch.attr(KEY).get() : null;
    }

    /** The protocol version as OpenSSL names it ("TLSv1.3"). */
    String protocol();

    /** The cipher as OpenSSL names it ("TLS_AES_256_GCM_SHA384", "ECDHE-RSA-AES128-GCM-SHA256"). */
    String cipher();

    /** The server name the client sent (SNI), or null. */
    String sni();

    /** The peer presented a certificate. */
    boolean hasPeerCertificate();

    /** The peer certificate's verification, as OpenSSL's X509_V_ERR code (0: verified, or not checked). */
    int verifyResult();

    /** The first CN of the peer certificate's subject, or null. */
    String peerCommonName();

    /** The key of the certificate this side presented, as HAProxy names it ("RSA2048", "EC256"), or null. */
    String localKeyAlgorithm();

    /** The signature algorithm of the certificate this side presented, as OpenSSL names it ("RSA-SHA256"), or null. */
    String localSignatureAlgorithm();
}
