package io.fulcrum.tls;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.X509ExtendedTrustManager;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.CRL;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertStore;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.CollectionCertStoreParameters;
import java.security.cert.PKIXParameters;
import java.security.cert.PKIXReason;
import java.security.cert.PKIXRevocationChecker;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Verifies client certificates against a bind line's {@code ca-file} (and {@code crl-file}), naming failures with
 * OpenSSL's X509_V_ERR codes so that {@code ca-ignore-err}/{@code crt-ignore-err} and the {@code ssl_c_*err} fetches
 * mean what they mean in HAProxy. The outcome is kept in the handshake's session for {@link TlsConnection}.
 */
final class ClientVerifier extends X509ExtendedTrustManager {
    /** The session value holding {code, depth} of the first error, or {0, 0}. */
    static final String RESULT = "fulcrum.verify";

    static final int UNABLE_TO_GET_CRL = 3;
    static final int CERT_SIGNATURE_FAILURE = 7;
    static final int CERT_NOT_YET_VALID = 9;
    static final int CERT_HAS_EXPIRED = 10;
    static final int DEPTH_ZERO_SELF_SIGNED_CERT = 18;
    static final int UNABLE_TO_GET_ISSUER_CERT_LOCALLY = 20;
    static final int CERT_REVOKED = 23;
    static final int UNSPECIFIED = 1;

    /** The CAs named in the certificate request. */
    private final X509Certificate[] named;
    private final Set<TrustAnchor> anchors = new HashSet<>();
    private final Collection<? extends CRL> crls;
    private final Set<Integer> caIgnore;
    private final Set<Integer> crtIgnore;

    /**
     * @param authorities the CAs that verify
     * @param named       those the certificate request names
     * @param caIgnore    errors to let pass above the client's certificate (null none, empty all); crtIgnore, on it
     */
    ClientVerifier(X509Certificate[] authorities, X509Certificate[] named, Collection<? extends CRL> crls, Set<Integer> caIgnore,
                   Set<Integer> crtIgnore) {
        this.named = named.clone();
        for (X509Certificate c : authorities) {
            anchors.add(new TrustAnchor(c, null));
        }
        this.crls = crls;
        this.caIgnore = caIgnore;
        this.crtIgnore = crtIgnore;
    }

    /** The CRLs of a PEM file. */
    static Collection<? extends CRL> crls(byte[] pem) throws GeneralSecurityException {
        return CertificateFactory.getInstance("X.509").generateCRLs(new java.io.ByteArrayInputStream(pem));
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        int[] error = error(chain);
        SSLSession s = engine.getHandshakeSession();
        if (s != null) {
            s.putValue(RESULT, error);
        }
        if (error[0] != 0 && !ignored(error)) {
            throw new CertificateException("client certificate: X509 error " + error[0] + " at depth " + error[1]);
        }
    }

    /**
     * The verification of a resumed session's client certificate. BoringSSL keeps the peer's chain in the session
     * (and in its ticket) but not our verifier's outcome, which lives in the Java session of the first handshake
     * only (a ticket carries no server state to key it by); the chain is verified again, where HAProxy's OpenSSL
     * keeps the result in the session.
     */
    int[] resumed(java.security.cert.Certificate[] peers) {
        return error(Arrays.stream(peers).map(X509Certificate.class::cast).toArray(X509Certificate[]::new));
    }

    private boolean ignored(int[] error) {
        Set<Integer> ignore = error[1] == 0 ? crtIgnore : caIgnore;
        return ignore != null && (ignore.isEmpty() || ignore.contains(error[0]));
    }

    /** {code, depth} of the chain's first error, or {0, 0}. */
    int[] error(X509Certificate[] chain) {
        try {
            PKIXParameters params = new PKIXParameters(anchors);
            params.setRevocationEnabled(false);
            if (crls != null) {
                // As OpenSSL's CRL check: the client's certificate only, from the CRL file, nothing fetched.
                CertPathValidator v = CertPathValidator.getInstance("PKIX");
                PKIXRevocationChecker rc = (PKIXRevocationChecker) v.getRevocationChecker();
                rc.setOptions(EnumSet.of(PKIXRevocationChecker.Option.PREFER_CRLS, PKIXRevocationChecker.Option.NO_FALLBACK,
                        PKIXRevocationChecker.Option.ONLY_END_ENTITY));
                params.addCertPathChecker(rc);
                params.addCertStore(CertStore.getInstance("Collection", new CollectionCertStoreParameters(crls)));
            }
            // The chain as sent, less what is a trust anchor itself (a client may send its CA).
            List<X509Certificate> path = Arrays.stream(chain).filter(c -> anchors.stream().noneMatch(a -> a.getTrustedCert().equals(c))).toList();
            CertPathValidator.getInstance("PKIX").validate(CertificateFactory.getInstance("X.509").generateCertPath(path), params);
            return new int[] {0, 0};
        } catch (CertPathValidatorException e) {
            int depth = Math.max(e.getIndex(), 0);
            if (e.getReason() == PKIXReason.NO_TRUST_ANCHOR) {
                boolean selfSigned = chain.length == 1 && chain[0].getSubjectX500Principal().equals(chain[0].getIssuerX500Principal());
                return new int[] {selfSigned ? DEPTH_ZERO_SELF_SIGNED_CERT : UNABLE_TO_GET_ISSUER_CERT_LOCALLY, chain.length - 1};
            }
            if (e.getReason() instanceof CertPathValidatorException.BasicReason r) {
                return new int[] {switch (r) {
                    case EXPIRED -> CERT_HAS_EXPIRED;
                    case NOT_YET_VALID -> CERT_NOT_YET_VALID;
                    case REVOKED -> CERT_REVOKED;
                    case INVALID_SIGNATURE -> CERT_SIGNATURE_FAILURE;
                    case UNDETERMINED_REVOCATION_STATUS -> UNABLE_TO_GET_CRL;
                    default -> UNSPECIFIED;
                }, depth};
            }
            return new int[] {UNSPECIFIED, depth};
        } catch (GeneralSecurityException e) {
            return new int[] {UNSPECIFIED, 0};
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        int[] error = error(chain);
        if (error[0] != 0 && !ignored(error)) {
            throw new CertificateException("client certificate: X509 error " + error[0]);
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        checkClientTrusted(chain, authType, (Socket) null);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        throw new CertificateException("not a client's verifier");
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        throw new CertificateException("not a client's verifier");
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        throw new CertificateException("not a client's verifier");
    }

    /** The CAs named to clients in the certificate request. */
    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return named.clone();
    }
}
