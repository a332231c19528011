package io.fulcrum.resolvers;

import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliRequest;
import io.fulcrum.cli.Severity;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerLookup;
import io.fulcrum.server.SetServer;

import java.util.regex.Pattern;

/**
 * {@code set server <b>/<s> fqdn <name>} (management.txt 9.3): a server resolved at run time resolves another name from
 * now on; its address follows the first answer. The refusals and the answer are haproxy 2.6's.
 */
final class FqdnChange {
    private static final String BY = " by 'stats socket command'\n";
    /** What HAProxy takes in a name at all. */
    private static final Pattern NAME_CHARS = Pattern.compile("[A-Za-z0-9._-]+");
    /** What it can turn into DNS labels: no empty label but a last one after a final dot (any length, as HAProxy). */
    private static final Pattern LABELS = Pattern.compile("[^.]+(\\.[^.]+)*\\.?");

    private FqdnChange() {
    }

    static void register(SetServer set, ResolversConfig config) {
        set.add("fqdn", (r, t) -> run(r, t, config));
    }

    private static void run(CliRequest r, ServerLookup.Target t, ResolversConfig config) throws CliException {
        String name = r.arg(4);
        if (name.isEmpty()) {
            throw new CliException("set server <b>/<s> fqdn requires a FQDN.\n");
        }
        Server s = t.server();
        ServerResolve settings = s.spec().partOrNull(ServerResolve.class);
        ResolversRuntime section = settings == null ? null
                : config.running.stream().filter(x -> x.spec.name.equals(settings.resolvers)).findFirst().orElse(null);
        if (section == null) {
            throw new CliException("set server <b>/<s> fqdn failed because no resolution is configured.\n");
        }
        if (s.spec().srvRecord != null) {
            throw new CliException("set server <b>/<s> fqdn failed because SRV resolution is configured.\n");
        }
        String warning;
        if (!NAME_CHARS.matcher(name).matches()) {
            warning = "invalid fqdn '" + name + "'";
        } else if (name.equals(s.fqdn())) {
            warning = "no need to change the FDQN"; // (HAProxy's spelling)
        } else if (!LABELS.matcher(name).matches()) {
            warning = "could not update " + s.id() + " FQDN";
        } else {
            warning = s.id() + " changed its FQDN from " + (s.fqdn() == null ? "(null)" : s.fqdn()) + " to " + name;
            s.fqdn(name);
            section.rename(s, settings, name);
        }
        r.feedback(Severity.WARNING, warning + BY);
    }
}
