package io.fulcrum.tls;

import javax.security.auth.x500.X500Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;

/**
 * A DER OCSP response (RFC 6960) as HAProxy takes one to staple ({@code <crt>.ocsp}, {@code set ssl ocsp-response}):
 * read, checked with HAProxy's rules and words, and written as {@code openssl ocsp -text} does
 * ({@code show ssl ocsp-response <id>}).
 */
final class OcspResponse {
    private static final String BASIC = "1.3.6.1.5.5.7.48.1.1";
    private static final String NONCE = "1.3.6.1.5.5.7.48.1.2";
    /** How far the times may be off, as HAProxy's OCSP_MAX_RESPONSE_TIME_SKEW. */
    private static final Duration SKEW = Duration.ofMinutes(5);
    private static final String[] STATUSES = {"successful", "malformedrequest", "internalerror", "trylater", "(UNKNOWN)", "sigrequired",
            "unauthorized"};
    private static final String[] REASONS = {"unspecified", "keyCompromise", "cACompromise", "affiliationChanged", "superseded",
            "cessationOfOperation", "certificateHold", "(UNKNOWN)", "removeFromCRL"};

    /** A response HAProxy does not take; its message is HAProxy's (without the final period). */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message, null, false, false);
        }
    }

    final byte[] der;
    private final int status;
    private final Der basic;
    private final List<Der> singles;

    private OcspResponse(byte[] der, int status, Der basic, List<Der> singles) {
        this.der = der;
        this.status = status;
        this.basic = basic;
        this.singles = singles;
    }

    /** Reads a response: only its structure, see {@link #check} for what HAProxy requires of it. */
    static OcspResponse parse(byte[] der) throws Refused {
        try {
            Der top = Der.parse(der);
            int status = top.child(0, Der.ENUMERATED).integer().intValue();
            List<Der> parts = top.children();
            if (parts.size() < 2) {
                return new OcspResponse(der, status, null, List.of());
            }
            Der bytes = parts.get(1).inner();
            if (!bytes.child(0, Der.OID).oid().equals(BASIC)) {
                return new OcspResponse(der, status, null, List.of());
            }
            Der basic = Der.parse(bytes.child(1, Der.OCTET_STRING).content());
            Der data = responseData(basic);
            int responses = data.children().get(0).tag() == 0xa0 ? 3 : 2; // after the version, if any, the responder, the time
            return new OcspResponse(der, status, basic, data.child(responses, Der.SEQUENCE).children());
        } catch (Der.Malformed | RuntimeException e) {
            throw new Refused("Unable to parse OCSP response");
        }
    }

    private static Der responseData(Der basic) throws Der.Malformed {
        return basic.child(0, Der.SEQUENCE);
    }

    /**
     * What HAProxy checks before it staples a response: a successful basic response for one certificate, good or
     * revoked, with a next update, valid now.
     *
     * @return the DER of the certificate's ID (how the response finds its certificate)
     */
    byte[] check(Instant now) throws Refused {
        if (status != 0) {
            throw new Refused("OCSP response status not successful");
        }
        if (basic == null) {
            throw new Refused("Failed to get basic response from OCSP Response");
        }
        if (singles.size() > 1) {
            throw new Refused("OCSP response ignored because contains multiple single responses (" + singles.size() + ")");
        }
        try {
            List<Der> single = singles.get(0).children();
            int certStatus = single.get(1).tag() & 0x1f;
            if (certStatus != 0 && certStatus != 1) {
                throw new Refused("OCSP single response: certificate status is unknown");
            }
            Instant thisUpdate = single.get(2).time();
            Der next = single.stream().filter(d -> d.tag() == 0xa0).findFirst().orElse(null);
            if (next == null) {
                throw new Refused("OCSP single response: missing nextupdate");
            }
            Instant nextUpdate = next.inner().time();
            if (thisUpdate.isAfter(now.plus(SKEW)) || nextUpdate.isBefore(now.minus(SKEW)) || nextUpdate.isBefore(thisUpdate)) {
                throw new Refused("OCSP single response: no longer valid");
            }
            return single.get(0).encoded();
        } catch (Der.Malformed | IndexOutOfBoundsException e) {
            throw new Refused("Unable to parse OCSP response");
        }
    }

    /** As OpenSSL's OCSP_RESPONSE_print: the response, then each certificate it carries, as X509_print and in PEM. */
    String describe() {
        StringBuilder b = new StringBuilder("OCSP Response Data:\n");
        b.append("    OCSP Response Status: ").append(status >= 0 && status < STATUSES.length ? STATUSES[status] : "(UNKNOWN)")
                .append(" (0x").append(Integer.toHexString(status)).append(")\n");
        if (basic == null) {
            return b.toString();
        }
        try {
            b.append("    Response Type: Basic OCSP Response\n");
            List<Der> data = responseData(basic).children();
            int i = 0;
            int version = data.get(0).tag() == 0xa0 ? data.get(i++).inner().integer().intValue() : 0;
            b.append("    Version: ").append(version + 1).append(" (0x").append(Integer.toHexString(version)).append(")\n");
            Der responder = data.get(i++);
            b.append("    Responder Id: ").append(responder.tag() == 0xa1 ? CertFetches.spaced(new X500Principal(responder.inner().encoded()))
                    : HexFormat.of().withUpperCase().formatHex(responder.inner().content())).append('\n');
            b.append("    Produced At: ").append(time(data.get(i++))).append('\n');
            b.append("    Responses:\n");
            for (Der s : data.get(i++).children()) {
                single(b, s.children());
            }
            if (i < data.size() && data.get(i).tag() == 0xa1) {
                extensions(b, "Response Extensions", data.get(i).inner(), 4);
            }
            b.append("    Signature Algorithm: ").append(OpenSslText.signatureAlgorithm(basic.child(1, Der.SEQUENCE).child(0, Der.OID).oid()))
                    .append("\n    Signature Value:\n");
            Der signature = basic.child(2, Der.BIT_STRING);
            OpenSslText.dump(b, java.util.Arrays.copyOfRange(signature.content(), 1, signature.content().length));
            List<Der> parts = basic.children();
            if (parts.size() > 3 && parts.get(3).tag() == 0xa0) {
                for (Der c : parts.get(3).inner().children()) {
                    CertificateText.print(b, c.encoded());
                }
            }
        } catch (Der.Malformed | RuntimeException e) {
            b.append("(unreadable)\n");
        }
        return b.toString();
    }

    private static void single(StringBuilder b, List<Der> s) throws Der.Malformed {
        b.append(certificateId(s.get(0), "    ", "      ", true));
        Der status = s.get(1);
        int type = status.tag() & 0x1f;
        b.append("    Cert Status: ").append(type == 0 ? "good" : type == 1 ? "revoked" : "unknown").append('\n');
        if (type == 1) {
            List<Der> info = status.children();
            b.append("    Revocation Time: ").append(time(info.get(0))).append('\n');
            if (info.size() > 1) {
                int reason = info.get(1).inner().integer().intValue();
                b.append("    Revocation Reason: ").append(reason >= 0 && reason < REASONS.length ? REASONS[reason] : "(UNKNOWN)")
                        .append(" (0x").append(Integer.toHexString(reason)).append(")\n");
            }
        }
        b.append("    This Update: ").append(time(s.get(2))).append('\n');
        for (Der d : s.subList(3, s.size())) {
            if (d.tag() == 0xa0) {
                b.append("    Next Update: ").append(time(d.inner())).append('\n');
            } else if (d.tag() == 0xa1) {
                extensions(b, "Response Single Extensions", d.inner(), 8);
            }
        }
        b.append('\n');
    }

    /** A CertID as OpenSSL prints it: its title at {@code indent}, its fields at {@code fields}, the hash's name or not. */
    static String certificateId(Der id, String indent, String fields, boolean hash) throws Der.Malformed {
        HexFormat hex = HexFormat.of().withUpperCase();
        return indent + "Certificate ID:\n"
                + (hash ? fields + "Hash Algorithm: " + hashName(id.child(0, Der.SEQUENCE).child(0, Der.OID).oid()) + "\n" : "")
                + fields + "Issuer Name Hash: " + hex.formatHex(id.child(1, Der.OCTET_STRING).content()) + "\n"
                + fields + "Issuer Key Hash: " + hex.formatHex(id.child(2, Der.OCTET_STRING).content()) + "\n"
                + fields + "Serial Number: " + hex.formatHex(CertFetches.unsigned(id.child(3, Der.INTEGER).integer())) + "\n";
    }

    private static String hashName(String oid) {
        return switch (oid) {
            case "1.3.14.3.2.26" -> "sha1";
            case "2.16.840.1.101.3.4.2.1" -> "sha256";
            case "2.16.840.1.101.3.4.2.2" -> "sha384";
            case "2.16.840.1.101.3.4.2.3" -> "sha512";
            default -> oid;
        };
    }

    /** As X509V3_extensions_print: the nonce in hex, others by OID with their printable bytes. */
    private static void extensions(StringBuilder b, String title, Der list, int indent) throws Der.Malformed {
        String pad = " ".repeat(indent);
        b.append(pad).append(title).append(":\n");
        for (Der e : list.children()) {
            List<Der> parts = e.children();
            String oid = parts.get(0).oid();
            boolean critical = parts.size() > 2 && parts.get(1).content().length == 1 && parts.get(1).content()[0] != 0;
            byte[] value = parts.get(parts.size() - 1).content();
            b.append(pad).append("    ").append(oid.equals(NONCE) ? "OCSP Nonce" : oid).append(": ").append(critical ? "critical" : "").append('\n');
            b.append(pad).append("        ");
            if (oid.equals(NONCE)) {
                String h = HexFormat.of().withUpperCase().formatHex(value);
                for (int i = 0; i < h.length(); i += 70) {
                    b.append(i > 0 ? "\\\n" : "").append(h, i, Math.min(h.length(), i + 70));
                }
            } else {
                OpenSslText.printable(b, value);
            }
            b.append('\n');
        }
    }

    private static String time(Der d) throws Der.Malformed {
        return CertCommands.time(Date.from(d.time()));
    }
}
