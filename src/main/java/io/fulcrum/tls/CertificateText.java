package io.fulcrum.tls;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.PublicKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * A certificate as OpenSSL 3's X509_print then PEM_write_bio_X509 write it, which HAProxy's
 * {@code show ssl ocsp-response <id>} shows for each certificate of a response: RSA and EC keys, and the usual
 * extensions (basic constraints, key usage, extended key usage, key identifiers, alternative names) in OpenSSL's
 * words; another extension is written as OpenSSL writes one it has no printer for (its OID, its printable bytes).
 */
final class CertificateText {
    private static final String[] KEY_USAGES = {"Digital Signature", "Non Repudiation", "Key Encipherment", "Data Encipherment",
            "Key Agreement", "Certificate Sign", "CRL Sign", "Encipher Only", "Decipher Only"};
    private static final Map<String, String> PURPOSES = Map.of(
            "1.3.6.1.5.5.7.3.1", "TLS Web Server Authentication",
            "1.3.6.1.5.5.7.3.2", "TLS Web Client Authentication",
            "1.3.6.1.5.5.7.3.3", "Code Signing",
            "1.3.6.1.5.5.7.3.4", "E-mail Protection",
            "1.3.6.1.5.5.7.3.8", "Time Stamping",
            "1.3.6.1.5.5.7.3.9", "OCSP Signing");
    /** The named curves: OpenSSL's short name and NIST name. */
    private static final Map<Integer, String[]> CURVES = Map.of(
            256, new String[] {"prime256v1", "P-256"}, 384, new String[] {"secp384r1", "P-384"}, 521, new String[] {"secp521r1", "P-521"});

    private CertificateText() {
    }

