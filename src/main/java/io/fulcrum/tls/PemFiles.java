package io.fulcrum.tls;

import io.fulcrum.cfg.ConfigException;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads HAProxy's certificate files: PEM with the certificate first, then its chain and its key in any order (the
 * key may also sit in {@code <file>.key}, see {@code ssl-load-extra-files}); keys in PKCS#8, PKCS#1 (RSA) or SEC1 (EC) form. Errors are HAProxy's.
 */
final class PemFiles {
    /** A PEM block: its type, its RFC 1421 headers (Proc-Type, DEK-Info of a traditional encrypted key), its base64. */
    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----\\s*((?:[A-Za-z-]+:[^\\n]*\\n\\s*)*)([A-Za-z0-9+/=\\s]*?)-----END \\1-----");
    /** rsaEncryption and id-ecPublicKey, DER-encoded with their tag and length. */
    private static final byte[] RSA_OID = {0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01};
    private static final byte[] EC_OID = {0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01};

    private PemFiles() {
    }

    /** The certificate, chain and key of a {@code crt} file; the key may be in its side file ({@code ssl-load-extra-files}). */
    static CertKey load(TlsGlobals globals, Path file) throws ConfigException {
        return load(globals, file, null);
    }

    /** The same, the key under the pass phrase {@code pass} when it is encrypted ({@code ca-sign-pass}; null: none). */
    static CertKey load(TlsGlobals globals, Path file, String pass) throws ConfigException {
        return load(globals, file.toString(), pass);
    }

    /** The same, the file named {@code name} as HAProxy names it (the path as written). */
    static CertKey load(TlsGlobals globals, String name, String pass) throws ConfigException {
        Path file = Path.of(name);
        String text = read(file, "unable to stat SSL certificate from file '" + name + "'");
        Path keyFile = globals.side(file, TlsGlobals.ExtraFile.KEY, ".key");
        CertKey ck = parse(name, text, keyFile == null ? globals.sideBase(file) : keyFile.toString(), keyFile, pass);
        X509Certificate[] chain = globals.completed(ck.chain());
        return chain == ck.chain() ? ck : CertKey.of(name, ck.key(), chain);
    }

