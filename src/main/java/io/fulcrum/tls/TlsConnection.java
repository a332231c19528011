package io.fulcrum.tls;

import io.fulcrum.conn.TlsInfo;
import io.netty.channel.Channel;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SslHandler;
import io.netty.internal.tcnative.SSL;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.interfaces.DSAPublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.util.function.Supplier;

/**
 * What the {@code ssl_fc_*}/{@code ssl_bc_*} fetches and the log read of a TLS connection, taken once when its
 * handshake completes: the engine's native state is freed with the connection, and logs are written after that.
 * A client connection whose handshake failed gets one too, for its log line: its error and the client certificate's
 * verification, nothing of a session.
 */
final class TlsConnection implements TlsInfo {
    final String sni;
    final String protocol;
    final String cipher;
    final String alpn;
    final byte[] sessionId;
    final boolean resumed;
    /** The client's (or, on a server connection, the server's) certificate, or null. */
    final X509Certificate peer;
    /** The certificates the peer presented, its own first; null when none was asked for. */
    final Certificate[] peerChain;
    /** The certificate this side presented, or null. */
    final X509Certificate local;
    /** The client certificate's verification ({@link ClientVerifier.Outcome#NONE} without a certificate verified). */
    final ClientVerifier.Outcome verify;
    /** With tune.ssl.keylog, the client connection's secrets; else null. */
    final KeyLog.Secrets secrets;
    /** With tune.ssl.capture-buffer-size, what the client's ClientHello said; else null. */
    final HelloCapture hello;
    /** Null once the handshake completed; else why it failed. */
    final HandshakeError error;

    private TlsConnection(String sni, SSLEngine engine, Supplier<ClientVerifier> verifier, KeyLog.Secrets secrets, HelloCapture hello) {
        SSLSession s = engine.getSession();
        this.sni = sni;
        if (engine instanceof ReferenceCountedOpenSslEngine e) {
            long ssl = e.sslPointer();
            this.protocol = SSL.getVersion(ssl);
            this.cipher = SSL.getCipherForSSL(ssl);
            this.resumed = SSL.isSessionReused(ssl);
        } else {
            this.protocol = s.getProtocol().equals("TLSv1") ? "TLSv1" : s.getProtocol();
            this.cipher = s.getCipherSuite();
            this.resumed = false; // the JDK's engine does not tell
        }
        String a = engine.getApplicationProtocol();
        this.alpn = a == null || a.isEmpty() ? null : a;
        this.sessionId = s.getId();
        // (Asking a session without a peer certificate costs an exception: only when one was requested.)
        boolean asked = engine.getUseClientMode() || engine.getNeedClientAuth() || engine.getWantClientAuth();
        Certificate[] peers = asked ? peerCertificates(s) : null;
        this.peer = first(peers);
        this.peerChain = peers;
        this.local = first(s.getLocalCertificates());
        ClientVerifier.Outcome v = s.getValue(ClientVerifier.RESULT) instanceof ClientVerifier.Outcome o ? o : verifyResumed(verifier, peers);
        this.verify = resumed ? v.resumed() : v;
        this.secrets = secrets;
        this.hello = hello;
        this.error = null;
        if (secrets != null) {
            secrets.completed(engine);
        }
    }

    /** A failed handshake: the engine's native state is gone, its Java session keeps the verification's outcome. */
    private TlsConnection(String sni, SSLEngine engine, HandshakeError error) {
        this.sni = sni;
        this.protocol = null;
        this.cipher = null;
        this.alpn = null;
        this.sessionId = null;
        this.resumed = false;
        this.peer = null;
        this.peerChain = null;
        this.local = null;
        SSLSession s = engine == null ? null : engine.getSession();
        this.verify = s != null && s.getValue(ClientVerifier.RESULT) instanceof ClientVerifier.Outcome v ? v : ClientVerifier.Outcome.NONE;
        this.secrets = null;
        this.hello = null;
        // The engine reports the verifier's refusal as its own exception: OpenSSL's error for it.
        this.error = error.code() == 0 && verify.refused() ? HandshakeError.of(0, "CERTIFICATE_VERIFY_FAILED") : error;
    }

