package io.fulcrum.runtime;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code -dL}: what HAProxy lists with dl_iterate_phdr once the configuration is processed, one path a line, so that
 * the list can make a tarball for a core file's analysis: the executable (here the JVM's {@code java}), the shared
 * libraries mapped into the process in their order (the JVM's, and Netty's native transport once loaded), and, the
 * Java counterpart of the code, the jar files of the class path.
 */
public final class LoadedObjects {
    private static final Pattern SHARED_OBJECT = Pattern.compile(".*\\.so(\\.[0-9.]+)?");

    private LoadedObjects() {
    }

    public static List<String> list() {
        Set<String> out = new LinkedHashSet<>();
        try {
            out.add(Files.readSymbolicLink(Path.of("/proc/self/exe")).toString());
        } catch (IOException | UnsupportedOperationException e) {
            ProcessHandle.current().info().command().ifPresent(out::add);
        }
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/maps"), StandardCharsets.ISO_8859_1)) {
                // address perms offset dev inode path
                String[] f = line.trim().split("\\s+", 6);
                if (f.length == 6 && f[5].startsWith("/") && SHARED_OBJECT.matcher(f[5]).matches()) {
                    out.add(f[5]);
                }
            }
        } catch (IOException e) {
            // not Linux: only the executable and the jars
        }
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                out.add(Path.of(entry).toAbsolutePath().normalize().toString());
            }
        }
        return List.copyOf(out);
    }
}
