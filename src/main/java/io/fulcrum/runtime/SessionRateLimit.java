package io.fulcrum.runtime;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.proxy.ProxyPart;
import io.fulcrum.proxy.ProxySpec;

/** A frontend's {@code rate-limit sessions}: new sessions it accepts per second (0: no limit); inherited from defaults. */
public final class SessionRateLimit implements ProxyPart {
    private int value;

    /** The limit of {@code p}, 0 for none. */
    public static int of(ProxySpec p) {
        SessionRateLimit l = p.partOrNull(SessionRateLimit.class);
        return l == null ? 0 : l.value;
    }

    /** {@code rate-limit sessions <rate>}, with HAProxy's messages; a negative rate is no limit (HAProxy's is unsigned). */
    static void parse(ProxySpec p, ConfigLine l) throws ConfigException {
        if (!l.arg(1).equals("sessions")) {
            throw new ConfigException("'rate-limit' only supports 'sessions' (got '" + l.arg(1) + "')");
        }
        String v = l.arg(2);
        if (v.isEmpty()) {
            throw new ConfigException("'rate-limit sessions' expects expects an integer value (in sessions/second)");
        }
        int start = v.charAt(0) == '-' ? 1 : 0;
        for (int i = start; i < v.length(); i++) {
            if (!Character.isDigit(v.charAt(i))) {
                throw new ConfigException("'rate-limit sessions' : unexpected character '" + v.charAt(i) + "' in integer value '" + v + "'");
            }
        }
        p.part(SessionRateLimit.class, SessionRateLimit::new).value = (int) Math.max(0, Math.min(Integer.MAX_VALUE, Args.atol(v)));
    }

    @Override
    public ProxyPart inherit() {
        SessionRateLimit c = new SessionRateLimit();
        c.value = value;
        return c;
    }
}
