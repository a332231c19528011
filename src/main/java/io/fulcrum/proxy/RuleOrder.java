package io.fulcrum.proxy;

import io.fulcrum.cfg.ConfigLine;

import java.util.EnumSet;

/**
 * HAProxy's warning for a request rule written after rules that run after it: "a 'tcp-request' rule placed after
 * an 'http-request' rule will still be processed before." Each kind of rule runs at its own step whatever the order
 * of the lines; the first later kind already written is named. Rules of a defaults section do not count.
 */
public final class RuleOrder implements ProxyPart {
    /** The kinds of request rules, in the order they run. */
    public enum Kind {
        TCP_CONNECTION(null),
        TCP_SESSION("a 'tcp-request session'"),
        TCP_CONTENT("a 'tcp-request content'"),
        MONITOR_FAIL("a 'monitor fail'"),
        HTTP_REQUEST("an 'http-request'"),
        REDIRECT("a 'redirect'"),
        USE_BACKEND("a 'use_backend'"),
        USE_SERVER("a 'use-server'");

        private final String named;

        Kind(String named) {
            this.named = named;
        }

        /** HAProxy only checks where the rules up to redirect go; switching rules are noted, never warned about. */
        boolean checked() {
            return ordinal() <= REDIRECT.ordinal();
        }
    }

    private final EnumSet<Kind> written = EnumSet.noneOf(Kind.class);

    @Override
    public ProxyPart inherit() {
        return null;
    }

    /** Notes a rule of {@code kind} ("tcp-request"...) that {@code line} added to {@code p}, warning first when it is misplaced. */
    public static void placed(ProxySpec p, Kind kind, String rule, ConfigLine line) {
        RuleOrder order = p.part(RuleOrder.class, RuleOrder::new);
        if (kind.checked()) {
            for (Kind later : Kind.values()) {
                if (later.ordinal() > kind.ordinal() && order.written.contains(later)) {
                    line.warn("a '" + rule + "' rule placed after " + later.named + " rule will still be processed before.");
                    break;
                }
            }
        }
        order.written.add(kind);
    }
}
