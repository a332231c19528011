package io.fulcrum.runtime;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Units;
import io.fulcrum.runtime.GlobalModule.GlobalContext;

/** {@code grace} and {@code close-spread-time}: how a soft stop (SIGUSR1) begins and closes the connections. */
final class SoftStopKeywords {
    private SoftStopKeywords() {
    }

    static void register(KeywordTable<GlobalContext> kw) {
        kw.add("grace", (g, l) -> g.settings().grace = required(l));
        kw.add("close-spread-time", (g, l) -> g.settings().closeSpreadTime =
                l.arg(1).equals("infinite") ? CloseSpread.INFINITE : required(l));
    }

    /** A time in ms; HAProxy ignores words past it. */
    private static long required(ConfigLine l) throws ConfigException {
        if (l.arg(1).isEmpty()) {
            throw new ConfigException("'" + l.keyword() + "' expects <time> as argument.");
        }
        return time(l, l.arg(1), true);
    }

    /**
     * A time in ms with the messages of HAProxy's parse_time_err: a bad character, "spaced" (after "parsing [f:l] :")
     * as the global keywords of cfgparse-global.c word it, or not as the tune.* keywords do.
     */
    static long time(ConfigLine l, String v, boolean spaced) throws ConfigException {
        int end = 0;
        while (end < v.length() && Character.isDigit(v.charAt(end))) {
            end++;
        }
        if (end == 0 || !v.substring(end).matches("|us|ms|s|m|h|d")) {
            String m = "unexpected character '" + v.charAt(end) + "' in argument to <" + l.keyword() + ">.";
            throw spaced ? new ConfigException(m) : ConfigException.unspaced(m);
        }
        try {
            return Units.time(v, l.keyword());
        } catch (ConfigException overflow) {
            if (spaced) {
                throw overflow;
            }
            throw ConfigException.unspaced("timer overflow in argument <" + v + "> to <" + l.keyword() + ">, maximum value is 65535 ms.");
        }
    }
}
