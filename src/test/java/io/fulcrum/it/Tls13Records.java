package io.fulcrum.it;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * Reads a recorded TLS 1.3 byte stream of TLS_AES_128_GCM_SHA256 the way a capture tool does with an NSS key log:
 * splits it into records and decrypts them with the keys of a traffic secret (RFC 8446 7.1-7.3, 5.2-5.3).
 */
final class Tls13Records {
    static final int APPLICATION_DATA = 23;

    /** One record: its content type as sent, its 5-byte header, its payload. */
    record Rec(int type, byte[] header, byte[] payload) {
    }

    private Tls13Records() {
    }

    /** The records of a recorded direction, in order; a truncated last one is left out. */
    static List<Rec> split(byte[] stream) {
        List<Rec> out = new ArrayList<>();
        int at = 0;
        while (at + 5 <= stream.length) {
            int len = (stream[at + 3] & 0xff) << 8 | stream[at + 4] & 0xff;
            if (at + 5 + len > stream.length) {
                break;
            }
            out.add(new Rec(stream[at] & 0xff, Arrays.copyOfRange(stream, at, at + 5), Arrays.copyOfRange(stream, at + 5, at + 5 + len)));
            at += 5 + len;
        }
        return out;
    }

    /** The client random of the ClientHello that starts the client's direction. */
    static String clientRandom(byte[] clientStream) {
        // record header (5), handshake type and length (4), legacy_version (2), then the random.
        if (clientStream.length < 43 || clientStream[0] != 22 || clientStream[5] != 1) {
            throw new AssertionError("the client's stream does not start with a ClientHello");
        }
        return HexFormat.of().formatHex(clientStream, 11, 43);
    }

    /** The record protection of one direction under one traffic secret (hex), counting its records from 0. */
    static final class Keys {
        private final SecretKeySpec key;
        private final byte[] iv;
        private long sequence;

        Keys(String secretHex) throws GeneralSecurityException {
            byte[] secret = HexFormat.of().parseHex(secretHex);
            this.key = new SecretKeySpec(expandLabel(secret, "key", 16), "AES");
            this.iv = expandLabel(secret, "iv", 12);
        }

        /** The inner plaintext of the next record: content, then its real type as the last non-zero byte; null if it fails. */
        byte[] open(Rec r) {
            byte[] nonce = iv.clone();
            for (int i = 0; i < 8; i++) {
                nonce[nonce.length - 1 - i] ^= (byte) (sequence >>> 8 * i);
            }
            try {
                Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
                c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, nonce));
                c.updateAAD(r.header());
                byte[] plain = c.doFinal(r.payload());
                sequence++;
                return plain;
            } catch (GeneralSecurityException e) {
                return null;
            }
        }
    }

    /** The content of an inner plaintext, without its padding and type. */
    static byte[] content(byte[] inner) {
        int end = inner.length - 1;
        while (end >= 0 && inner[end] == 0) {
            end--;
        }
        return Arrays.copyOf(inner, Math.max(end, 0));
    }

    /** The real content type of an inner plaintext (its last non-zero byte). */
    static int innerType(byte[] inner) {
        for (int i = inner.length - 1; i >= 0; i--) {
            if (inner[i] != 0) {
                return inner[i] & 0xff;
            }
        }
        return 0;
    }

    /** HKDF-Expand-Label(secret, label, "", length) with SHA-256, for lengths up to one hash. */
    static byte[] expandLabel(byte[] secret, String label, int length) throws GeneralSecurityException {
        byte[] full = ("tls13 " + label).getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream info = new ByteArrayOutputStream();
        info.write(length >>> 8);
        info.write(length);
        info.write(full.length);
        info.writeBytes(full);
        info.write(0); // no context
        info.write(1); // HKDF-Expand's first block counter
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        return Arrays.copyOf(mac.doFinal(info.toByteArray()), length);
    }
}
