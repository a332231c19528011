package io.fulcrum.resolvers;

import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;

/** {@code show resolvers [<section>]}: each name server's counters, in HAProxy 2.6's layout, read on the section's loop. */
final class ShowResolvers {
    private ShowResolvers() {
    }

    static void register(CliCommands c, ResolversConfig config) {
        c.add("show resolvers", "show resolvers [id]", "dumps counters from all resolvers section and associated name servers",
                CliLevel.USER, r -> show(r, config));
    }

    private static void show(CliRequest r, ResolversConfig config) throws CliException {
        String only = r.arg(2);
        StringBuilder b = new StringBuilder();
        boolean found = only.isEmpty();
        for (ResolversRuntime s : config.running) {
            if (!only.isEmpty() && !only.equals(s.spec.name)) {
                continue;
            }
            found = true;
            b.append(s.loop == null ? section(s) : s.loop.submit(() -> section(s)).syncUninterruptibly().getNow());
        }
        if (!found) {
            throw new CliException("Can't find that resolvers section\n");
        }
        r.print(b);
    }

    private static String section(ResolversRuntime s) {
        StringBuilder b = new StringBuilder("Resolvers section ").append(s.spec.name).append('\n');
        for (NameserverLink ns : s.nameservers) {
            b.append(" nameserver ").append(ns.spec.name()).append(":\n");
            field(b, "sent", ns.sent);
            field(b, "snd_error", ns.sendErrors);
            field(b, "valid", ns.valid);
            field(b, "update", ns.update);
            field(b, "cname", ns.cname);
            field(b, "cname_error", 0);
            field(b, "any_err", ns.anyErr);
            field(b, "nx", ns.nx);
            field(b, "timeout", ns.timeout);
            field(b, "refused", ns.refused);
            field(b, "other", ns.other);
            field(b, "invalid", ns.invalid);
            field(b, "too_big", 0); // a UDP answer larger than accepted_payload_size is cut by the socket: counted as invalid
            field(b, "truncated", ns.truncated);
            field(b, "outdated", ns.outdated);
        }
        return b.toString();
    }

    private static void field(StringBuilder b, String name, long value) {
        b.append("  ").append(name).append(':').append(" ".repeat(12 - name.length())).append(value).append('\n');
    }
}
