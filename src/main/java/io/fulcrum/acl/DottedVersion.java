package io.fulcrum.acl;

import io.fulcrum.cfg.ConfigException;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The patterns of the ACL keywords whose values are versions ({@code req.ssl_ver}: TLS 1.0 is 3.1): "MAJOR[.MINOR]",
 * a range of them with ':' or '-', each bound MAJOR * 65536 + MINOR, matched as integers (HAProxy's dotted-version
 * patterns). An explicit {@code -m int} reads plain integers instead.
 */
final class DottedVersion {
    /** The ACL keywords whose patterns are dotted versions by default. */
    static final Set<String> KEYWORDS = Set.of("req.ssl_ver", "req_ssl_ver");

    private DottedVersion() {
    }

    /** The integer patterns that dotted ones (read from a file) stand for; an error names the file's line. */
    static List<PatternValue> values(List<PatternValue> dotted) throws ConfigException {
        List<PatternValue> values = new ArrayList<>(dotted.size());
        for (PatternValue p : dotted) {
            try {
                values.add(new PatternValue(range(p.text()), p.ignoreCase(), p.file(), p.line()));
            } catch (ConfigException e) {
                throw p.locate(e);
            }
        }
        return values;
    }

    /** The integer pattern ("N", "N:M", ":M", "N:") that a dotted one stands for, with HAProxy's messages. */
    static String range(String text) throws ConfigException {
        int sep = 0;
        while (sep < text.length() && text.charAt(sep) != ':' && text.charAt(sep) != '-') {
            sep++;
        }
        if (sep == text.length()) {
            long v = value(text);
            if (v < 0) {
                throw new ConfigException("'" + text + "' is not a dotted number");
            }
            return Long.toString(v);
        }
        String lo = text.substring(0, sep);
        String hi = text.substring(sep + 1);
        long min = lo.isEmpty() ? 0 : value(lo);
        long max = hi.isEmpty() ? 0 : value(hi);
        if (lo.isEmpty() && hi.isEmpty() || min < 0 || max < 0 || !lo.isEmpty() && !hi.isEmpty() && min > max) {
            throw new ConfigException("'" + text + "' is not a valid dotted number range");
        }
        return (lo.isEmpty() ? "" : Long.toString(min)) + ":" + (hi.isEmpty() ? "" : Long.toString(max));
    }

    /** MAJOR[.MINOR] as MAJOR * 65536 + MINOR, each below 65536; -1 when it is not one. */
    private static long value(String s) {
        int dot = s.indexOf('.');
        long major = digits(dot < 0 ? s : s.substring(0, dot));
        long minor = dot < 0 ? 0 : digits(s.substring(dot + 1));
        return major < 0 || minor < 0 || major >= 65536 || minor >= 65536 ? -1 : major << 16 | minor;
    }

    private static long digits(String s) {
        return s.isEmpty() || s.length() > 9 || !s.chars().allMatch(Character::isDigit) ? -1 : Long.parseLong(s);
    }
}
