package io.fulcrum.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CliCommandsTest {
    private final CliCommands commands = new CliCommands();

    CliCommandsTest() {
        for (String w : List.of("show stat", "show info", "show servers state", "show servers conn", "set server", "help", "prompt", "quit")) {
            commands.add(w, w + " [args]", "does " + w, CliLevel.USER, r -> { });
        }
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
    void helpIsSortedByUsageWithTheSessionCommandsLast() {
        assertThat(commands.help().lines().skip(1).map(l -> l.substring(2, l.indexOf(' ', 2)))).containsExactly(
                "set", "show", "show", "show", "show", "help", "prompt", "quit");
    }

    @Test
    void aTypoIsAnsweredWithTheNearestCommands() {
        String answer = commands.unknown(List.of("shwo", "stat"));
        assertThat(answer).startsWith("Unknown command, but maybe one of the following ones is a better match:\n"
                + "  show stat [args]").endsWith("  quit [args]                             : does quit\n");
    }

    @Test
    void nothingCloseGivesTheWholeList() {
        assertThat(commands.unknown(List.of("zzzzzzzzzzzz"))).startsWith("Unknown command. Please enter one of the following commands only :\n")
                .contains("  show info [args]");
    }
}
