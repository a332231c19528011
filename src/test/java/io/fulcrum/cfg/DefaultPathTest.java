package io.fulcrum.cfg;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DefaultPathTest {

    private static ConfigLine line(String text) {
        return new ConfigLine(new Source("t.cfg", 1), text, Arrays.stream(text.split(" ")).map(w -> new Token(w, 0)).toList(), null);
    }

    /** The directory in force after {@code default-path <args>} read in {@code file}. */
    private static Path after(String file, String args) throws ConfigException {
        DefaultPath d = new DefaultPath();
        d.enter(Path.of(file));
        d.parse(line("default-path " + args));
        return d.dir();
    }

    @Test
    void theDirectoryIsComputedFromTheFileNameAsHaproxyDoes(@TempDir Path tmp) throws Exception {
        Files.createDirectories(tmp.resolve("conf"));
        String file = tmp.resolve("conf/h.cfg").toString();
        assertThat(after(file, "current")).isNull();
        assertThat(after(file, "config")).isEqualTo(tmp.resolve("conf"));
        assertThat(after(file, "parent")).isEqualTo(tmp.resolve("conf/.."));
        assertThat(after(file, "origin " + tmp)).isEqualTo(tmp);
        // A name without a slash: "config" stays in the working directory, "parent" goes to "..".
        assertThat(after("h.cfg", "config")).isNull();
        assertThat(after("h.cfg", "parent")).isEqualTo(Path.of(".."));
        // "/h.cfg": HAProxy takes the empty text before the slash, so the working directory, not "/".
        assertThat(after("/h.cfg", "config")).isNull();
    }

    @Test
    void thePolicyFollowsEachFileAndEndsWithIt(@TempDir Path tmp) throws Exception {
        Files.createDirectories(tmp.resolve("a"));
        Files.createDirectories(tmp.resolve("b"));
        DefaultPath d = new DefaultPath();
        d.enter(tmp.resolve("a/1.cfg"));
        assertThat(d.dir()).isNull();
        d.parse(line("default-path config"));
        assertThat(d.dir()).isEqualTo(tmp.resolve("a"));
        d.leave();
        assertThat(d.dir()).isNull();
        d.enter(tmp.resolve("b/2.cfg"));
        assertThat(d.dir()).isEqualTo(tmp.resolve("b"));
    }

    @Test
    void sourcesFindRelativeNamesInTheirDirectory() {
        Source s = new Source("t.cfg", 1, Path.of("/etc/lb"));
        assertThat(s.path("maps/x.map")).isEqualTo(Path.of("/etc/lb/maps/x.map"));
        assertThat(s.path("/abs/x.map")).isEqualTo(Path.of("/abs/x.map"));
        assertThat(new Source("t.cfg", 1).path("x.map")).isEqualTo(Path.of("x.map"));
    }

    @Test
    void anOriginThatIsNoDirectoryIsRefused(@TempDir Path tmp) throws Exception {
        Path file = Files.writeString(tmp.resolve("f"), "");
        assertThatThrownBy(() -> after("h.cfg", "origin " + file)).isInstanceOf(ConfigException.class)
                .hasMessageEndingWith(": Not a directory.");
    }
}
