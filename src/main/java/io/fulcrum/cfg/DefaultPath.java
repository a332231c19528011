package io.fulcrum.cfg;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The global {@code default-path}: the directory that relative file names are found in while a configuration file is
 * read. HAProxy changes its working directory there for the time it reads each file and goes back afterwards, so
 * what it opens once the files are read (a server's {@code crt}, the server-state file, the pid file...) is found
 * from where it was started; Fulcrum gives each line's {@link Source} the directory instead ({@link Source#path}).
 */
public final class DefaultPath {
    private enum Mode { CURRENT, CONFIG, PARENT, ORIGIN }

    private Mode mode = Mode.CURRENT;
    private String origin;
    /** The file being read, as it is opened (with the {@code -C} directory); null between files. */
    private String file;
    /** Where relative names are found now; null: the working directory. */
    private Path dir;

    /** The directory of the model's configuration, created on first use. */
    public static DefaultPath of(ConfigModel model) {
        return model.part(DefaultPath.class, DefaultPath::new);
    }

    /** Where relative file names of the line being read are found; null for the working directory. */
    public Path dir() {
        return dir;
    }

    /** A file starts being read: the policy in force applies to it. */
    void enter(Path file) {
        this.file = file.toString();
        dir = directory();
    }

    /** The file was read: back to the working directory, as HAProxy's chdir back. */
    void leave() {
        file = null;
        dir = null;
    }

    /** The line {@code default-path <mode> [<path>]}, with HAProxy's checks and words; it applies from the next line. */
    public void parse(ConfigLine l) throws ConfigException {
        Mode m = switch (l.arg(1)) {
            case "current" -> Mode.CURRENT;
            case "config" -> Mode.CONFIG;
            case "parent" -> Mode.PARENT;
            case "origin" -> Mode.ORIGIN;
            default -> throw new ConfigException((l.arg(1).isEmpty() ? "missing" : "unsupported") + " default-path mode '"
                    + l.arg(1) + "' for '" + l.keyword() + "', supported modes include 'current', 'config', 'parent', and 'origin'.");
        };
        if (m == Mode.ORIGIN && l.arg(2).isEmpty()) {
            throw new ConfigException("'" + l.keyword() + " origin' expects a directory as an argument.");
        }
        mode = m;
        if (m == Mode.ORIGIN) {
            origin = l.arg(2);
        }
        Path next = directory();
        String problem = next == null ? null : unusable(next);
        if (problem != null) {
            // HAProxy's message names the starting directory, not the one it could not enter.
            String why = "Impossible to get back to directory '" + System.getProperty("user.dir") + "': " + problem;
            throw new ConfigException(m == Mode.ORIGIN
                    ? "couldn't set '" + l.keyword() + "' to origin '" + origin + "': " + why + "."
                    : "couldn't set '" + l.keyword() + "' to '" + l.arg(1) + "': " + why + ".");
        }
        dir = next;
    }

    /**
     * The directory of the policy for the current file, as HAProxy computes it: the config file's name up to its last
     * slash ("config"), with "/.." after it ("parent", ".." when the name has no slash), or the origin; a relative one
     * is found from the working directory. An empty one (a name without slash, or "/x.cfg") leaves the working directory.
     */
    private Path directory() {
        if (mode == Mode.CURRENT || file == null && mode != Mode.ORIGIN) {
            return null;
        }
        if (mode == Mode.ORIGIN) {
            return origin == null || origin.isEmpty() ? null : Path.of(origin);
        }
        int slash = file.lastIndexOf('/');
        String head = slash < 0 ? "" : file.substring(0, slash);
        if (mode == Mode.PARENT) {
            head = head.isEmpty() ? ".." : head + "/..";
        }
        return head.isEmpty() ? null : Path.of(head);
    }

    /** Why chdir(2) would fail on {@code d}, in strerror's words, or null. */
    private static String unusable(Path d) {
        if (!Files.exists(d)) {
            return "No such file or directory";
        }
        if (!Files.isDirectory(d)) {
            return "Not a directory";
        }
        return Files.isExecutable(d) ? null : "Permission denied";
    }
}
