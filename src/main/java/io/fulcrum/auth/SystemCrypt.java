package io.fulcrum.auth;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The system's crypt(3) (libxcrypt's {@code crypt_rn}, through JNA), for the password schemes {@link Crypt} does not
 * compute itself: yescrypt ({@code $y$}, Debian's default), bcrypt ({@code $2b$}), scrypt, DES... HAProxy calls the
 * same library, so a userlist takes the hashes it takes. Each thread has its own work area: no lock around a hash.
 */
final class SystemCrypt {
    /** libxcrypt's {@code sizeof(struct crypt_data)}. */
    private static final int DATA_SIZE = 32768;

    interface LibCrypt extends Library {
        Pointer crypt_rn(byte[] phrase, byte[] setting, Pointer data, int size);
    }

    private static final LibCrypt LIB = load();
    private static final ThreadLocal<Memory> DATA = ThreadLocal.withInitial(() -> {
        Memory m = new Memory(DATA_SIZE);
        m.clear();
        return m;
    });

    private SystemCrypt() {
    }

    private static LibCrypt load() {
        try {
            return Native.load("crypt", LibCrypt.class);
        } catch (UnsatisfiedLinkError e) {
            return null; // no libcrypt: only Crypt's own schemes
        }
    }

    static boolean available() {
        return LIB != null;
    }

    /** The hash of {@code key} with {@code setting}, or null when the library refuses it (an unknown scheme). */
    static String crypt(byte[] key, String setting) {
        if (LIB == null) {
            return null;
        }
        Pointer out = LIB.crypt_rn(terminated(key), terminated(setting.getBytes(StandardCharsets.ISO_8859_1)), DATA.get(), DATA_SIZE);
        if (out == null) {
            return null;
        }
        String hash = out.getString(0, StandardCharsets.ISO_8859_1.name());
        return hash.startsWith("*") ? null : hash; // "*0", "*1": libxcrypt's failure tokens
    }

    private static byte[] terminated(byte[] s) {
        return Arrays.copyOf(s, s.length + 1);
    }
}
