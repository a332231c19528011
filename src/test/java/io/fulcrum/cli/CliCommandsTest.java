package io.fulcrum.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CliCommandsTest {
    private final CliCommands commands = new CliCommands();

    CliCommandsTest() {
        for (String w : List.of("show stat", "show info", "show servers state", "show servers conn", "set server")) {
            commands.add(w, w + " [args]", "does " + w, CliLevel.USER, r -> { });
        }
        commands.add("debug dev fd", "debug dev fd", "scans", CliLevel.ADMIN, CliCommand.Mode.EXPERT, r -> { });
        commands.addUnlisted("help", CliLevel.USER, r -> { });
    }

    @Test
    void theCommandWithTheMostMatchingWordsWins() {
        commands.add("show", "show", "shows", CliLevel.USER, r -> { });
        assertThat(commands.find(List.of("show", "servers", "state", "be")).words()).containsExactly("show", "servers", "state");
        assertThat(commands.find(List.of("show", "nothing")).words()).containsExactly("show");
        assertThat(commands.find(List.of("shows"))).isNull();
    }

    @Test
    void aCommandIsRegisteredOnce() {
        assertThatThrownBy(() -> commands.add("show stat", "x", "y", CliLevel.USER, r -> { }))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void helpIsSortedByUsageEndsWithTheSessionCommandsAndShowsOnlyTheModesSwitchedOn() {
        String normal = commands.usage(List.of(), true, m -> m == CliCommand.Mode.NORMAL);
        assertThat(normal.lines().skip(1).map(l -> l.substring(2, l.indexOf(' ', 2)))).containsExactly(
                "set", "show", "show", "show", "show", "help", "prompt", "quit");
        assertThat(commands.usage(List.of(), true, m -> true)).contains("  debug dev fd                            : scans\n");
    }
}
