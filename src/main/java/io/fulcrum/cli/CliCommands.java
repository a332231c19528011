package io.fulcrum.cli;

import io.fulcrum.cfg.Registry;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Every runtime command, registered by the subsystem that owns it (a registry component). */
public final class CliCommands {
    /** Listed last by {@code help}, as HAProxy does. */
    private static final List<String> SESSION_COMMANDS = List.of("help", "prompt", "quit");

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
        CliCommand c = new CliCommand(List.of(words.split(" ")), usage, help, level, handler);
        if (commands.stream().anyMatch(o -> o.words().equals(c.words()))) {
            throw new IllegalStateException("CLI command '" + words + "' registered twice");
        }
        commands.add(c);
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
     * The commands {@code help} lists, in its order: by usage, the session's own last. As in HAProxy, the
     * list does not depend on the level: a command the level does not allow answers "Permission denied".
     */
    List<CliCommand> visible() {
        return commands.stream()
                .sorted(Comparator.comparing((CliCommand c) -> SESSION_COMMANDS.indexOf(c.words().get(0)))
                        .thenComparing(CliCommand::usage))
                .toList();
    }

    /** What {@code help} prints: every command. */
    String help() {
        StringBuilder b = new StringBuilder("The following commands are valid at this level:\n");
        visible().forEach(c -> b.append(c.helpLine()));
        return b.toString();
    }

    /** What {@code help <words>} prints: the commands starting with those words, else the nearest ones. */
    String helpFor(List<String> words) {
        List<CliCommand> matching = visible().stream().filter(c -> startsWith(c, words)).toList();
        if (matching.isEmpty()) {
            matching = CommandSimilarity.closest(words, visible(), 5);
        }
        StringBuilder b = new StringBuilder("The following commands are valid at this level:\n");
        matching.forEach(c -> b.append(c.helpLine()));
        sessionCommands(matching).forEach(c -> b.append(c.helpLine()));
        return b.toString();
    }

    private static boolean startsWith(CliCommand c, List<String> words) {
        for (int i = 0; i < words.size(); i++) {
            if (i >= c.words().size() || !c.words().get(i).equals(words.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** help, prompt and quit, which close every suggestion list, unless the list has them already. */
    private List<CliCommand> sessionCommands(List<CliCommand> listed) {
        return visible().stream().filter(c -> SESSION_COMMANDS.contains(c.words().get(0)) && !listed.contains(c)).toList();
    }

    /**
     * What an unknown command gets: the commands whose words look most like it (the session's own
     * commands always), else the whole list.
     */
    String unknown(List<String> args) {
        List<CliCommand> close = CommandSimilarity.closest(args, visible(), 5);
        if (close.isEmpty()) {
            return "Unknown command. Please enter one of the following commands only :\n" + help().substring(help().indexOf('\n') + 1);
        }
        StringBuilder b = new StringBuilder("Unknown command, but maybe one of the following ones is a better match:\n");
        close.forEach(c -> b.append(c.helpLine()));
        sessionCommands(close).forEach(c -> b.append(c.helpLine()));
        return b.toString();
    }
}
