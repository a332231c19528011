package io.fulcrum.tls;

import io.netty.handler.ssl.DelegatingSslContext;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SslContext;

import javax.net.ssl.SSLEngine;
import java.io.ByteArrayOutputStream;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.HexFormat;

/**
 * The OCSP response a certificate staples to its handshakes, found by the certificate's ID (SHA-1 of its issuer's
 * name and key, its serial), as HAProxy keys them; {@code set ssl ocsp-response} replaces it and the next handshakes
 * send the new one.
 */
final class OcspStaple {
    /** The DER CertID; its hex is the key {@code show ssl ocsp-response} lists. */
    final byte[] id;
    final String key;
    private volatile OcspResponse response;

    OcspStaple(byte[] id, OcspResponse response) {
        this.id = id.clone();
        this.key = HexFormat.of().formatHex(id);
        this.response = response;
    }

    OcspResponse response() {
        return response;
    }

    void response(OcspResponse r) {
        response = r;
    }

    /** A context whose engines staple this response (the one of the moment each handshake starts). */
    SslContext staple(SslContext context) {
        return new DelegatingSslContext(context) {
            @Override
            protected void initEngine(SSLEngine engine) {
                if (engine instanceof ReferenceCountedOpenSslEngine e) {
                    e.setOcspResponse(response.der);
                }
            }
        };
    }

    /** The DER CertID of {@code cert} issued by {@code issuer}, with SHA-1 as OpenSSL's OCSP_cert_to_id makes it. */
    static byte[] certificateId(X509Certificate cert, X509Certificate issuer) throws GeneralSecurityException {
        MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
        byte[] nameHash = sha1.digest(issuer.getSubjectX500Principal().getEncoded());
        byte[] keyHash;
        try {
            Der bits = Der.parse(issuer.getPublicKey().getEncoded()).child(1, Der.BIT_STRING);
            byte[] content = bits.content();
            keyHash = sha1.digest(java.util.Arrays.copyOfRange(content, 1, content.length)); // less the unused-bits byte
        } catch (Der.Malformed e) {
            throw new GeneralSecurityException("unreadable public key of the issuer");
        }
        byte[] algorithm = {0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00};
        ByteArrayOutputStream id = new ByteArrayOutputStream();
        id.writeBytes(algorithm);
        id.writeBytes(PemFiles.tlv(Der.OCTET_STRING, nameHash));
        id.writeBytes(PemFiles.tlv(Der.OCTET_STRING, keyHash));
        id.writeBytes(PemFiles.tlv(Der.INTEGER, cert.getSerialNumber().toByteArray()));
        return PemFiles.tlv(Der.SEQUENCE, id.toByteArray());
    }
}
