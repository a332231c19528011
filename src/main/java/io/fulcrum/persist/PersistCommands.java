package io.fulcrum.persist;

import io.fulcrum.backend.Backend;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;

/**
 * The dynamic cookie commands of the CLI: {@code enable|disable dynamic-cookie backend} and {@code set
 * dynamic-cookie-key backend}, with HAProxy's answers. A backend without persistence takes them silently, as HAProxy.
 */
final class PersistCommands {
    private PersistCommands() {
    }

    static void register(CliCommands c) {
        c.add("enable dynamic-cookie backend", "enable dynamic-cookie backend <bk>", "enable dynamic cookies on a specific backend",
                CliLevel.ADMIN, r -> {
                    Persistence p = persistence(r);
                    if (p != null) {
                        p.dynamic(true);
                    }
                });
        c.add("disable dynamic-cookie backend", "disable dynamic-cookie backend <bk>", "disable dynamic cookies on a specific backend",
                CliLevel.ADMIN, r -> {
                    Persistence p = persistence(r);
                    if (p != null) {
                        p.dynamic(false);
                    }
                });
        c.add("set dynamic-cookie-key backend", "set dynamic-cookie-key backend <bk> <k>",
                "change a backend secret key for dynamic cookies", CliLevel.ADMIN, r -> {
                    Persistence p = persistence(r);
                    if (r.arg(4).isEmpty()) {
                        throw new CliException("String value expected.\n");
                    }
                    if (p != null) {
                        p.dynamicKey(r.arg(4));
                    }
                });
    }

    /** The persistence of the backend the third argument names (null: it has none), else HAProxy's answer. */
    private static Persistence persistence(CliRequest r) throws CliException {
        if (r.arg(3).isEmpty()) {
            throw new CliException("A backend name is expected.\n");
        }
        Backend b = r.process().backends().get(r.arg(3));
        if (b == null) {
            throw new CliException("No such backend.\n");
        }
        return b.persistence();
    }
}
