package io.fulcrum.tls;

import javax.net.ssl.CertPathTrustManagerParameters;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertStore;
import java.security.cert.CertificateException;
import java.security.cert.CertificateParsingException;
import java.security.cert.CollectionCertStoreParameters;
import java.security.cert.PKIXBuilderParameters;
import java.security.cert.PKIXRevocationChecker;
import java.security.cert.X509CRL;
import java.security.cert.X509CertSelector;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;

/**
 * Verifies a server's certificate against the CAs of its {@code ca-file} (and the CRLs of its {@code crl-file}), and
 * its name: the SNI name sent (the JDK's endpoint identification), else the server line's {@code verifyhost} name if
 * any: one of the certificate's DNS names (its common name when it has none), a wildcard covering the leftmost label.
 * Without SNI the JDK's checks run without the engine (with BoringSSL's engine and no name they refused every
 * certificate). A commit of one of its files replaces the CAs and CRLs for the next handshakes ({@link CertStore}).
 */
final class HostVerifier extends X509ExtendedTrustManager {
    /** The names of its CA file and CRL file (null: none), as {@link AuthorityFiles} knows them. */
    final String caFile;
    final String crlFile;
    /** A server line's own (not a health check's): one of the file's users in the CLI. */
    final boolean line;
    private final String host;
    private volatile X509ExtendedTrustManager authorities;
    /** The sessions its context keeps to resume, which the old content verified. */
    private SSLSessionContext sessions;

    /** @param host the {@code verifyhost} name, or null */
    HostVerifier(String caFile, String crlFile, String host, boolean line, X509ExtendedTrustManager authorities) {
        this.caFile = caFile;
        this.crlFile = crlFile;
        this.line = line;
        this.host = host == null ? null : host.toLowerCase(Locale.ROOT);
        this.authorities = authorities;
    }

    /** The JDK's PKIX checks with these CAs, and these CRLs (null: none) for the server's own certificate. */
    static X509ExtendedTrustManager pkix(List<X509Certificate> cas, List<X509CRL> crls) throws GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
        try {
            ks.load(null, null);
        } catch (java.io.IOException e) {
            throw new GeneralSecurityException(e);
        }
        for (int i = 0; i < cas.size(); i++) {
            ks.setCertificateEntry("ca" + i, cas.get(i));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
        if (crls == null) {
            tmf.init(ks);
        } else {
            // As the bind lines' CRL check: the certificate itself, from the CRL file, nothing fetched.
            PKIXBuilderParameters p = new PKIXBuilderParameters(ks, new X509CertSelector());
            PKIXRevocationChecker rc = (PKIXRevocationChecker) CertPathValidator.getInstance("PKIX").getRevocationChecker();
            rc.setOptions(EnumSet.of(PKIXRevocationChecker.Option.PREFER_CRLS, PKIXRevocationChecker.Option.NO_FALLBACK,
                    PKIXRevocationChecker.Option.ONLY_END_ENTITY));
            p.addCertPathChecker(rc);
            p.addCertStore(CertStore.getInstance("Collection", new CollectionCertStoreParameters(crls)));
            tmf.init(new CertPathTrustManagerParameters(p));
        }
        for (var tm : tmf.getTrustManagers()) {
            if (tm instanceof X509ExtendedTrustManager x) {
                return x;
            }
        }
        throw new GeneralSecurityException("no PKIX trust manager");
    }

    void sessions(SSLSessionContext sessions) {
        this.sessions = sessions;
    }

    /** The next handshakes verify with these (a committed CA or CRL file), none resuming a session verified before. */
    void authorities(X509ExtendedTrustManager next) {
        authorities = next;
        if (sessions != null) {
            for (byte[] id : Collections.list(sessions.getIds())) {
                SSLSession s = sessions.getSession(id);
                if (s != null) {
                    s.invalidate();
                }
            }
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        X509ExtendedTrustManager cas = authorities;
        List<?> sni = engine.getSSLParameters().getServerNames();
        try {
            if (sni != null && !sni.isEmpty()) {
                cas.checkServerTrusted(chain, authType, engine); // the SNI name too (endpoint identification)
                return;
            }
            cas.checkServerTrusted(chain, authType);
        } catch (CertificateException e) {
            throw withX509Error(e);
        }
        if (host != null && !matches(chain[0], host)) {
            throw new CertificateException("the certificate does not name " + host + " (verifyhost)");
        }
    }

    /**
     * A refusal of the chain carrying OpenSSL's X509 error for it, so that BoringSSL sends the server the alert
     * HAProxy's OpenSSL would (unknown_ca, certificate_expired...). A name that does not match keeps no code: OpenSSL's
     * alert is internal_error then, as BoringSSL's.
     */
    private static CertificateException withX509Error(CertificateException e) {
        int code = 0;
        for (Throwable t = e; t != null && code == 0; t = t.getCause()) {
            if (t instanceof CertPathValidatorException v && v.getReason() instanceof CertPathValidatorException.BasicReason) {
                code = ClientVerifier.x509Error(v);
            } else if (t instanceof CertPathValidatorException || t instanceof CertPathBuilderException) {
                code = ClientVerifier.UNABLE_TO_GET_ISSUER_CERT_LOCALLY; // no path to a CA of the file
            }
        }
        return code == 0 ? e : ClientVerifier.refusal(e.getMessage(), code);
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
