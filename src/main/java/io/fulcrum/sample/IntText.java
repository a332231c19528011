package io.fulcrum.sample;

import java.nio.charset.StandardCharsets;

/** Integers written in the configuration (arguments, map values), read as HAProxy reads them. */
public final class IntText {
    private IntText() {
    }

    /**
     * An optional sign and decimal digits, nothing else; saturates rather than failing on overflow, and
     * reads an empty text or a lone sign as 0.
     *
     * @throws NumberFormatException when another character is found
     */
    public static long parse(String w) {
        for (int k = 0; k < w.length(); k++) {
            char c = w.charAt(k);
            if (!(c >= '0' && c <= '9' || k == 0 && (c == '-' || c == '+'))) {
                throw new NumberFormatException(w);
            }
        }
        byte[] b = w.getBytes(StandardCharsets.ISO_8859_1);
        return Casts.readInt64(b, 0, b.length);
    }
}
