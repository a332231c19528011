package io.fulcrum.cli;

import java.util.List;

/**
 * A runtime command: the fixed words that select it ("show stat"), its usage and help as {@code help}
 * lists them, the level it needs, and what it does.
 *
 * @param usage the synopsis shown by {@code help}, e.g. "show stat [desc|json|no-maint|typed|up]*"
 */
public record CliCommand(List<String> words, String usage, String help, CliLevel level, CliHandler handler) {

    public CliCommand {
        words = List.copyOf(words);
    }

    /** The command's line in {@code help}, as HAProxy aligns it. */
    String helpLine() {
        return String.format("  %-40s: %s%n", usage, help);
    }

    /** The request's first words are this command's. */
    boolean matches(List<String> args) {
        if (args.size() < words.size()) {
            return false;
        }
        for (int i = 0; i < words.size(); i++) {
            if (!words.get(i).equals(args.get(i))) {
                return false;
            }
        }
        return true;
    }
}
