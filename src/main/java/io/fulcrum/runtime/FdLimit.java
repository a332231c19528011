package io.fulcrum.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The process's soft limit on open files, read from {@code /proc/self/limits} (the JVM has no API for it) once, at
 * start: a chroot hides /proc afterwards, and nothing changes the limit.
 */
public final class FdLimit {
    private static final long SOFT = read();

    private FdLimit() {
    }

    public static long soft() {
        return SOFT;
    }

    private static long read() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    String[] f = line.substring("Max open files".length()).trim().split("\\s+");
                    return f[0].equals("unlimited") ? 1_048_576 : Long.parseLong(f[0]);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // Not Linux, or an unexpected format: fall back to a common default.
        }
        return 1024;
    }
}
