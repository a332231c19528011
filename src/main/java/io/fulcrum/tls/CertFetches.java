package io.fulcrum.tls;

import io.fulcrum.sample.Arg;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;
import io.netty.channel.Channel;

import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.security.auth.x500.X500Principal;
import java.math.BigInteger;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static io.fulcrum.sample.ArgType.SINT;
import static io.fulcrum.sample.ArgType.STR;

/**
 * The fetches of the certificates of the client connection (7.3.4): the client's ({@code ssl_c_*}) and the one the
 * frontend presented ({@code ssl_f_*}), with OpenSSL's names and formats; and the client certificate's verification.
 */
final class CertFetches {
    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'");
    /** OpenSSL's short names of the usual signature algorithms, by OID. */
    private static final Map<String, String> SIGNATURES = Map.of(
            "1.2.840.113549.1.1.5", "RSA-SHA1", "1.2.840.113549.1.1.11", "RSA-SHA256", "1.2.840.113549.1.1.12", "RSA-SHA384",
            "1.2.840.113549.1.1.13", "RSA-SHA512", "1.2.840.113549.1.1.10", "RSASSA-PSS", "1.2.840.10045.4.3.2", "ecdsa-with-SHA256",
            "1.2.840.10045.4.3.3", "ecdsa-with-SHA384", "1.2.840.10045.4.3.4", "ecdsa-with-SHA512", "1.3.101.112", "ED25519");
    private static final Map<String, String> KEYS = Map.of("RSA", "rsaEncryption", "EC", "id-ecPublicKey", "Ed25519", "ED25519",
            "EdDSA", "ED25519", "RSASSA-PSS", "RSASSA-PSS");

    /** OpenSSL's short names of the attributes the JDK writes as OIDs. */
    private static final Map<String, String> OPENSSL_NAMES = Map.of("1.2.840.113549.1.9.1", "emailAddress", "2.5.4.5", "serialNumber",
            "2.5.4.97", "organizationIdentifier", "2.5.4.15", "businessCategory", "2.5.4.17", "postalCode",
            "1.3.6.1.4.1.311.60.2.1.3", "jurisdictionC", "1.3.6.1.4.1.311.60.2.1.2", "jurisdictionST", "1.3.6.1.4.1.311.60.2.1.1", "jurisdictionL");

    private CertFetches() {
    }

    static void register(SampleCatalog c) {
        certificate(c, "ssl_c_", SampleContext::frontChannel, t -> t.peer);
        certificate(c, "ssl_f_", SampleContext::frontChannel, t -> t.local);
        // The server's certificate, on the server connection (HAProxy declares these as client-side fetches).
        certificate(c, "ssl_s_", SampleContext::backChannel, t -> t.peer);
        client(c, "ssl_c_used", SampleType.BOOL, (t, out) -> out.setBool(t.peer != null));
        // (A resumed session's certificate comes from the session: not sent on this connection.)
        client(c, "ssl_fc_has_crt", SampleType.BOOL, (t, out) -> out.setBool(t.peer != null && !t.resumed));
        client(c, "ssl_c_verify", SampleType.SINT, (t, out) -> out.setSint(t.verify.last()));
        // These two also in the log line of a handshake that failed (HAProxy's), ssl_c_verify not.
        any(c, "ssl_c_err", SampleType.SINT, (t, out) -> out.setSint(t.verify.crtError()));
        any(c, "ssl_c_ca_err", SampleType.SINT, (t, out) -> out.setSint(t.verify.caError()));
        // As OpenSSL's peer chain on a server: what the client sent after its own certificate, DER after DER.
        client(c, "ssl_c_chain_der", SampleType.BIN, (t, out) -> t.peerChain != null && t.peerChain.length > 0 && out.setBin(chainDer(t.peerChain, 1)));
        // On a client connection OpenSSL's peer chain starts with the server's own certificate.
        c.fetch(new Fetch("ssl_s_chain_der", ArgSpec.NONE, SampleType.BIN, Source.L5CLI, (a, ctx, out) -> {
            TlsConnection t = ctx.backChannel() == null ? null : TlsConnection.of(ctx.backChannel());
            return t != null && t.peerChain != null && t.peerChain.length > 0 && out.setBin(chainDer(t.peerChain, 0));
        }));
        client(c, "ssl_c_ca_err_depth", SampleType.SINT, (t, out) -> out.setSint(t.verify.caDepth()));
    }

