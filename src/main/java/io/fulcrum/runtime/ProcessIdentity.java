package io.fulcrum.runtime;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.listener.Accounts;
import io.fulcrum.runtime.GlobalModule.GlobalContext;

import java.lang.management.ManagementFactory;
import java.security.SecureRandom;
import java.time.ZoneId;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * {@code chroot}, {@code uid}/{@code user} and {@code gid}/{@code group}: once its sockets are bound, the process
 * locks itself in a directory and drops its privileges, as HAProxy does (through {@link LibC}).
 */
final class ProcessIdentity {
    private ProcessIdentity() {
    }

    static void register(KeywordTable<GlobalContext> kw) {
        kw.add("chroot", (g, l) -> {
            Args.noMoreThan(l, 1, "chroot");
            String dir = Args.required(l, 1, "chroot", "a directory as an argument");
            if (g.settings().chroot != null) {
                l.alertNotCounted("'chroot' already specified. Continuing.");
                return;
            }
            g.settings().chroot = dir;
        });
        kw.add("uid", (g, l) -> id(l, "uid", "user", g.settings().uid, v -> g.settings().uid = v));
        kw.add("gid", (g, l) -> id(l, "gid", "group", g.settings().gid, v -> g.settings().gid = v));
        kw.add("user", (g, l) -> name(l, "user", "uid", g.settings().uid, Accounts::user, v -> g.settings().uid = v));
        kw.add("group", (g, l) -> name(l, "group", "gid", g.settings().gid, Accounts::group, v -> g.settings().gid = v));
    }

    /** {@code uid <number>}, {@code gid <number>}: a word that is not a number is HAProxy's warning, and 0. */
    private static void id(ConfigLine l, String kw, String named, int current, Setter set)
            throws ConfigException {
        Args.noMoreThan(l, 1, kw);
        if (l.arg(1).isEmpty()) {
            throw new ConfigException("'" + kw + "' expects an integer argument.");
        }
        if (current != 0) {
            l.alertNotCounted(named + "/" + kw + " already specified. Continuing.");
            return;
        }
        try {
            set.set(Integer.parseInt(l.arg(1)));
        } catch (NumberFormatException e) {
            set.set(0);
            l.warn(" " + kw + ": string '" + l.arg(1) + "' is not a number.\n   | You might want to use the '" + named
                    + "' parameter to use a system " + named + " name.");
        }
    }

    /** {@code user <name>}, {@code group <name>}: looked up in the system's accounts. */
    private static void name(ConfigLine l, String kw, String numeric, int current, Function<String, OptionalInt> lookup,
                             Setter set) throws ConfigException {
        Args.noMoreThan(l, 1, kw);
        if (current != 0) {
            l.alertNotCounted(kw + "/" + numeric + " already specified. Continuing.");
            return;
        }
        OptionalInt id = lookup.apply(l.arg(1));
        if (id.isEmpty()) {
            throw new ConfigException("cannot find " + kw + " id for '" + l.arg(1) + "' (0:Success)");
        }
        set.set(id.getAsInt());
    }

    private interface Setter {
        void set(int value);
    }

    /**
     * Chroot, then the group, then the user, as HAProxy orders them; false (with HAProxy's alert) when one fails.
     * What the JVM reads lazily from the file system is read first: inside the chroot it would be missing.
     */
    static boolean apply(GlobalSettings global, Diagnostics diag) {
        if (global.chroot == null && global.gid == 0 && global.uid == 0) {
            return true;
        }
        LibC.Calls libc = LibC.calls();
        if (global.chroot != null) {
            ZoneId.systemDefault();
            new SecureRandom().nextBytes(new byte[8]);
            ManagementFactory.getOperatingSystemMXBean(); // its native library (show info's Idle_pct)
            if (libc.chroot(global.chroot) != 0 || libc.chdir("/") != 0) {
                diag.alert("[fulcrum.main()] Cannot chroot(" + global.chroot + ").");
                return false;
            }
        }
        if (global.gid != 0) {
            if (libc.getgroups(0, null) > 0 && libc.setgroups(0, null) == -1) {
                diag.warning("[fulcrum.main()] Failed to drop supplementary groups. Using 'gid'/'group' without 'uid'/'user' "
                        + "is generally useless.");
            }
            if (libc.setgid(global.gid) == -1) {
                diag.alert("[fulcrum.main()] Cannot set gid " + global.gid + ".");
                return false;
            }
        }
        if (global.uid != 0 && libc.setuid(global.uid) == -1) {
            diag.alert("[fulcrum.main()] Cannot set uid " + global.uid + ".");
            return false;
        }
        return true;
    }
}
