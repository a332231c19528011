package io.fulcrum.cfg;

import java.nio.file.Path;

/**
 * Where a configuration line came from: a file name as given by the user, a 1-based line number, and the directory
 * that relative file names of the line are found in ({@code default-path}), null for the process's working directory.
 */
public record Source(String file, int line, Path dir) {

    public Source(String file, int line) {
        this(file, line, null);
    }

    /**
     * A file name of this line as HAProxy opens it while it reads the line: a relative one from the {@code default-path}
     * directory of that moment (HAProxy changes its working directory there while it reads the file).
     */
    public Path path(String name) {
        return dir == null || name.startsWith("/") ? Path.of(name) : dir.resolve(name);
    }

    /** HAProxy's location format, {@code FILE:LINE}. */
    @Override
    public String toString() {
        return file + ":" + line;
    }
}