    /** The certificates of {@code chain} from {@code from} on, DER after DER. */
    private static byte[] chainDer(java.security.cert.Certificate[] chain, int from) {
        java.io.ByteArrayOutputStream der = new java.io.ByteArrayOutputStream();
        try {
            for (int i = from; i < chain.length; i++) {
                der.writeBytes(chain[i].getEncoded());
            }
        } catch (java.security.cert.CertificateEncodingException e) {
            return new byte[0];
        }
        return der.toByteArray();
    }

    private interface Read {
        boolean read(TlsConnection t, Sample out);
    }

    /** A fetch of the client connection's completed TLS session. */
    private static void client(SampleCatalog c, String name, SampleType type, Read read) {
        any(c, name, type, (t, out) -> t.completed() && read.read(t, out));
    }

    /** A fetch of the client connection's TLS layer, its handshake failed or not. */
    private static void any(SampleCatalog c, String name, SampleType type, Read read) {
        c.fetch(new Fetch(name, ArgSpec.NONE, type, Source.L5CLI, (a, ctx, out) -> {
            TlsConnection t = TlsConnection.of(ctx.frontChannel());
            return t != null && read.read(t, out);
        }));
    }

    private interface CertRead {
        boolean read(X509Certificate cert, Arg[] args, Sample out) throws Exception;
    }

    /** The fetches of one certificate of the connection; no sample when there is none. */
    private static void certificate(SampleCatalog c, String prefix, Function<SampleContext, Channel> channel,
                                    Function<TlsConnection, X509Certificate> of) {
        ArgSpec dn = ArgSpec.of(0, STR, SINT, STR);
        fetch(c, prefix + "s_dn", dn, SampleType.STR, channel, of, (x, a, out) -> dn(x.getSubjectX500Principal(), a, out));
        fetch(c, prefix + "i_dn", dn, SampleType.STR, channel, of, (x, a, out) -> dn(x.getIssuerX500Principal(), a, out));
        fetch(c, prefix + "serial", ArgSpec.NONE, SampleType.BIN, channel, of, (x, a, out) -> out.setBin(unsigned(x.getSerialNumber())));
        fetch(c, prefix + "notbefore", ArgSpec.NONE, SampleType.STR, channel, of, (x, a, out) -> time(x.getNotBefore(), out));
        fetch(c, prefix + "notafter", ArgSpec.NONE, SampleType.STR, channel, of, (x, a, out) -> time(x.getNotAfter(), out));
        fetch(c, prefix + "sha1", ArgSpec.NONE, SampleType.BIN, channel, of,
                (x, a, out) -> out.setBin(MessageDigest.getInstance("SHA-1").digest(x.getEncoded())));
        fetch(c, prefix + "der", ArgSpec.NONE, SampleType.BIN, channel, of, (x, a, out) -> out.setBin(x.getEncoded()));
        fetch(c, prefix + "version", ArgSpec.NONE, SampleType.SINT, channel, of, (x, a, out) -> out.setSint(x.getVersion()));
        fetch(c, prefix + "sig_alg", ArgSpec.NONE, SampleType.STR, channel, of,
                (x, a, out) -> out.setStr(signature(x)));
        fetch(c, prefix + "key_alg", ArgSpec.NONE, SampleType.STR, channel, of,
                (x, a, out) -> out.setStr(KEYS.getOrDefault(x.getPublicKey().getAlgorithm(), x.getPublicKey().getAlgorithm())));
    }

    private static void fetch(SampleCatalog c, String name, ArgSpec args, SampleType type, Function<SampleContext, Channel> channel,
                              Function<TlsConnection, X509Certificate> of, CertRead read) {
        c.fetch(new Fetch(name, args, type, Source.L5CLI, (a, ctx, out) -> {
            Channel ch = channel.apply(ctx);
            TlsConnection t = ch == null ? null : TlsConnection.of(ch);
            X509Certificate x = t == null ? null : of.apply(t);
            try {
                return x != null && read.read(x, a, out);
            } catch (Exception e) {
                return false;
            }
        }));
    }

