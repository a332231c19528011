package io.fulcrum.http;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;

/**
 * {@code option http-restrict-req-hdr-names}: what becomes of request fields whose name has a character other than
 * a letter, a digit or '-' (servers and FastCGI applications that turn '_' and '-' alike can be fooled by them).
 * HAProxy applies the frontend's policy after the frontend's rules, then the backend's.
 */
public enum HeaderNamePolicy {
    PRESERVE, DELETE, REJECT;

    /** Applies this policy to {@code request}; true when it is to be refused (403). */
    public boolean refuses(RequestHead request) {
        if (this == PRESERVE) {
            return false;
        }
        HttpHeaders h = request.headers();
        for (int i = 0; i < h.slots(); i++) {
            if (!h.removed(i) && !plain(h.name(i))) {
                if (this == REJECT) {
                    return true;
                }
                h.remove(i);
            }
        }
        return false;
    }

    private static boolean plain(CharSequence name) {
        for (int k = 0; k < name.length(); k++) {
            char c = name.charAt(k);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    /** The policy of an {@code option http-restrict-req-hdr-names} line (the words after "option"). */
    static HeaderNamePolicy parse(ConfigLine l) throws ConfigException {
        Args.noMoreThan(l, 1, "option");
        String expects = ". option '" + l.arg(0) + "' expects 'preserve', 'reject' or 'delete' option.";
        return switch (l.arg(1)) {
            case "preserve" -> PRESERVE;
            case "delete" -> DELETE;
            case "reject" -> REJECT;
            case "" -> throw new ConfigException("missing parameter" + expects);
            default -> throw new ConfigException("invalid parameter '" + l.arg(1) + "'" + expects);
        };
    }
}
