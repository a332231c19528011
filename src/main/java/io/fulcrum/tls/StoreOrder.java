package io.fulcrum.tls;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The order of the certificates of a CA file as HAProxy 2.6 holds them: in an OpenSSL {@code X509_STORE}, which
 * drops a certificate it already has and keeps its objects in a stack that each addition sorts (to look the
 * newcomer up) before pushing it. So the CAs are sorted by subject, all but the last one added, which stays last
 * (unless it was a duplicate: then all are sorted). {@code show ssl ca-file} lists them, and the names a client
 * certificate request sends follow, in that order.
 *
 * <p>The sort is OpenSSL 3.0's {@code X509_NAME_cmp}: the names' canonical encodings, shorter first, then byte by
 * byte. The canonical encoding is each RDN's SET with its text values as UTF8Strings, trimmed, their runs of
 * spaces made one and their ASCII letters lower case, the outer SEQUENCE left out ({@code x509_name_canon}).
 * glibc's qsort, which OpenSSL's stack uses, is a merge sort: names that compare equal keep their order.
 */
final class StoreOrder {
    /** The string types OpenSSL canonicalizes (ASN1_MASK_CANON), with the charset of their content. */
    private static final Map<Integer, Charset> TEXT = Map.of(0x0c, StandardCharsets.UTF_8, 0x13, StandardCharsets.ISO_8859_1,
            0x14, StandardCharsets.ISO_8859_1, 0x16, StandardCharsets.ISO_8859_1, 0x1a, StandardCharsets.ISO_8859_1,
            0x1e, StandardCharsets.UTF_16BE, 0x1c, Charset.forName("UTF-32BE"));
    private static final Comparator<byte[]> CANONICAL = Comparator.<byte[]>comparingInt(b -> b.length).thenComparing(Arrays::compareUnsigned);

    private StoreOrder() {
    }

    /** {@code added}, certificates in the order they were added to the store, as the store then holds them. */
    static List<X509Certificate> of(List<X509Certificate> added) {
        List<X509Certificate> held = new ArrayList<>();
        X509Certificate unsorted = null;
        for (X509Certificate c : added) {
            if (c.equals(unsorted) || held.contains(c)) {
                continue;
            }
            if (unsorted != null) {
                held.add(unsorted);
            }
            unsorted = c;
        }
        held.sort(Comparator.comparing(StoreOrder::canonical, CANONICAL));
        if (unsorted != null) {
            held.add(unsorted);
        }
        return held;
    }

    /** The canonical encoding of a certificate's subject (empty when the name cannot be read). */
    static byte[] canonical(X509Certificate c) {
        try {
            return canonical(Der.parse(c.getSubjectX500Principal().getEncoded()));
        } catch (Der.Malformed e) {
            return new byte[0];
        }
    }

    private static byte[] canonical(Der name) throws Der.Malformed {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Der rdn : name.children()) {
            List<byte[]> entries = new ArrayList<>();
            for (Der entry : rdn.children()) {
                List<Der> parts = entry.children();
                if (parts.size() != 2) {
                    throw new Der.Malformed();
                }
                entries.add(PemFiles.tlv(0x30, concat(parts.get(0).encoded(), value(parts.get(1)))));
            }
            entries.sort(Arrays::compareUnsigned); // (a DER SET OF: a shorter encoding that is a prefix first)
            out.writeBytes(PemFiles.tlv(0x31, concat(entries.toArray(byte[][]::new))));
        }
        return out.toByteArray();
    }

    /** A text value as an UTF8String in canonical form; any other value as it is. */
    private static byte[] value(Der v) {
        Charset cs = TEXT.get(v.tag());
        if (cs == null) {
            return v.encoded();
        }
        byte[] utf8 = new String(v.content(), cs).getBytes(StandardCharsets.UTF_8);
        int from = 0;
        int to = utf8.length;
        while (from < to && space(utf8[from])) {
            from++;
        }
        while (to > from && space(utf8[to - 1])) {
            to--;
        }
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int i = from; i < to; i++) {
            byte c = utf8[i];
            if (space(c)) {
                b.write(' ');
                while (space(utf8[i + 1])) {
                    i++;
                }
            } else {
                b.write(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
            }
        }
        return PemFiles.tlv(0x0c, b.toByteArray());
    }

    /** OpenSSL's ossl_isspace: space, \t, \n, \v, \f, \r. */
    private static boolean space(byte c) {
        return c == ' ' || c >= '\t' && c <= '\r';
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
