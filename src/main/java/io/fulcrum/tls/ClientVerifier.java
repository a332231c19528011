package io.fulcrum.tls;

import io.netty.handler.ssl.OpenSslCertificateException;
import io.netty.internal.tcnative.CertificateVerifier;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.security.auth.x500.X500Principal;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.CRL;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.PKIXReason;
import java.security.cert.TrustAnchor;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Verifies client certificates against a bind line's {@code ca-file} (and {@code crl-file}), naming failures with
 * OpenSSL's X509_V_ERR codes so that {@code ca-ignore-err}/{@code crt-ignore-err} and the {@code ssl_c_*err} fetches
 * mean what they mean in HAProxy. The outcome is kept in the handshake's session for {@link TlsConnection}.
 */
final class ClientVerifier extends X509ExtendedTrustManager {
    /** The session value holding the {@link Outcome}. */
    static final String RESULT = "fulcrum.verify";

    static final int UNABLE_TO_GET_CRL = 3;
    static final int CERT_SIGNATURE_FAILURE = 7;
    static final int CRL_SIGNATURE_FAILURE = 8;
    static final int CERT_NOT_YET_VALID = 9;
    static final int CERT_HAS_EXPIRED = 10;
    static final int CRL_HAS_EXPIRED = 12;
    static final int DEPTH_ZERO_SELF_SIGNED_CERT = 18;
    static final int SELF_SIGNED_CERT_IN_CHAIN = 19;
    static final int UNABLE_TO_GET_ISSUER_CERT_LOCALLY = 20;
    static final int UNABLE_TO_VERIFY_LEAF_SIGNATURE = 21;
    static final int CERT_REVOKED = 23;
    static final int UNSPECIFIED = 1;

    /**
     * What the verification of a chain leaves: the first error on the client's certificate ({@code ssl_c_err}), the
     * first above it and its depth ({@code ssl_c_ca_err}, {@code ssl_c_ca_err_depth}), the last error OpenSSL reported
     * ({@code ssl_c_verify}), and the depth of the error that refused the certificate, -1 when none did.
     */
    record Outcome(int crtError, int caError, int caDepth, int last, int refusedAt) {
        static final Outcome NONE = new Outcome(0, 0, 0, 0, -1);

        boolean refused() {
            return refusedAt >= 0;
        }