    static void print(StringBuilder b, byte[] der) throws Der.Malformed {
        X509Certificate x;
        try {
            x = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(der));
        } catch (CertificateException e) {
            throw new Der.Malformed();
        }
        b.append("Certificate:\n    Data:\n");
        b.append("        Version: ").append(x.getVersion()).append(" (0x").append(Integer.toHexString(x.getVersion() - 1)).append(")\n");
        byte[] serial = CertFetches.unsigned(x.getSerialNumber());
        b.append("        Serial Number:");
        if (serial.length <= 8) {
            b.append(' ').append(x.getSerialNumber()).append(" (0x").append(x.getSerialNumber().toString(16)).append(")\n");
        } else {
            b.append("\n            ").append(HexFormat.ofDelimiter(":").formatHex(serial)).append('\n');
        }
        b.append("        Signature Algorithm: ").append(OpenSslText.signatureAlgorithm(x.getSigAlgOID())).append('\n');
        b.append("        Issuer: ").append(name(CertFetches.oneLine(x.getIssuerX500Principal()))).append('\n');
        b.append("        Validity\n");
        b.append("            Not Before: ").append(CertCommands.time(x.getNotBefore())).append('\n');
        b.append("            Not After : ").append(CertCommands.time(x.getNotAfter())).append('\n');
        b.append("        Subject: ").append(name(CertFetches.oneLine(x.getSubjectX500Principal()))).append('\n');
        b.append("        Subject Public Key Info:\n");
        publicKey(b, x.getPublicKey());
        Der tbs = Der.parse(der).child(0, Der.SEQUENCE);
        for (Der d : tbs.children()) {
            if (d.tag() == 0xa3) {
                b.append("        X509v3 extensions:\n");
                for (Der e : d.inner().children()) {
                    extension(b, e.children());
                }
            }
        }
        b.append("    Signature Algorithm: ").append(OpenSslText.signatureAlgorithm(x.getSigAlgOID())).append("\n    Signature Value:\n");
        OpenSslText.dump(b, x.getSignature());
        b.append("-----BEGIN CERTIFICATE-----\n");
        String base64 = Base64.getEncoder().encodeToString(der);
        for (int i = 0; i < base64.length(); i += 64) {
            b.append(base64, i, Math.min(base64.length(), i + 64)).append('\n');
        }
        b.append("-----END CERTIFICATE-----\n");
    }

    /** X509_NAME_print: the one-line name, its slashes before an attribute written ", ". */
    private static String name(String oneLine) {
        return oneLine.substring(1).replaceAll("/(?=[A-Z][A-Z]?=)", ", ");
    }

    private static void publicKey(StringBuilder b, PublicKey key) {
        String pad = " ".repeat(16);
        if (key instanceof RSAPublicKey rsa) {
            b.append("            Public Key Algorithm: rsaEncryption\n");
            b.append(pad).append("Public-Key: (").append(rsa.getModulus().bitLength()).append(" bit)\n");
            b.append(pad).append("Modulus:");
            bytes(b, rsa.getModulus().toByteArray());
            BigInteger e = rsa.getPublicExponent();
            b.append(pad).append("Exponent: ").append(e).append(" (0x").append(e.toString(16)).append(")\n");
        } else if (key instanceof ECPublicKey ec && CURVES.containsKey(ec.getParams().getCurve().getField().getFieldSize())) {
            int bits = ec.getParams().getCurve().getField().getFieldSize();
            int size = (bits + 7) / 8;
            byte[] point = new byte[1 + 2 * size];
            point[0] = 4;
            fixed(ec.getW().getAffineX(), point, 1, size);
            fixed(ec.getW().getAffineY(), point, 1 + size, size);
            b.append("            Public Key Algorithm: id-ecPublicKey\n");
            b.append(pad).append("Public-Key: (").append(bits).append(" bit)\n");
            b.append(pad).append("pub:");
            bytes(b, point);
            b.append(pad).append("ASN1 OID: ").append(CURVES.get(bits)[0]).append('\n');
            b.append(pad).append("NIST CURVE: ").append(CURVES.get(bits)[1]).append('\n');
        } else {
            b.append("            Public Key Algorithm: ").append(key.getAlgorithm()).append('\n');
            b.append(pad).append("Unable to load Public Key\n");
        }
    }

    private static void fixed(BigInteger v, byte[] to, int at, int size) {
        byte[] raw = CertFetches.unsigned(v);
        System.arraycopy(raw, 0, to, at + size - raw.length, raw.length);
    }

    /** As OpenSSL prints a big number or a key's bytes: 15 a line under the label, in lower-case hex. */
    private static void bytes(StringBuilder b, byte[] v) {
        for (int i = 0; i < v.length; i++) {
            if (i % 15 == 0) {
                b.append('\n').append(" ".repeat(20));
            }
            b.append(String.format("%02x", v[i] & 0xff)).append(i + 1 == v.length ? "" : ":");
        }
        b.append('\n');
    }

    private static void extension(StringBuilder b, List<Der> parts) throws Der.Malformed {
        String oid = parts.get(0).oid();
        boolean critical = parts.size() > 2 && parts.get(1).content().length == 1 && parts.get(1).content()[0] != 0;
        byte[] value = parts.get(parts.size() - 1).content();
        String known = switch (oid) {
            case "2.5.29.19" -> "X509v3 Basic Constraints";
            case "2.5.29.15" -> "X509v3 Key Usage";
            case "2.5.29.37" -> "X509v3 Extended Key Usage";
            case "2.5.29.14" -> "X509v3 Subject Key Identifier";
            case "2.5.29.35" -> "X509v3 Authority Key Identifier";
            case "2.5.29.17" -> "X509v3 Subject Alternative Name";
            default -> null;
        };
        b.append("            ").append(known != null ? known : oid).append(": ").append(critical ? "critical" : "").append('\n');
        b.append("                ");
        if (known == null) {
            OpenSslText.printable(b, value);
        } else {
            b.append(value(oid, Der.parse(value)));
        }
        b.append('\n');
    }

    private static String value(String oid, Der v) throws Der.Malformed {
        HexFormat hex = HexFormat.ofDelimiter(":").withUpperCase();
        List<String> items = new ArrayList<>();
        switch (oid) {
            case "2.5.29.19" -> {
                List<Der> c = v.children();
                boolean ca = !c.isEmpty() && c.get(0).tag() == 0x01 && c.get(0).content()[0] != 0;
                items.add(ca ? "CA:TRUE" : "CA:FALSE");
                if (!c.isEmpty() && c.get(c.size() - 1).tag() == Der.INTEGER) {
                    items.add("pathlen:" + c.get(c.size() - 1).integer());
                }
            }
            case "2.5.29.15" -> {
                byte[] bits = v.content();
                for (int i = 0; i < KEY_USAGES.length; i++) {
                    int index = 1 + i / 8;
                    if (index < bits.length && (bits[index] & (0x80 >> (i % 8))) != 0) {
                        items.add(KEY_USAGES[i]);
                    }
                }
            }
            case "2.5.29.37" -> {
                for (Der p : v.children()) {
                    items.add(PURPOSES.getOrDefault(p.oid(), p.oid()));
                }
            }
            case "2.5.29.14" -> items.add(hex.formatHex(v.content()));
            case "2.5.29.35" -> {
                for (Der p : v.children()) {
                    if (p.tag() == 0x80) {
                        items.add(hex.formatHex(p.content()));
                    }
                }
            }
            default -> {
                for (Der n : v.children()) {
                    items.add(generalName(n));
                }
            }
        }
        return String.join(", ", items);
    }

    private static String generalName(Der n) {
        String text = new String(n.content(), java.nio.charset.StandardCharsets.ISO_8859_1);
        return switch (n.tag()) {
            case 0x81 -> "email:" + text;
            case 0x82 -> "DNS:" + text;
            case 0x86 -> "URI:" + text;
            case 0x87 -> {
                try {
                    yield "IP Address:" + InetAddress.getByAddress(n.content()).getHostAddress().toUpperCase(java.util.Locale.ROOT);
                } catch (UnknownHostException e) {
                    yield "IP Address:<invalid>";
                }
            }
            default -> "othername:<unsupported>";
        };
    }
}
