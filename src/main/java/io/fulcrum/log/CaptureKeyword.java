package io.fulcrum.log;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.proxy.ProxyKind;
import io.fulcrum.proxy.ProxySpec;

/**
 * {@code capture request header <name> len <length>}, {@code capture response header <name> len <length>},
 * {@code capture cookie <name> len <length>} and {@code declare capture request|response len <length>}.
 */
final class CaptureKeyword {
    private CaptureKeyword() {
    }

    static void parse(ProxySpec p, ConfigLine l) throws ConfigException {
        String what = l.arg(1);
        if (what.equals("cookie")) {
            cookie(p, l);
            return;
        }
        if (!what.equals("request") && !what.equals("response")) {
            throw new ConfigException("'capture' expects 'cookie' or 'request header' or 'response header'.");
        }
        if (p.kind() == ProxyKind.DEFAULTS) {
            throw new ConfigException("'capture " + what + "' not allowed in 'defaults' section.");
        }
        String usage = "'capture " + what + "' expects 'header' <header_name> 'len' <len>.";
        if (!l.arg(2).equals("header") || l.arg(3).isEmpty() || !l.arg(4).equals("len")) {
            throw new ConfigException(usage);
        }
        String len = l.arg(5);
        if (len.isEmpty() || len.length() > 9 || !len.chars().allMatch(Character::isDigit)) {
            throw new ConfigException(usage);
        }
        if (l.has(6)) {
            throw new ConfigException("'capture " + what + "' cannot handle unexpected argument '" + l.arg(6) + "'.");
        }
        HeaderCaptures captures = HeaderCaptures.of(p);
        HeaderCaptures.Capture c = new HeaderCaptures.Capture(l.arg(3), Integer.parseInt(len));
        (what.equals("request") ? captures.request : captures.response).add(c);
    }

    /**
     * {@code capture cookie <name> len <length>}: one per frontend, the last one winning as in HAProxy; lengths
     * beyond tune.http.cookielen are cut to it once the configuration is read. Stricter than HAProxy, which reads any word as the length (0) and
     * ignores what follows it.
     */
    private static void cookie(ProxySpec p, ConfigLine l) throws ConfigException {
        if (p.kind() == ProxyKind.DEFAULTS) {
            throw new ConfigException("'capture cookie' not allowed in 'defaults' section.");
        }
        String len = l.arg(4);
        if (len.isEmpty()) {
            throw new ConfigException("'capture' expects 'cookie' <cookie_name> 'len' <len>.");
        }
        if (len.length() > 9 || !len.chars().allMatch(Character::isDigit)) {
            throw new ConfigException("'capture cookie' : invalid length '" + len + "'.");
        }
        if (l.has(5)) {
            throw new ConfigException("'capture cookie' cannot handle unexpected argument '" + l.arg(5) + "'.");
        }
        HeaderCaptures captures = HeaderCaptures.of(p);
        captures.cookieName = l.arg(2);
        captures.cookieLength = Integer.parseInt(len);
    }

    /** {@code declare capture request|response len <length>}: a slot for rules; words after the length are ignored, as by HAProxy. */
    static void declare(ProxySpec p, ConfigLine l) throws ConfigException {
        if (p.kind() == ProxyKind.DEFAULTS) {
            throw new ConfigException("'declare' not available in default section");
        }
        if (!p.kind().isFrontend()) {
            throw new ConfigException("'declare' only available in frontend or listen section");
        }
        if (l.arg(1).isEmpty()) {
            throw new ConfigException("'declare' needs a second keyword that specify the type of declaration ('capture')");
        }
        if (!l.arg(1).equals("capture")) {
            throw new ConfigException("unknown declaration type '" + l.arg(1) + "' (supports 'capture')");
        }
        String direction = l.arg(2);
        if (!direction.equals("request") && !direction.equals("response")) {
            throw new ConfigException("'declare capture' requires a direction ('request' or 'response')");
        }
        if (!l.arg(3).equals("len")) {
            throw new ConfigException("'declare capture' requires a capture length ('len')");
        }
        if (l.arg(4).isEmpty()) {
            throw new ConfigException("'declare capture': 'len' requires a numeric value that represents the capture length");
        }
        long len;
        try {
            len = Long.parseLong(l.arg(4));
        } catch (NumberFormatException e) {
            throw new ConfigException("'declare capture': cannot parse the length 'len'.");
        }
        if (len <= 0) {
            throw new ConfigException("length must be > 0");
        }
        HeaderCaptures.of(p).declare(direction.equals("response"), (int) Math.min(len, Integer.MAX_VALUE));
    }
}
