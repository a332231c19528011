package io.fulcrum.log;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.proxy.ProxyKind;
import io.fulcrum.proxy.ProxySpec;

/** {@code capture request header <name> len <length>} and {@code capture response header <name> len <length>}. */
final class CaptureKeyword {
    private CaptureKeyword() {
    }

    static void parse(ProxySpec p, ConfigLine l) throws ConfigException {
        String what = l.arg(1);
        if (what.equals("cookie")) {
            throw new ConfigException("'capture cookie' is not supported by Fulcrum yet.");
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
        HeaderCaptures captures = p.part(HeaderCaptures.class, HeaderCaptures::new);
        HeaderCaptures.Capture c = new HeaderCaptures.Capture(l.arg(3), Integer.parseInt(len));
        (what.equals("request") ? captures.request : captures.response).add(c);
    }
}
