package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Registry;
import io.fulcrum.runtime.GlobalModule;

/**
 * {@code tune.vars.global-max-size|proc-max-size|sess-max-size|txn-max-size|reqres-max-size} (and the undocumented
 * {@code tune.vars.check-max-size} HAProxy 2.6 also takes): the bytes the variables of each scope may hold, 0 for no
 * limit. They are read as HAProxy does (a number, possibly negative, which then refuses every variable).
 */
public final class VarLimits {
    long global;
    long proc;
    long sess;
    long txn;
    long reqres;

    /** No limit at all: the variables are not even accounted. */
    boolean none() {
        return global == 0 && proc == 0 && sess == 0 && txn == 0 && reqres == 0;
    }

    long of(VarScope scope) {
        return switch (scope) {
            case PROC -> proc;
            case SESS -> sess;
            case TXN -> txn;
            case REQ, RES -> reqres;
            case CHECK -> 0;
        };
    }

    static void register(Registry registry) {
        String[] names = {"global", "proc", "sess", "txn", "reqres", "check"};
        for (String name : names) {
            String keyword = "tune.vars." + name + "-max-size";
            registry.table(GlobalModule.KEYWORDS).add(keyword, (g, l) -> {
                long v = size(keyword, l.arg(1));
                VarLimits limits = g.model().part(VarLimits.class, VarLimits::new);
                switch (name) {
                    case "global" -> limits.global = v;
                    case "proc" -> limits.proc = v;
                    case "sess" -> limits.sess = v;
                    case "txn" -> limits.txn = v;
                    case "reqres" -> limits.reqres = v;
                    default -> { } // (no check variables yet)
                }
            });
        }
        // Each configuration loaded sets the limits the process runs with, none when it has no tune.vars line.
        registry.check((model, diag) -> Vars.limit(model.part(VarLimits.class, VarLimits::new)));
    }

    /** An integer as HAProxy's parser takes it: empty is 0, anything but digits after an optional '-' an error. */
    private static long size(String keyword, String v) throws ConfigException {
        String digits = v.startsWith("-") ? v.substring(1) : v;
        if (digits.length() > 10 || !digits.chars().allMatch(Character::isDigit)) {
            throw new ConfigException(keyword + ": '" + v + "' is an invalid size");
        }
        long n = digits.isEmpty() ? 0 : Long.parseLong(digits);
        return v.startsWith("-") ? -n : n;
    }
}
