package io.fulcrum.tls;

import io.netty.handler.ssl.SslContext;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code generate-certificates} (configuration.txt 5.1): for a name no certificate of the bind line has, a
 * certificate is forged as HAProxy forges it (the default certificate's key; the CA's subject with one more CN, the
 * name; a DNS alternative name; valid from a day ago for a year; a random 32-bit serial), signed by the
 * {@code ca-sign-file}'s CA, and its context kept in an LRU cache of {@code tune.ssl.ssl-ctx-cache-size} entries.
 * A failure gives the default certificate, as in HAProxy. Runs on the loop doing the handshake; the cache is locked.
 */
final class CertGenerator {
    /** commonName, subjectAltName, basicConstraints, keyUsage, subjectKeyIdentifier, authorityKeyIdentifier. */
    private static final byte[] CN = {0x55, 0x04, 0x03};
    private static final byte[] SAN = {0x55, 0x1d, 0x11};
    private static final byte[] BASIC_CONSTRAINTS = {0x55, 0x1d, 0x13};
    private static final byte[] KEY_USAGE = {0x55, 0x1d, 0x0f};
    private static final byte[] SKI = {0x55, 0x1d, 0x0e};
    private static final byte[] AKI = {0x55, 0x1d, 0x23};
    /** sha256WithRSAEncryption, ecdsa-with-SHA256. */
    private static final byte[] SHA256_RSA = {0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x0b};
    private static final byte[] SHA256_ECDSA = {0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x04, 0x03, 0x02};
    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final CertKey ca;
    private final CertKey template;
    private final Recipe recipe;
    private final Map<String, SslContext> cache;

    /**
     * @param ca       the CA certificate and its key ({@code ca-sign-file})
     * @param template the bind line's default certificate: its key is the forged certificates'
     * @param recipe   how the default certificate's context was made
     * @param size     the most contexts kept ({@code tune.ssl.ssl-ctx-cache-size})
     */
    CertGenerator(CertKey ca, CertKey template, Recipe recipe, int size) {
        this(ca, template, recipe, new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, SslContext> eldest) {
                return size() > size;
            }
        });
    }

    private CertGenerator(CertKey ca, CertKey template, Recipe recipe, Map<String, SslContext> cache) {
        this.ca = ca;
        this.template = template;
        this.recipe = recipe;
        this.cache = cache;
    }

    /**
     * The generator once the default certificate is {@code template} ({@code commit ssl cert} of its file): the next
     * forged certificates take its key. The cache stays, as HAProxy's (keyed by name and CA) does.
     */
    CertGenerator withTemplate(CertKey template, Recipe recipe) {
        return new CertGenerator(ca, template, recipe, cache);
    }

    /** The context of a forged certificate for {@code host} (lower case), or null when it cannot be made. */
    SslContext context(String host) {
        synchronized (cache) { // (shared with the generators of later default certificates)
            SslContext c = cache.get(host);
            if (c == null) {
                try {
                    X509Certificate forged = forge(host);
                    c = recipe.build(CertKey.of(host, template.key(), new X509Certificate[] {forged}));
                    cache.put(host, c);
                } catch (GeneralSecurityException | ContextBuilder.OptionError e) {
                    return null;
                }
            }
            return c;
        }
    }

    X509Certificate forge(String host) throws GeneralSecurityException {
        X509Certificate issuer = ca.leaf();
        boolean ec = ca.key().getAlgorithm().equals("EC");
        byte[] alg = ec ? PemFiles.tlv(0x30, PemFiles.tlv(0x06, SHA256_ECDSA))
                : PemFiles.tlv(0x30, concat(PemFiles.tlv(0x06, SHA256_RSA), new byte[] {0x05, 0x00})); // (RSA's NULL parameters)
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        byte[] validity = PemFiles.tlv(0x30, concat(time(now.minusDays(1)), time(now.plusDays(365))));
        byte[] spki = template.leaf().getPublicKey().getEncoded();
        byte[] name = host.getBytes(StandardCharsets.UTF_8);
        byte[] cn = PemFiles.tlv(0x31, PemFiles.tlv(0x30, concat(PemFiles.tlv(0x06, CN), PemFiles.tlv(0x0c, name))));
        byte[] issuerName = issuer.getSubjectX500Principal().getEncoded();
        byte[] subject = PemFiles.tlv(0x30, concat(content(issuerName), cn));
        byte[] extensions = PemFiles.tlv(0xa3, PemFiles.tlv(0x30, concat(
                extension(BASIC_CONSTRAINTS, PemFiles.tlv(0x30, new byte[0])),
                extension(SKI, PemFiles.tlv(0x04, keyId(spki))),
                extension(AKI, PemFiles.tlv(0x30, PemFiles.tlv(0x80, keyId(issuer.getPublicKey().getEncoded())))),
                extension(KEY_USAGE, new byte[] {0x03, 0x02, 0x05, (byte) 0xe0}), // digitalSignature, nonRepudiation, keyEncipherment
                extension(SAN, PemFiles.tlv(0x30, PemFiles.tlv(0x82, name))))));
        byte[] serial = PemFiles.tlv(0x02, BigInteger.valueOf(RANDOM.nextInt() & 0x7fffffffL).toByteArray());
        byte[] tbs = PemFiles.tlv(0x30, concat(PemFiles.tlv(0xa0, new byte[] {0x02, 0x01, 0x02}), serial, alg, issuerName, validity,
                subject, spki, extensions));
        Signature s = Signature.getInstance(ec ? "SHA256withECDSA" : "SHA256withRSA");
        s.initSign(ca.key());
        s.update(tbs);
        byte[] signature = concat(new byte[] {0}, s.sign());
        byte[] der = PemFiles.tlv(0x30, concat(tbs, alg, PemFiles.tlv(0x03, signature)));
        return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(der));
    }

    /**
     * A key identifier as OpenSSL makes it (RFC 5280 4.2.1.2's first method): the SHA-1 of the SubjectPublicKeyInfo's key
     * bits. Clients find the issuer by it: the authority key identifier must be the CA's own.
     */
    private static byte[] keyId(byte[] spki) throws GeneralSecurityException {
        try {
            byte[] bits = Der.parse(spki).child(1, Der.BIT_STRING).content();
            return MessageDigest.getInstance("SHA-1").digest(java.util.Arrays.copyOfRange(bits, 1, bits.length)); // (less the unused-bits byte)
        } catch (Der.Malformed e) {
            throw new GeneralSecurityException("unreadable public key", e);
        }
    }

    private static byte[] extension(byte[] oid, byte[] value) {
        return PemFiles.tlv(0x30, concat(PemFiles.tlv(0x06, oid), PemFiles.tlv(0x04, value)));
    }

    private static byte[] time(ZonedDateTime t) {
        return PemFiles.tlv(0x17, UTC_TIME.format(t).getBytes(StandardCharsets.US_ASCII));
    }

    /** The content of a DER SEQUENCE (its header skipped). */
    private static byte[] content(byte[] der) {
        int len = der[1] & 0xff;
        int header = len < 0x80 ? 2 : 2 + (len & 0x7f);
        byte[] out = new byte[der.length - header];
        System.arraycopy(der, header, out, 0, out.length);
        return out;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