        /** What a resumed session tells: OpenSSL keeps the result in the session, the callback that took the errors does not run. */
        Outcome resumed() {
            return new Outcome(0, 0, 0, last, -1);
        }
    }

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
        Outcome o = outcome(chain);
        SSLSession s = engine.getHandshakeSession();
        if (s != null) {
            s.putValue(RESULT, o);
        }
        if (o.refused()) {
            throw refusal("client certificate: X509 error " + o.last() + " at depth " + o.refusedAt(), o.last());
        }
    }

    /**
     * A refusal carrying OpenSSL's X509 error {@code code}: with it BoringSSL sends the peer the alert OpenSSL would
     * (unknown_ca, certificate_expired...), not internal_error.
     */
    static CertificateException refusal(String message, int code) {
        return CertificateVerifier.isValid(code) ? new OpenSslCertificateException(message, code) : new CertificateException(message);
    }

    /**
     * The verification of a resumed session's client certificate. BoringSSL keeps the peer's chain in the session
     * (and in its ticket) but not our verifier's outcome, which lives in the Java session of the first handshake
     * only (a ticket carries no server state to key it by); the chain is verified again, where HAProxy's OpenSSL
     * keeps the result in the session.
     */
    Outcome resumed(java.security.cert.Certificate[] peers) {
        return outcome(Arrays.stream(peers).map(X509Certificate.class::cast).toArray(X509Certificate[]::new));
    }

    /**
     * What HAProxy keeps of a chain's verification: OpenSSL reports each error to its callback, which records the
     * first on the client's certificate and the first above it, and lets the verification go on past those the
     * ignore lists name; the first one they do not name refuses the certificate.
     */
    Outcome outcome(X509Certificate[] chain) {
        int crt = 0;
        int ca = 0;
        int caDepth = 0;
        int last = 0;
        for (int[] e : errors(chain)) {
            last = e[0];
            if (e[1] > 0 && ca == 0) {
                ca = e[0];
                caDepth = e[1];
            } else if (e[1] == 0 && crt == 0) {
                crt = e[0];
            }
            Set<Integer> ignore = e[1] == 0 ? crtIgnore : caIgnore;
            if (ignore == null || !(ignore.isEmpty() || ignore.contains(e[0]))) {
                return new Outcome(crt, ca, caDepth, last, e[1]);
            }
        }
        return new Outcome(crt, ca, caDepth, last, -1);
    }

    /** OpenSSL's X509 error for the JDK validator's refusal of a path (UNSPECIFIED when it has no equivalent). */
    static int x509Error(CertPathValidatorException e) {
        return e.getReason() instanceof CertPathValidatorException.BasicReason r ? switch (r) {
            case EXPIRED -> CERT_HAS_EXPIRED;
            case NOT_YET_VALID -> CERT_NOT_YET_VALID;
            case INVALID_SIGNATURE -> CERT_SIGNATURE_FAILURE;
            case REVOKED -> CERT_REVOKED;
            default -> UNSPECIFIED;
        } : UNSPECIFIED;
    }

    /**
     * The chain's errors, {code, depth} each, in the order OpenSSL finds them: the chain itself (see
     * {@link #untrusted}), then with a {@code crl-file} the revocation of each of its certificates, its CA's too
     * (OpenSSL's CRL_CHECK_ALL, which HAProxy sets), then the signatures and dates. With a trust anchor the JDK's
     * validator tells the first of its errors only.
     */
    List<int[]> errors(X509Certificate[] chain) {
        // The chain as sent, less what is a trust anchor itself (a client may send its CA).
        List<X509Certificate> path = Arrays.stream(chain).filter(c -> anchors.stream().noneMatch(a -> a.getTrustedCert().equals(c))).toList();
        int[] failure = null;
        try {
            PKIXParameters params = new PKIXParameters(anchors);
            params.setRevocationEnabled(false);
            CertPathValidator.getInstance("PKIX").validate(CertificateFactory.getInstance("X.509").generateCertPath(path), params);
        } catch (CertPathValidatorException e) {
            if (e.getReason() == PKIXReason.NO_TRUST_ANCHOR) {
                return untrusted(chain);
            }
            failure = new int[] {x509Error(e), Math.max(e.getIndex(), 0)};
        } catch (GeneralSecurityException e) {
            failure = new int[] {UNSPECIFIED, 0};
        }
        List<int[]> errors = new ArrayList<>();
        boolean late = failure != null && failure[0] != UNSPECIFIED; // a signature or a date: checked after the CRLs
        if (failure != null && !late) {
            errors.add(failure);
        }
        errors.addAll(revocations(withAnchor(path)));
        if (late) {
            errors.add(failure);
        }
        return errors;
    }

    /**
     * The errors of a chain that reaches none of the CAs: the top of the chain's (self-signed alone, self-signed
     * above the client's, or an issuer not found), the CRLs', a client certificate alone whose signature cannot be
     * checked, then the validity dates of each certificate from the top down, as OpenSSL goes on when its callback
     * lets the first error pass.
     */
    private List<int[]> untrusted(X509Certificate[] chain) {
        List<int[]> errors = new ArrayList<>();
        int top = chain.length - 1;
        boolean selfSigned = selfIssued(chain[top]);
        errors.add(new int[] {selfSigned ? (top == 0 ? DEPTH_ZERO_SELF_SIGNED_CERT : SELF_SIGNED_CERT_IN_CHAIN)
                : UNABLE_TO_GET_ISSUER_CERT_LOCALLY, top});
        errors.addAll(revocations(Arrays.asList(chain)));
        if (top == 0 && !selfSigned) {
            errors.add(new int[] {UNABLE_TO_VERIFY_LEAF_SIGNATURE, 0});
        }
        for (int depth = top; depth >= 0; depth--) {
            try {
                chain[depth].checkValidity();
            } catch (CertificateExpiredException e) {
                errors.add(new int[] {CERT_HAS_EXPIRED, depth});
            } catch (CertificateNotYetValidException e) {
                errors.add(new int[] {CERT_NOT_YET_VALID, depth});
            }
        }
        return errors;
    }

    /** The chain up to the trust anchor that issued its last certificate, when one did. */
    private List<X509Certificate> withAnchor(List<X509Certificate> path) {
        if (path.isEmpty()) {
            return path;
        }
        X500Principal issuer = path.getLast().getIssuerX500Principal();
        return anchors.stream().map(TrustAnchor::getTrustedCert).filter(a -> a.getSubjectX500Principal().equals(issuer)).findFirst()
                .map(a -> java.util.stream.Stream.concat(path.stream(), java.util.stream.Stream.of(a)).toList()).orElse(path);
    }

    /**
     * With a {@code crl-file}, the revocation errors of each certificate of {@code chain} (its CA included): no CRL of
     * its issuer, none whose signature the issuer verifies, an expired CRL, or a revoked certificate. Nothing is fetched.
     */
    private List<int[]> revocations(List<X509Certificate> chain) {
        List<int[]> errors = new ArrayList<>();
        if (crls == null) {
            return errors;
        }
        for (int depth = 0; depth < chain.size(); depth++) {
            X509Certificate c = chain.get(depth);
            X509Certificate issuer = depth + 1 < chain.size() ? chain.get(depth + 1) : selfIssued(c) ? c : null;
            List<X509CRL> named = crls.stream().map(X509CRL.class::cast).filter(l -> l.getIssuerX500Principal().equals(c.getIssuerX500Principal()))
                    .toList();
            if (named.isEmpty()) {
                errors.add(new int[] {UNABLE_TO_GET_CRL, depth});
                continue;
            }
            X509CRL crl = named.stream().filter(l -> issuer != null && signedBy(l, issuer)).findFirst().orElse(null);
            if (crl == null) {
                errors.add(new int[] {CRL_SIGNATURE_FAILURE, depth}); // (also when the chain lacks the issuer)
                crl = named.getFirst();
            }
            if (crl.getNextUpdate() != null && crl.getNextUpdate().before(new Date())) {
                errors.add(new int[] {CRL_HAS_EXPIRED, depth});
            }
            if (crl.isRevoked(c)) {
                errors.add(new int[] {CERT_REVOKED, depth});
            }
        }
        return errors;
    }

    private static boolean signedBy(X509CRL crl, X509Certificate issuer) {
        try {
            crl.verify(issuer.getPublicKey());
            return true;
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static boolean selfIssued(X509Certificate c) {
        return c.getSubjectX500Principal().equals(c.getIssuerX500Principal());
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        Outcome o = outcome(chain);
        if (o.refused()) {
            throw new CertificateException("client certificate: X509 error " + o.last());
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