    /**
     * A distinguished name as OpenSSL's one-line form writes it ({@code /C=FR/O=Example/CN=host}), or in RFC 2253's
     * with the third argument {@code rfc2253}; with a field name, that field's value ({@code occ}: its place from the
     * first, or from the last when negative).
     */
    private static boolean dn(X500Principal name, Arg[] a, Sample out) throws InvalidNameException {
        if (a.length > 2 && a[2].text().equals("rfc2253") && (a[0].text().isEmpty())) {
            return out.setStr(name.getName(X500Principal.RFC2253));
        }
        List<Rdn> rdns = rdns(name);
        if (a.length > 0 && !a[0].text().isEmpty()) {
            List<String> values = new ArrayList<>();
            for (Rdn r : rdns) {
                if (r.getType().equalsIgnoreCase(a[0].text())) {
                    values.add(r.getValue().toString());
                }
            }
            long occ = a.length > 1 ? a[1].num() : 1;
            int i = occ > 0 ? (int) occ - 1 : values.size() + (int) occ;
            return occ != 0 && i >= 0 && i < values.size() && out.setStr(values.get(i));
        }
        return out.setStr(oneLine(name));
    }

    /** The certificate's signature algorithm as OpenSSL names it ("RSA-SHA256"). */
    static String signature(X509Certificate x) {
        return SIGNATURES.getOrDefault(x.getSigAlgOID(), x.getSigAlgName());
    }

    /** The first CN of the certificate's subject, or null. */
    static String commonName(X509Certificate x) {
        try {
            for (Rdn r : rdns(x.getSubjectX500Principal())) {
                if (r.getType().equalsIgnoreCase("CN")) {
                    return r.getValue().toString();
                }
            }
        } catch (InvalidNameException e) {
            return null; // (the JDK's own form cannot be unparsable)
        }
        return null;
    }

    /** The RDNs of a name from the first (C) on, with OpenSSL's short names. */
    private static List<Rdn> rdns(X500Principal name) throws InvalidNameException {
        return new LdapName(name.getName(X500Principal.RFC2253, OPENSSL_NAMES)).getRdns();
    }

    /** A distinguished name as OpenSSL's one-line form writes it ({@code /C=FR/O=Example/CN=host}). */
    static String oneLine(X500Principal name) {
        return join(name, "/", "=", "/");
    }

    /** A distinguished name as OpenSSL's XN_FLAG_ONELINE prints it ({@code C = FR, O = Example, CN = host}). */
    static String spaced(X500Principal name) {
        return join(name, "", " = ", ", ");
    }

    private static String join(X500Principal name, String first, String equals, String separator) {
        StringBuilder sb = new StringBuilder();
        try {
            for (Rdn r : rdns(name)) {
                sb.append(sb.isEmpty() ? first : separator).append(r.getType()).append(equals).append(r.getValue());
            }
        } catch (InvalidNameException e) {
            return name.getName(); // the JDK's own form cannot be unparsable; this is never reached
        }
        return sb.toString();
    }

    /** The serial's bytes without the sign byte Java adds. */
    static byte[] unsigned(BigInteger serial) {
        byte[] b = serial.toByteArray();
        return b.length > 1 && b[0] == 0 ? java.util.Arrays.copyOfRange(b, 1, b.length) : b;
    }

    /**
     * As HAProxy's ssl_sock_get_time(): a UTCTime (years 1950 to 2049) as encoded, a GeneralizedTime (after 2049)
     * without its century, and no sample unless it is "20" (YYMMDDhhmmssZ either way).
     */
    static boolean time(java.util.Date d, Sample out) {
        ZonedDateTime t = d.toInstant().atZone(ZoneOffset.UTC);
        if (t.getYear() < 1950 || t.getYear() > 2099) {
            return false;
        }
        out.setStr(UTC_TIME.format(t));
        return true;
    }

}
