package io.fulcrum.cli;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Units;
import io.fulcrum.listener.Listener;

import java.util.List;
import java.util.concurrent.TimeUnit;

/** The commands that act on the CLI session itself: help, prompt, quit, levels, severity, timeout. */
final class SessionCommands {
    private SessionCommands() {
    }

    static void register(CliCommands c) {
        // help, prompt, quit and the modes have no line of their own in help (which always ends with the first three)
        c.addUnlisted("help", CliLevel.USER,
                r -> r.feedback(Severity.INFO, c.usage(r.args().subList(1, r.size()), true, r.session()::shows)));
        c.addUnlisted("prompt", CliLevel.USER, r -> r.session().togglePrompt());
        c.addUnlisted("quit", CliLevel.USER, r -> r.session().quit());
        c.add("user", "user", "lower the level of the current CLI session to user", CliLevel.USER, r -> lower(r, CliLevel.USER));
        c.add("operator", "operator", "lower the level of the current CLI session to operator", CliLevel.USER,
                r -> lower(r, CliLevel.OPERATOR));
        c.add("show cli level", "show cli level", "display the level of the current CLI session", CliLevel.USER,
                r -> r.feedback(Severity.INFO, r.level().keyword() + "\n"));
        c.add("show cli sockets", "show cli sockets", "dump list of cli sockets", CliLevel.USER, SessionCommands::sockets);
        c.add("set severity-output", "set severity-output [none|number|string]",
                "set presence of severity level in feedback information", CliLevel.USER, r -> {
                    Severity.Output s = Severity.Output.of(r.arg(2));
                    if (s == null) {
                        throw new CliException("one of 'none', 'number', 'string' is a required argument\n");
                    }
                    r.session().severityOutput(s);
                });
        c.addUnlisted("experimental-mode", CliLevel.ADMIN,
                r -> mode(r, "experimental-mode", r.session()::experimental, r.session().experimental()));
        c.addUnlisted("expert-mode", CliLevel.ADMIN, r -> mode(r, "expert-mode", r.session()::expert, r.session().expert()));
        c.add("set timeout", "set timeout [cli] <delay>", "change a timeout setting", CliLevel.USER, SessionCommands::timeout);
    }

    /** {@code experimental-mode|expert-mode [on|off]}: without a word, says whether it is on; any word but "on" is off. */
    private static void mode(CliRequest r, String name, java.util.function.Consumer<Boolean> set, boolean now) {
        if (r.arg(1).isEmpty()) {
            r.feedback(Severity.INFO, name + " is " + (now ? "ON" : "OFF") + "\n");
        } else {
            set.accept(r.arg(1).equals("on"));
        }
    }

    /** {@code user}, {@code operator}: a session may lower its level, never raise it. */
    private static void lower(CliRequest r, CliLevel to) throws CliException {
        r.require(to);
        r.session().level(to);
    }

    private static void timeout(CliRequest r) throws CliException {
        if (!r.arg(2).equals("cli")) {
            throw new CliException("'set timeout' only supports 'cli'.\n");
        }
        String v = r.arg(3);
        if (v.isEmpty()) {
            throw new CliException("Expects an integer value.\n");
        }
        long seconds;
        try { // a time with HAProxy's units, seconds by default; a fraction of a second counts as one
            seconds = Units.time(v, "set timeout cli", TimeUnit.SECONDS);
        } catch (ConfigException e) {
            throw new CliException("Invalid timeout value.\n");
        }
        if (seconds < 1) {
            throw new CliException("Invalid timeout value.\n");
        }
        r.session().timeout(seconds * 1000);
    }

    private static void sockets(CliRequest r) {
        StringBuilder b = new StringBuilder("# socket lvl processes\n");
        List<Listener> cli = r.process().listeners().stream().filter(l -> l.owner().equals(CliSettings.OWNER)).toList();
        for (Listener l : cli) {
            b.append(CliSettings.socketName(l)).append(' ').append(CliSocketOptions.of(l.bindSpec()).level.keyword()).append(" all\n");
        }
        r.print(b);
    }
}
