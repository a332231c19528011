package io.fulcrum.cli;

import io.fulcrum.cfg.Registry;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/** Every runtime command, registered by the subsystem that owns it (a registry component). */
public final class CliCommands {
    /** Ends every list {@code help} prints: the session's own commands, which have no synopsis of their own. */
    private static final String SESSION_LINES = CliCommand.line("help [<command>]", "list matching or all commands")
            + CliCommand.line("prompt", "toggle interactive mode with prompt")
            + CliCommand.line("quit", "disconnect");
    /** HAProxy's CLI_MAX_MATCHES: the most near misses an unknown command is answered with. */
    private static final int MAX_MATCHES = 5;

    private final List<CliCommand> commands = new ArrayList<>();

    public static CliCommands of(Registry registry) {
        return registry.component(CliCommands.class, CliCommands::new);
    }

    /**
     * Adds a command.
     *
     * @param words the words that select it, space-separated ("show stat")
     * @param usage its synopsis for {@code help}
     */
    public void add(String words, String usage, String help, CliLevel level, CliHandler handler) {
        add(words, usage, help, level, CliCommand.Mode.NORMAL, handler);
    }

    /** Adds a command that only a session in {@code mode} sees and may run. */
    public void add(String words, String usage, String help, CliLevel level, CliCommand.Mode mode, CliHandler handler) {
        CliCommand c = new CliCommand(List.of(words.split(" ")), usage, help, level, mode, handler);
        if (commands.stream().anyMatch(o -> o.words().equals(c.words()))) {
            throw new IllegalStateException("CLI command '" + words + "' registered twice");
        }
        commands.add(c);
    }

    /** Adds a command {@code help} never lists. */
    void addUnlisted(String words, CliLevel level, CliHandler handler) {
        add(words, null, null, level, handler);
    }

    /** Every command's words ("show stat"), sorted. */
    public List<String> names() {
        return commands.stream().map(c -> String.join(" ", c.words())).sorted().toList();
    }

    /** The command with the most words matching the request's first ones, or null. */
    CliCommand find(List<String> args) {
        CliCommand best = null;
        for (CliCommand c : commands) {
            if (c.matches(args) && (best == null || c.words().size() > best.words().size())) {
                best = c;
            }
        }
        return best;
    }

    /**
     * What {@code help [words]} (help true, with the words after "help") or an unknown or empty command (help
     * false) answers, as HAProxy 2.6 builds it (cli_gen_usage_msg): the commands the session's modes show that match
     * the most leading words of {@code args}; when words remain after those, only the ones whose next words look
     * most like them. The list is sorted by synopsis and ends with the session's own commands.
     *
     * @param shown the modes the session has switched on
     */
    String usage(List<String> args, boolean help, Predicate<CliCommand.Mode> shown) {
        return usage(commands.stream().filter(c -> shown.test(c.mode())).toList(), args, help);
    }

    /** {@link #usage(List, boolean, Predicate)} among {@code visible} (the master CLI's commands, say). */
    public static String usage(List<CliCommand> visible, List<String> args, boolean help) {
        int length = 0;
        for (CliCommand c : visible) {
            length = Math.max(length, c.matchingWords(args));
        }
        int matched = length;
        List<CliCommand> candidates = visible.stream()
                .filter(c -> c.usage() != null && c.words().size() >= matched && c.matchingWords(args) == matched).toList();
        List<CliCommand> entries = args.size() > length ? nearest(args, length, candidates) : List.of();
        if (entries.isEmpty()) {
            entries = candidates;
        }
        StringBuilder b = new StringBuilder(help ? "The following commands are valid at this level:\n"
                : args.isEmpty() ? "Unknown command. Please enter one of the following commands only:\n"
                : "Unknown command, but maybe one of the following ones is a better match:\n");
        entries.stream().sorted(Comparator.comparing(CliCommand::usage)).forEach(c -> b.append(c.helpLine()));
        return b.append(SESSION_LINES).toString();
    }

    /**
     * The candidates whose words after the {@code length} matching ones look most like the request's: up to
     * {@link #MAX_MATCHES} of them, the nearest first (the first registered among equals), none farther than
     * two and a half times the nearest, and none whose distance reaches two and a half times both texts' length.
     */
    private static List<CliCommand> nearest(List<String> args, int length, List<CliCommand> candidates) {
        record Scored(CliCommand command, int distance) {
        }
        WordFingerprint typed = WordFingerprint.of(args.subList(length, args.size()));
        List<Scored> best = new ArrayList<>();
        for (CliCommand c : candidates) {
            WordFingerprint known = WordFingerprint.of(c.words().subList(length, c.words().size()));
            int d = typed.distance(known);
            if (d < 5 * (typed.length() + known.length()) / 2) {
                int at = best.size();
                while (at > 0 && best.get(at - 1).distance() > d) {
                    at--;
                }
                if (at < MAX_MATCHES) {
                    best.add(at, new Scored(c, d));
                    if (best.size() > MAX_MATCHES) {
                        best.removeLast();
                    }
                }
            }
        }
        List<CliCommand> out = new ArrayList<>();
        for (Scored s : best) {
            if (s.distance() > 5 * best.getFirst().distance() / 2) {
                break;
            }
            out.add(s.command());
        }
        return out;
    }
}
