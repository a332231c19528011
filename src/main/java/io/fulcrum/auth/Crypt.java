package io.fulcrum.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The password hashes of crypt(3) that HAProxy's userlists use. MD5-crypt ({@code $1$}), SHA-256-crypt ({@code $5$})
 * and SHA-512-crypt ({@code $6$}) are computed here, as specified by their authors (Poul-Henning Kamp; Ulrich Drepper),
 * including {@code rounds=N}; the other schemes by the system's library ({@link SystemCrypt}).
 */
public final class Crypt {
    private Crypt() {
    }

    private static final String ITOA64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final int[][] SHA256_ORDER = {{0, 10, 20}, {21, 1, 11}, {12, 22, 2}, {3, 13, 23}, {24, 4, 14}, {15, 25, 5},
        {6, 16, 26}, {27, 7, 17}, {18, 28, 8}, {9, 19, 29}};
    private static final int[][] SHA512_ORDER = {{0, 21, 42}, {22, 43, 1}, {44, 2, 23}, {3, 24, 45}, {25, 46, 4}, {47, 5, 26},
        {6, 27, 48}, {28, 49, 7}, {50, 8, 29}, {9, 30, 51}, {31, 52, 10}, {53, 11, 32}, {12, 33, 54}, {34, 55, 13},
        {56, 14, 35}, {15, 36, 57}, {37, 58, 16}, {59, 17, 38}, {18, 39, 60}, {40, 61, 19}, {62, 20, 41}};

    /** True when {@code hash} can be checked: a scheme of this class's, or the system's library is there for the others. */
    public static boolean supports(String hash) {
        return hash.startsWith("$1$") || hash.startsWith("$5$") || hash.startsWith("$6$") || SystemCrypt.available();
    }

    /** True when {@code password} hashes to {@code hash} (compared in constant time). */
    public static boolean matches(String password, String hash) {
        String computed = crypt(password.getBytes(StandardCharsets.UTF_8), hash);
        return computed != null && MessageDigest.isEqual(computed.getBytes(StandardCharsets.ISO_8859_1),
                hash.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** The hash of {@code key} with the scheme, rounds and salt of {@code setting}; null for a scheme nobody knows. */
    public static String crypt(byte[] key, String setting) {
        if (setting.startsWith("$1$")) {
            return md5(key, setting);
        }
        if (setting.startsWith("$5$")) {
            return sha(key, setting, "SHA-256", "$5$", SHA256_ORDER);
        }
        if (setting.startsWith("$6$")) {
            return sha(key, setting, "SHA-512", "$6$", SHA512_ORDER);
        }
        return SystemCrypt.crypt(key, setting);
    }

    private static MessageDigest digest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The salt of a setting: after the prefix, up to {@code max} characters, ending at '$'. */
    private static byte[] salt(String setting, int from, int max) {
        int end = setting.indexOf('$', from);
        end = Math.min(end < 0 ? setting.length() : end, from + max);
        return setting.substring(from, end).getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String sha(byte[] key, String setting, String algorithm, String prefix, int[][] order) {
        int from = prefix.length();
        int rounds = 5000;
        boolean customRounds = false;
        if (setting.startsWith("rounds=", from)) {
            int end = setting.indexOf('$', from);
            if (end < 0) {
                return null;
            }
            try {
                long r = Long.parseLong(setting.substring(from + 7, end));
                rounds = (int) Math.max(1000, Math.min(999_999_999, r));
            } catch (NumberFormatException e) {
                return null;
            }
            customRounds = true;
            from = end + 1;
        }
        byte[] salt = salt(setting, from, 16);
        MessageDigest md = digest(algorithm);
        int size = md.getDigestLength();

        md.update(key);
        md.update(salt);
        md.update(key);
        byte[] b = md.digest();

        md.update(key);
        md.update(salt);
        int n = key.length;
        for (; n > size; n -= size) {
            md.update(b);
        }
        md.update(b, 0, n);
        for (int i = key.length; i > 0; i >>= 1) {
            if ((i & 1) != 0) {
                md.update(b);
            } else {
                md.update(key);
            }
        }
        byte[] a = md.digest();

        for (int i = 0; i < key.length; i++) {
            md.update(key);
        }
        byte[] p = repeat(md.digest(), key.length);
        for (int i = 0; i < 16 + (a[0] & 0xff); i++) {
            md.update(salt);
        }
        byte[] s = repeat(md.digest(), salt.length);

        byte[] c = a;
        for (int r = 0; r < rounds; r++) {
            md.update((r & 1) != 0 ? p : c);
            if (r % 3 != 0) {
                md.update(s);
            }
            if (r % 7 != 0) {
                md.update(p);
            }
            md.update((r & 1) != 0 ? c : p);
            c = md.digest();
        }

        StringBuilder out = new StringBuilder(prefix);
        if (customRounds) {
            out.append("rounds=").append(rounds).append('$');
        }
        out.append(new String(salt, StandardCharsets.ISO_8859_1)).append('$');
        for (int[] g : order) {
            b64(out, c[g[0]] & 0xff, c[g[1]] & 0xff, c[g[2]] & 0xff, 4);
        }
        if (size == 32) {
            b64(out, 0, c[31] & 0xff, c[30] & 0xff, 3);
        } else {
            b64(out, 0, 0, c[63] & 0xff, 2);
        }
        return out.toString();
    }

    private static String md5(byte[] key, String setting) {
        byte[] salt = salt(setting, 3, 8);
        byte[] magic = "$1$".getBytes(StandardCharsets.ISO_8859_1);
        MessageDigest md = digest("MD5");
        md.update(key);
        md.update(salt);
        md.update(key);
        byte[] alt = md.digest();

        md.update(key);
        md.update(magic);
        md.update(salt);
        for (int n = key.length; n > 0; n -= 16) {
            md.update(alt, 0, Math.min(16, n));
        }
        for (int i = key.length; i > 0; i >>= 1) {
            if ((i & 1) != 0) {
                md.update((byte) 0);
            } else {
                md.update(key.length > 0 ? key[0] : 0);
            }
        }
        byte[] f = md.digest();
        for (int i = 0; i < 1000; i++) {
            md.update((i & 1) != 0 ? key : f);
            if (i % 3 != 0) {
                md.update(salt);
            }
            if (i % 7 != 0) {
                md.update(key);
            }
            md.update((i & 1) != 0 ? f : key);
            f = md.digest();
        }
        StringBuilder out = new StringBuilder("$1$").append(new String(salt, StandardCharsets.ISO_8859_1)).append('$');
        b64(out, f[0] & 0xff, f[6] & 0xff, f[12] & 0xff, 4);
        b64(out, f[1] & 0xff, f[7] & 0xff, f[13] & 0xff, 4);
        b64(out, f[2] & 0xff, f[8] & 0xff, f[14] & 0xff, 4);
        b64(out, f[3] & 0xff, f[9] & 0xff, f[15] & 0xff, 4);
        b64(out, f[4] & 0xff, f[10] & 0xff, f[5] & 0xff, 4);
        b64(out, 0, 0, f[11] & 0xff, 2);
        return out.toString();
    }

    private static byte[] repeat(byte[] block, int length) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i += block.length) {
            System.arraycopy(block, 0, out, i, Math.min(block.length, length - i));
        }
        return out;
    }

    private static void b64(StringBuilder out, int b2, int b1, int b0, int n) {
        int w = b2 << 16 | b1 << 8 | b0;
        for (int i = 0; i < n; i++) {
            out.append(ITOA64.charAt(w & 0x3f));
            w >>>= 6;
        }
    }
}
