package io.fulcrum.cfg;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class EnvironmentTest {

    @Test
    void variablesKeepTheOrderOfEnvironThenSetenvAppendsAndReplacesInPlace(@TempDir Path dir) throws Exception {
        Path environ = dir.resolve("environ");
        Files.write(environ, "Z=1\0B=x=y\0A=2\0noequals\0".getBytes());
        // the JVM's map knows one more variable than environ (set by native code since): it comes last
        Map<String, String> ordered = Environment.ordered(Map.of("A", "2", "B", "x=y", "Z", "1", "LATE", "l"), environ);
        assertThat(List.copyOf(ordered.keySet())).containsExactly("Z", "B", "A", "LATE");

        Environment env = new Environment(ordered);
        env.set("NEW", "n");
        env.set("B", "again");
        env.unset("Z");
        env.set("Z", "back");
        assertThat(env.asMap()).containsExactly(Map.entry("B", "again"), Map.entry("A", "2"), Map.entry("LATE", "l"),
                Map.entry("NEW", "n"), Map.entry("Z", "back"));
    }

    @Test
    void withoutEnvironTheJvmsVariablesAreAllKept(@TempDir Path dir) {
        assertThat(Environment.ordered(Map.of("A", "1"), dir.resolve("missing"))).containsExactly(Map.entry("A", "1"));
    }
}
