package io.fulcrum.tls;

import java.util.Map;

/** What OpenSSL's printers write, for the CLI outputs that HAProxy makes with them ({@code show ssl crl-file}...). */
final class OpenSslText {
    /** OpenSSL's long names of the usual signature algorithms, by OID. */
    private static final Map<String, String> SIGNATURES = Map.ofEntries(
            Map.entry("1.2.840.113549.1.1.4", "md5WithRSAEncryption"),
            Map.entry("1.2.840.113549.1.1.5", "sha1WithRSAEncryption"),
            Map.entry("1.2.840.113549.1.1.10", "rsassaPss"),
            Map.entry("1.2.840.113549.1.1.11", "sha256WithRSAEncryption"),
            Map.entry("1.2.840.113549.1.1.12", "sha384WithRSAEncryption"),
            Map.entry("1.2.840.113549.1.1.13", "sha512WithRSAEncryption"),
            Map.entry("1.2.840.113549.1.1.14", "sha224WithRSAEncryption"),
            Map.entry("1.2.840.10045.4.1", "ecdsa-with-SHA1"),
            Map.entry("1.2.840.10045.4.3.1", "ecdsa-with-SHA224"),
            Map.entry("1.2.840.10045.4.3.2", "ecdsa-with-SHA256"),
            Map.entry("1.2.840.10045.4.3.3", "ecdsa-with-SHA384"),
            Map.entry("1.2.840.10045.4.3.4", "ecdsa-with-SHA512"),
            Map.entry("1.3.101.112", "ED25519"),
            Map.entry("1.3.101.113", "ED448"));

    private OpenSslText() {
    }

    /** The name OpenSSL prints for a signature algorithm; the OID itself for one it would not name either. */
    static String signatureAlgorithm(String oid) {
        return SIGNATURES.getOrDefault(oid, oid);
    }

    /** As X509_signature_dump: 18 bytes a line, in lower-case hex. */
    static void dump(StringBuilder b, byte[] sig) {
        for (int i = 0; i < sig.length; i++) {
            if (i % 18 == 0) {
                b.append(i > 0 ? "\n" : "").append("        ");
            }
            b.append(String.format("%02x", sig[i] & 0xff)).append(i + 1 == sig.length ? "" : ":");
        }
        b.append('\n');
    }

    /** As ASN1_STRING_print: the printable bytes, a dot for the others. */
    static void printable(StringBuilder b, byte[] value) {
        for (byte x : value) {
            b.append(x >= 32 && x < 127 ? (char) x : '.');
        }
    }
}