    /**
     * {@code issuers-chain-path}: the chains of the files of {@code dir}, in name order; a file without a certificate is
     * told in {@code warnings} (HAProxy's words).
     */
    static void issuerChains(Path dir, List<X509Certificate[]> chains, List<String> warnings) throws ConfigException {
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                List<X509Certificate> certs = certificates(read(f, "unable to load issuers-chain " + f));
                if (certs.isEmpty()) {
                    warnings.add("unable to load issuers-chain " + f + " : pem certificate not found.");
                } else {
                    chains.add(certs.toArray(X509Certificate[]::new));
                }
            }
        } catch (IOException e) {
            throw new ConfigException("unable to scan directory '" + dir + "' : " + e.getMessage() + ".");
        }
    }

    /** The certificate, chain and key of a PEM text that stands for the file {@code name}. */
    static CertKey parse(String name, String text) throws ConfigException {
        return parse(name, text, name + ".key", Path.of(name + ".key"), null);
    }

    /**
     * The certificate, chain and key of a {@code set ssl cert} payload for the file {@code name}: as HAProxy's
     * ssl_sock_load_pem_into_ckch(), what the text has replaces it all, a key it lacks too (null); whether the key
     * matches is the commit's question.
     */
    static CertKey payload(String name, String text) throws ConfigException {
        List<X509Certificate> certs = certificates(text);
        if (certs.isEmpty()) {
            throw new ConfigException("unable to load certificate from file '" + name + "'.");
        }
        return CertKey.of(name, key(text, name, null), certs.toArray(X509Certificate[]::new));
    }

    /** The key of a {@code set ssl cert <file>.key} payload. */
    static PrivateKey keyPayload(String name, String text) throws ConfigException {
        PrivateKey key = key(text, name, null);
        if (key == null) {
            throw new ConfigException("unable to load private key from file '" + name + "'.");
        }
        return key;
    }

    /** Whether the certificate's key is there and is the one of its certificate (what a commit checks). */
    static boolean consistent(CertKey c) {
        return c.key() != null && matches(c.key(), c.leaf());
    }

    /**
     * @param keyFile where the key is when the text has none (null: nowhere else)
     * @param keyName the name the error of a missing key gives: HAProxy's, the side file or the certificate's base name
     */
    private static CertKey parse(String name, String text, String keyName, Path keyFile, String pass)
            throws ConfigException {
        List<X509Certificate> certs = certificates(text);
        if (certs.isEmpty()) {
            throw new ConfigException("unable to load certificate from file '" + name + "'.");
        }
        PrivateKey key = key(text, name, pass);
        if (key == null) {
            String noKey = "No Private Key found in '" + keyName + "'.";
            key = keyFile != null && Files.isReadable(keyFile) ? key(read(keyFile, noKey), keyFile.toString(), pass) : null;
            if (key == null) {
                throw new ConfigException(noKey);
            }
        }
        if (!matches(key, certs.get(0))) {
            throw new ConfigException("inconsistencies between private key and certificate loaded '" + name + "'.");
        }
        return CertKey.of(name, key, certs.toArray(X509Certificate[]::new));
    }

    private static String read(Path file, String error) throws ConfigException {
        try {
            if (Files.isDirectory(file)) {
                throw new ConfigException(error + " : Is a directory.");
            }
            return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        } catch (NoSuchFileException e) {
            throw new ConfigException(error + " : No such file or directory.");
        } catch (IOException e) {
            throw new ConfigException(error + " : " + (e.getMessage() == null ? "unreadable" : e.getMessage()) + ".");
        }
    }

    static List<X509Certificate> certificates(String text) throws ConfigException {
        List<X509Certificate> certs = new ArrayList<>();
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            if (m.group(1).equals("CERTIFICATE") || m.group(1).equals("TRUSTED CERTIFICATE")) {
                try {
                    certs.add((X509Certificate) CertificateFactory.getInstance("X.509")
                            .generateCertificate(new ByteArrayInputStream(der(m))));
                } catch (CertificateException | IllegalArgumentException e) {
                    return List.of(); // as OpenSSL, a damaged certificate spoils the file
                }
            }
        }
        return certs;
    }

    /** The file's private key, or null when it has none; an encrypted one needs {@code pass}. */
    private static PrivateKey key(String text, String name, String pass) throws ConfigException {
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            String type = m.group(1);
            if (type.endsWith("PRIVATE KEY")) {
                try {
                    byte[] der = der(m);
                    String dekInfo = header(m.group(2), "DEK-Info");
                    if (dekInfo != null) {
                        der = EncryptedKeys.traditional(der, dekInfo, passPhrase(pass));
                    }
                    return switch (type) {
                        case "PRIVATE KEY" -> pkcs8(der);
                        case "ENCRYPTED PRIVATE KEY" -> pkcs8(EncryptedKeys.pkcs8(der, passPhrase(pass)));
                        case "RSA PRIVATE KEY" -> pkcs8(wrap(RSA_OID, new byte[] {0x05, 0x00}, der));
                        case "EC PRIVATE KEY" -> pkcs8(wrap(EC_OID, curve(der), der));
                        default -> throw new GeneralSecurityException(type);
                    };
                } catch (GeneralSecurityException | IllegalArgumentException | IndexOutOfBoundsException e) {
                    throw new ConfigException("unable to load SSL private key from PEM file '" + name + "'"
                            + (pass != null ? " (wrong pass phrase?)." : "."));
                }
            }
        }
        return null;
    }

    /** An encrypted key without a pass phrase: HAProxy would ask one on the terminal; Fulcrum refuses it. */
    private static String passPhrase(String pass) throws GeneralSecurityException {
        if (pass == null) {
            throw new GeneralSecurityException("encrypted key without a pass phrase");
        }
        return pass;
    }

    /** The value of the RFC 1421 header {@code name} in a block's headers, or null. */
    private static String header(String headers, String name) {
        for (String line : headers.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return null;
    }

    private static byte[] der(Matcher m) {
        return Base64.getMimeDecoder().decode(m.group(3));
    }

    private static PrivateKey pkcs8(byte[] der) throws GeneralSecurityException {
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        GeneralSecurityException last = null;
        for (String alg : new String[] {"RSA", "EC", "Ed25519"}) {
            try {
                return KeyFactory.getInstance(alg).generatePrivate(spec);
            } catch (GeneralSecurityException e) {
                last = e;
            }
        }
        throw last;
    }

    /** PKCS#8's PrivateKeyInfo around a PKCS#1 or SEC1 key: version 0, the algorithm and its parameters, the key. */
    private static byte[] wrap(byte[] oid, byte[] params, byte[] key) {
        ByteArrayOutputStream alg = new ByteArrayOutputStream();
        alg.writeBytes(oid);
        alg.writeBytes(params);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(new byte[] {0x02, 0x01, 0x00});
        body.writeBytes(tlv(0x30, alg.toByteArray()));
        body.writeBytes(tlv(0x04, key));
        return tlv(0x30, body.toByteArray());
    }

    /** The curve's OID of a SEC1 ECPrivateKey: its [0] parameters (a key without them cannot be used). */
    private static byte[] curve(byte[] sec1) throws GeneralSecurityException {
        int[] p = {0};
        header(sec1, p); // SEQUENCE
        while (p[0] < sec1.length) {
            int tag = sec1[p[0]] & 0xff;
            int len = header(sec1, p);
            if (tag == 0xa0) {
                byte[] oid = new byte[len];
                System.arraycopy(sec1, p[0], oid, 0, len);
                return oid;
            }
            p[0] += len;
        }
        throw new GeneralSecurityException("EC key without its curve");
    }

    /** Reads a tag and a length at p[0]; leaves p[0] on the value. */
    private static int header(byte[] der, int[] p) {
        p[0]++;
        int len = der[p[0]++] & 0xff;
        if (len >= 0x80) {
            int n = len & 0x7f;
            len = 0;
            for (int i = 0; i < n; i++) {
                len = len << 8 | der[p[0]++] & 0xff;
            }
        }
        return len;
    }

    /** A DER value: {@code tag}, the length, {@code value}. */
    static byte[] tlv(int tag, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int len = value.length;
        if (len < 0x80) {
            out.write(len);
        } else if (len < 0x100) {
            out.write(0x81);
            out.write(len);
        } else if (len < 0x10000) {
            out.write(0x82);
            out.write(len >> 8);
            out.write(len);
        } else {
            out.write(0x83);
            out.write(len >> 16);
            out.write(len >> 8);
            out.write(len);
        }
        out.writeBytes(value);
        return out.toByteArray();
    }

    /** The key signs what the certificate's public key verifies. */
    private static boolean matches(PrivateKey key, X509Certificate cert) {
        String alg = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> key.getAlgorithm();
        };
        try {
            byte[] probe = "fulcrum".getBytes(StandardCharsets.US_ASCII);
            Signature s = Signature.getInstance(alg);
            s.initSign(key);
            s.update(probe);
            byte[] sig = s.sign();
            Signature v = Signature.getInstance(alg);
            v.initVerify(cert.getPublicKey());
            v.update(probe);
            return v.verify(sig);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
