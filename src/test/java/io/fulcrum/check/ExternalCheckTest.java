package io.fulcrum.check;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;

/** How an external check's command is found: as execvp finds it in {@code external-check path}, not in the JVM's PATH. */
class ExternalCheckTest {

    @TempDir
    Path dir;

    @Test
    void aCommandWithASlashIsTakenAsWritten() {
        assertThat(ExternalCheck.resolve("/no/such/check", "")).isEqualTo("/no/such/check");
        assertThat(ExternalCheck.resolve("sub/check", "/bin")).isEqualTo("sub/check");
    }

    @Test
    void aBareNameIsLookedUpInTheCheckPathOnly() throws Exception {
        Files.createFile(dir.resolve("plain"));
        Path exec = Files.createFile(dir.resolve("exec"));
        Files.setPosixFilePermissions(exec, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThat(ExternalCheck.resolve("exec", "/nonexistent:" + dir)).isEqualTo(exec.toString());
        assertThat(ExternalCheck.resolve("plain", dir.toString())).as("not executable").isNull();
        assertThat(ExternalCheck.resolve("sh", "")).as("the JVM's PATH is not searched").isNull();
        assertThat(ExternalCheck.resolve("sh", "/bin")).isEqualTo("/bin/sh");
    }
}
