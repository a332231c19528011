package io.fulcrum.tls;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;

/**
 * Verifies a server's certificate against the CAs of its {@code ca-file}, and its name: the SNI name sent (the JDK's
 * endpoint identification), else the server line's {@code verifyhost} name if any: one of the certificate's DNS
 * names (its common name when it has none), a wildcard covering the leftmost label. Without SNI the JDK's checks run
 * without the engine (with BoringSSL's engine and no name they refused every certificate).
 */
final class HostVerifier extends X509ExtendedTrustManager {
    private final X509ExtendedTrustManager authorities;
    private final String host;

    /** @param host the {@code verifyhost} name, or null */
    HostVerifier(X509Certificate[] cas, String host) throws GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
        try {
            ks.load(null, null);
        } catch (java.io.IOException e) {
            throw new GeneralSecurityException(e);
        }
        for (int i = 0; i < cas.length; i++) {
            ks.setCertificateEntry("ca" + i, cas[i]);
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        X509ExtendedTrustManager pkix = null;
        for (var tm : tmf.getTrustManagers()) {
            if (tm instanceof X509ExtendedTrustManager x) {
                pkix = x;
            }
        }
        this.authorities = pkix;
        this.host = host == null ? null : host.toLowerCase(Locale.ROOT);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        List<?> sni = engine.getSSLParameters().getServerNames();
        if (sni != null && !sni.isEmpty()) {
            authorities.checkServerTrusted(chain, authType, engine); // the SNI name too (endpoint identification)
            return;
        }
        authorities.checkServerTrusted(chain, authType);
        if (host != null && !matches(chain[0], host)) {
            throw new CertificateException("the certificate does not name " + host + " (verifyhost)");
        }
    }

    /** The certificate names {@code host}: a DNS name (or, without any, a common name) equal or a wildcard covering it. */
    static boolean matches(X509Certificate cert, String host) {
        List<String> names;
        try {
            names = cert.getSubjectAlternativeNames() == null ? List.of()
                    : cert.getSubjectAlternativeNames().stream().filter(n -> (Integer) n.get(0) == 2).map(n -> (String) n.get(1)).toList();
        } catch (CertificateParsingException e) {
            names = List.of();
        }
        if (names.isEmpty()) {
            names = CertKey.of("", null, new X509Certificate[] {cert}).names(); // the common names
        }
        for (String n : names) {
            String name = n.toLowerCase(Locale.ROOT);
            int dot = host.indexOf('.');
            if (name.equals(host) || name.startsWith("*.") && dot > 0 && name.substring(1).equals(host.substring(dot))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        throw new CertificateException("servers are reached through an SSLEngine");
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        throw new CertificateException("servers are reached through an SSLEngine");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        throw new CertificateException("not a server's verifier");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        throw new CertificateException("not a server's verifier");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        throw new CertificateException("not a server's verifier");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return ((X509TrustManager) authorities).getAcceptedIssuers();
    }
}
