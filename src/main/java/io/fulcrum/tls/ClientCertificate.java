package io.fulcrum.tls;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;

/**
 * A server line's client certificate ({@code server ... ssl crt}), offered whatever CAs the server's certificate
 * request names: HAProxy's OpenSSL sends the configured certificate in any case, where the JDK's key managers pick
 * only one whose issuer the request lists. Without its key when {@link RsaKeyMethod} does the key's operations.
 */
final class ClientCertificate extends X509ExtendedKeyManager {
    private static final String ALIAS = "crt";
    private final CertKey cert;
    private final boolean withKey;

    ClientCertificate(CertKey cert, boolean withKey) {
        this.cert = cert;
        this.withKey = withKey;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return ALIAS;
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
        return ALIAS;
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return new String[] {ALIAS};
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return null;
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return cert.chain().clone();
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return withKey ? cert.key() : null;
    }
}
