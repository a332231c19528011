package io.fulcrum.mux.h1;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigModel;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The global settings of HTTP/1 as parsed: {@code tune.bufsize} (already rounded up to a multiple of 16, as
 * HAProxy does on 64-bit machines), {@code tune.maxrewrite} (-1 until set), {@code tune.http.maxhdr}, and the
 * header names to write in another case ({@code h1-case-adjust}, then the {@code h1-case-adjust-file} once read).
 */
public final class H1Settings {
    public int bufsize = H1Limits.DEFAULT.bufsize();
    public int maxrewrite = -1;
    public int maxhdr = H1Limits.DEFAULT.maxhdr();
    /** Name (as written, meant in lower case) to the same name in the case to write. */
    public final Map<String, String> caseAdjust = new LinkedHashMap<>();
    /** {@code h1-case-adjust-file}, or null. */
    public String caseAdjustFile;
    /** {@code h1-accept-payload-with-any-method}. */
    public boolean payloadWithAnyMethod;

    public static H1Settings of(ConfigModel model) {
        return model.part(H1Settings.class, H1Settings::new);
    }

    /**
     * Adds a name to write in another case, checked as HAProxy does: {@code to} must not be empty, must differ from
     * {@code from} in case only, and {@code from} must be new.
     */
    public void adjustCase(String from, String to) throws ConfigException {
        if (to.isEmpty()) {
            throw new ConfigException("expect <to>");
        }
        if (!sameIgnoringAsciiCase(from, to)) {
            // (sic: HAProxy's spelling)
            throw new ConfigException("<from> and <to> must not differ execpt the case");
        }
        if (caseAdjust.putIfAbsent(from, to) != null) {
            throw new ConfigException("duplicate entry '" + from + "'");
        }
    }

    private static boolean sameIgnoringAsciiCase(String a, String b) {
        if (a.length() != b.length()) {
            return false;
        }
        for (int i = 0; i < a.length(); i++) {
            if (lower(a.charAt(i)) != lower(b.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static char lower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
    }

    /** The limits they give: maxrewrite defaults to 1024 and is cut to half the buffer, as in HAProxy. */
    public H1Limits limits() {
        int rewrite = maxrewrite < 0 ? H1Limits.DEFAULT.maxrewrite() : maxrewrite;
        return new H1Limits(bufsize, Math.min(rewrite, bufsize / 2), maxhdr, payloadWithAnyMethod);
    }
}
