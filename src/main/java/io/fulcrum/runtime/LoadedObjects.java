package io.fulcrum.runtime;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
        mapped().forEach(m -> out.add(m.path()));
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                out.add(Path.of(entry).toAbsolutePath().normalize().toString());
            }
        }
        return List.copyOf(out);
    }

    /** An executable or shared object mapped into the process, from its first byte to its last. */
    public record Mapped(String path, long start, long last) {
    }

    /**
     * The executable and the shared objects mapped into the process, in the order of their first mapping, each from
     * its lowest to its highest address ({@code show libs}); empty where there is no /proc.
     */
    public static List<Mapped> mapped() {
        Map<String, long[]> ranges = new LinkedHashMap<>();
        String exe;
        try {
            exe = Files.readSymbolicLink(Path.of("/proc/self/exe")).toString();
            for (String line : Files.readAllLines(Path.of("/proc/self/maps"), StandardCharsets.ISO_8859_1)) {
                // address perms offset dev inode path
                String[] f = line.trim().split("\\s+", 6);
                if (f.length == 6 && f[5].startsWith("/") && (f[5].equals(exe) || SHARED_OBJECT.matcher(f[5]).matches())) {
                    int dash = f[0].indexOf('-');
                    long start = Long.parseUnsignedLong(f[0], 0, dash, 16);
                    long end = Long.parseUnsignedLong(f[0], dash + 1, f[0].length(), 16);
                    long[] r = ranges.computeIfAbsent(f[5], k -> new long[] {start, end});
                    r[0] = Math.min(r[0], start);
                    r[1] = Math.max(r[1], end);
                }
            }
        } catch (IOException | UnsupportedOperationException e) {
            return List.of(); // not Linux
        }
        List<Mapped> out = new ArrayList<>();
        ranges.forEach((path, r) -> out.add(new Mapped(path, r[0], r[1] - 1)));
        return out;
    }
}
