package io.fulcrum.acl;

import io.fulcrum.cfg.ConfigException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A pattern file (one pattern a line, for "acl -f") or a map file (a key and a value a line, for the map
 * converters and "acl -M -f"), loaded once and shared by all that name it: HAProxy identifies a file by
 * its name. Its entries, and what each user compiled from them (a map's index for a matching method and
 * output type...), form one immutable snapshot that is replaced as a whole, so that a change at run time
 * (the CLI's "add map", "set map"...) is seen at once by every thread and never half done. ACLs copy
 * the patterns when they are parsed and do not follow such changes yet.
 */
public final class PatternFile {

    /** One line of the file: its key (the pattern), its value (null in a pattern file), its line number. */
    public record Entry(String key, String value, int line) {
    }

    /** Compiles the entries into what a user looks up; fails with HAProxy's message naming the line. */
    @FunctionalInterface
    public interface Compiler<T> {
        T compile(List<Entry> entries) throws ConfigException;
    }

    /** A user's compiled form, always taken from the current snapshot. */
    public static final class View<T> {
        private final PatternFile file;
        private final int slot;
        private final Class<T> type;

        private View(PatternFile file, int slot, Class<T> type) {
            this.file = file;
            this.slot = slot;
            this.type = type;
        }

        public T current() {
            return type.cast(file.snapshot.compiled()[slot]);
        }
    }

    private record Snapshot(List<Entry> entries, Object[] compiled) {
    }

    private final String name;
    private final boolean map;
    /** What identifies each view (so that users compiling the same thing share it), and its compiler. */
    private final List<Object> viewKeys = new ArrayList<>();
    private final List<Compiler<?>> compilers = new ArrayList<>();
    private volatile Snapshot snapshot;

    private PatternFile(String name, boolean map, List<Entry> entries) {
        this.name = name;
        this.map = map;
        this.snapshot = new Snapshot(List.copyOf(entries), new Object[0]);
    }

    /** Reads {@code name} as a map file (two columns) or a pattern file. */
    static PatternFile load(String name, boolean map) throws ConfigException {
        byte[] content;
        try {
            content = Files.readAllBytes(Path.of(name));
        } catch (IOException | RuntimeException e) {
            throw new ConfigException("failed to open pattern file <" + name + ">");
        }
        return new PatternFile(name, map, parse(new String(content, StandardCharsets.ISO_8859_1), map));
    }

    /**
     * The entries of a file's text, as HAProxy reads it: a line ends at the first CR, LF or NUL; it is a
     * comment when it starts with '#' (a blank before the '#' makes it a pattern); leading blanks are
     * skipped and blank lines ignored. A pattern is the rest of the line, trailing blanks included. In
     * a map, the key is the first word and the value what follows the blanks after it, trailing blanks
     * excluded; a key alone has an empty value.
     */
    static List<Entry> parse(String text, boolean map) {
        List<Entry> entries = new ArrayList<>();
        int lineNo = 0;
        for (int start = 0; start < text.length(); ) {
            int nl = text.indexOf('\n', start);
            int next = nl < 0 ? text.length() : nl + 1;
            lineNo++;
            int end = start;
            while (end < next && "\r\n\0".indexOf(text.charAt(end)) < 0) {
                end++;
            }
            if (end > start && text.charAt(start) != '#') {
                int k = skipBlanks(text, start, end);
                if (k < end) {
                    entries.add(map ? mapEntry(text, k, end, lineNo) : new Entry(text.substring(k, end), null, lineNo));
                }
            }
            start = next;
        }
        return entries;
    }

    private static Entry mapEntry(String text, int from, int end, int line) {
        int keyEnd = from;
        while (keyEnd < end && !blank(text.charAt(keyEnd))) {
            keyEnd++;
        }
        int v = skipBlanks(text, keyEnd, end);
        int vEnd = end;
        while (vEnd > v && blank(text.charAt(vEnd - 1))) {
            vEnd--;
        }
        return new Entry(text.substring(from, keyEnd), text.substring(v, vEnd), line);
    }

    private static int skipBlanks(String text, int from, int end) {
        while (from < end && blank(text.charAt(from))) {
            from++;
        }
        return from;
    }

    private static boolean blank(char c) {
        return c == ' ' || c == '\t';
    }

    public String name() {
        return name;
    }

    /** True for a map file (key and value), false for a pattern file. */
    public boolean isMap() {
        return map;
    }

    /** The current entries, in file order. */
    public List<Entry> entries() {
        return snapshot.entries();
    }

    /**
     * The view identified by {@code key} (a matching method and output type...), compiled from the
     * entries by {@code compiler} unless an earlier user registered it. Configuration time only.
     */
    public synchronized <T> View<T> view(Object key, Class<T> type, Compiler<T> compiler) throws ConfigException {
        int slot = viewKeys.indexOf(key);
        if (slot < 0) {
            Snapshot s = snapshot;
            T compiled = compiler.compile(s.entries());
            Object[] all = Arrays.copyOf(s.compiled(), s.compiled().length + 1);
            all[all.length - 1] = compiled;
            viewKeys.add(key);
            compilers.add(compiler);
            slot = all.length - 1;
            snapshot = new Snapshot(s.entries(), all);
        }
        return new View<>(this, slot, type);
    }

    /**
     * Replaces the entries, recompiling every view first: when one of them fails, nothing changes and
     * the error says why. Safe from any thread; lookups see the old snapshot or the new one, whole.
     */
    public synchronized void replace(List<Entry> entries) throws ConfigException {
        List<Entry> copy = List.copyOf(entries);
        Object[] all = new Object[compilers.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = compilers.get(i).compile(copy);
        }
        snapshot = new Snapshot(copy, all);
    }
}