    /**
     * Records why the handshake of a client connection failed, for its log line.
     *
     * @param engine the engine of the certificate's context, or null when none was chosen yet
     */
    static TlsConnection failed(Channel ch, SSLEngine engine, String sni, HandshakeError error) {
        TlsConnection c = new TlsConnection(sni, engine, error);
        ch.attr(KEY).set(c);
        return c;
    }

    /** The handshake completed (the session's fetches have their values). */
    boolean completed() {
        return error == null;
    }

    /**
     * The verification of a resumed session, whose result the session does not keep: the chosen context's verifier
     * checks the chain again ({@link ClientVerifier#resumed}); none without a client certificate.
     */
    private ClientVerifier.Outcome verifyResumed(Supplier<ClientVerifier> verifier, Certificate[] peers) {
        ClientVerifier v = resumed && verifier != null && peers != null ? verifier.get() : null;
        return v == null ? ClientVerifier.Outcome.NONE : v.resumed(peers);
    }

    /**
     * Records the state of a connection whose handshake just completed.
     *
     * @param verifier what verifies the client's certificate (asked only on a resumed session), or null
     * @param secrets  where its key log went, or null
     * @param hello    what was captured of its ClientHello, or null
     */
    static TlsConnection completed(Channel ch, SslHandler handler, String sni, Supplier<ClientVerifier> verifier, KeyLog.Secrets secrets,
                                   HelloCapture hello) {
        TlsConnection c = new TlsConnection(sni, handler.engine(), verifier, secrets, hello);
        ch.attr(KEY).set(c);
        return c;
    }

    static TlsConnection of(Channel ch) {
        return TlsInfo.of(ch) instanceof TlsConnection c ? c : null;
    }

    private static Certificate[] peerCertificates(SSLSession s) {
        try {
            return s.getPeerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            return null;
        }
    }

    private static X509Certificate first(Certificate[] certs) {
        return certs != null && certs.length > 0 && certs[0] instanceof X509Certificate x ? x : null;
    }

    @Override
    public String protocol() {
        return protocol;
    }

    @Override
    public String cipher() {
        return cipher;
    }

    @Override
    public String sni() {
        return sni;
    }

    @Override
    public boolean hasPeerCertificate() {
        return peer != null;
    }

    @Override
    public int verifyResult() {
        return verify.last();
    }

    @Override
    public String peerCommonName() {
        return peer == null ? null : CertFetches.commonName(peer);
    }

    /** As HAProxy's ssl_sock_get_pkey_algo(): the key type and its bits; null for types other than RSA, EC and DSA. */
    @Override
    public String localKeyAlgorithm() {
        if (local == null) {
            return null;
        }
        return switch (local.getPublicKey()) {
            case RSAPublicKey k -> "RSA" + k.getModulus().bitLength();
            case ECPublicKey k -> "EC" + k.getParams().getCurve().getField().getFieldSize();
            case DSAPublicKey k -> "DSA" + k.getParams().getP().bitLength();
            default -> null;
        };
    }

    @Override
    public String localSignatureAlgorithm() {
        return local == null ? null : CertFetches.signature(local);
    }

    /** The bits of the symmetric cipher's key ({@code ssl_fc_use_keysize}), from its name; 0 when unknown. */
    int keyBits() {
        String c = cipher.toUpperCase(java.util.Locale.ROOT);
        if (c.contains("AES128") || c.contains("AES_128")) {
            return 128;
        }
        if (c.contains("AES256") || c.contains("AES_256") || c.contains("CHACHA20")) {
            return 256;
        }
        if (c.contains("3DES") || c.contains("DES-CBC3")) {
            return 168;
        }
        return 0;
    }
}
