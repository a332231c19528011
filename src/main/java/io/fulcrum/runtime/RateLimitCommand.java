package io.fulcrum.runtime;

import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;
import io.fulcrum.compression.CompressionRate;

/** {@code set rate-limit connections|sessions|ssl-sessions|http-compression global <value>} (management.txt 9.3). */
final class RateLimitCommand {
    private RateLimitCommand() {
    }

    private static final String USAGE = """
            'set rate-limit' only supports :
               - 'connections global' to set the per-process maximum connection rate
               - 'sessions global' to set the per-process maximum session rate
               - 'ssl-sessions global' to set the per-process maximum SSL session rate
               - 'http-compression global' to set the per-process maximum compression speed in kB/s
            """;

    static void register(CliCommands c) {
        c.add("set rate-limit", "set rate-limit <setting> <value>", "change a rate limiting value", CliLevel.ADMIN,
                RateLimitCommand::set);
    }

    private static void set(CliRequest r) throws CliException {
        String what = r.arg(2);
        boolean known = what.equals("connections") || what.equals("sessions") || what.equals("ssl-sessions")
                || what.equals("http-compression");
        if (!known || !r.arg(3).equals("global")) {
            throw new CliException(USAGE);
        }
        if (r.arg(4).isEmpty()) {
            throw new CliException("Expects an integer value.\n");
        }
        int v = r.atoi(4); // as HAProxy: a word without digits reads 0, which lifts the limit
        if (v < 0) {
            throw new CliException("Value out of range.\n");
        }
        AcceptRate rates = r.process().acceptRate();
        switch (what) {
            case "connections" -> rates.connLimit(v);
            case "sessions" -> rates.sessLimit(v);
            case "ssl-sessions" -> rates.tlsLimit(v);
            default -> CompressionRate.limit(v * 1024L);
        }
    }
}
