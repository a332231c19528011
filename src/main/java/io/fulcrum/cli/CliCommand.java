package io.fulcrum.cli;

import java.util.List;

/**
 * A runtime command: the fixed words that select it ("show stat"), its usage and help as {@code help}
 * lists them, the level it needs, the session mode it needs, and what it does.
 *
 * @param usage the synopsis shown by {@code help}, e.g. "show stat [desc|json|no-maint|typed|up]*"; null for a
 *              command {@code help} never lists (the session's own: help, prompt, quit, the modes)
 * @param handler null for the master CLI's commands, which the master runs itself (MasterCli)
 */
public record CliCommand(List<String> words, String usage, String help, CliLevel level, Mode mode, CliHandler handler) {

    /** What a session must have switched on to see and run the command (HAProxy's ACCESS_EXPERT, ACCESS_EXPERIMENTAL). */
    public enum Mode {
        NORMAL("", ""),
        EXPERT("expert", "This command is restricted to expert mode only.\n"),
        EXPERIMENTAL("experimental", "This command is restricted to experimental mode only.\n");

        final String keyword;
        /** What running the command outside its mode answers. */
        final String refusal;

        Mode(String keyword, String refusal) {
            this.keyword = keyword;
            this.refusal = refusal;
        }
    }

    public CliCommand {
        words = List.copyOf(words);
    }

    /** The command's line in {@code help}, as HAProxy aligns it. */
    String helpLine() {
        return line(usage, help);
    }

    static String line(String usage, String help) {
        return String.format("  %-40s: %s\n", usage, help);
    }

    /** The request's first words are this command's. */
    boolean matches(List<String> args) {
        return matchingWords(args) == words.size();
    }

    /** How many of the request's first words are this command's first ones. */
    int matchingWords(List<String> args) {
        int n = 0;
        while (n < words.size() && n < args.size() && words.get(n).equals(args.get(n))) {
            n++;
        }
        return n;
    }
}
