package io.fulcrum.acl;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.sample.Sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * A set of patterns that ACLs and map converters look up, and that the CLI lists and changes (HAProxy's
 * pattern reference): a pattern file ("acl -f"), a map file (a key and a value a line), or the patterns
 * written on one ACL line (anonymous). A file is loaded once and shared by all that name it.
 *
 * <p>Entries carry a version: those of the current version are matched; "prepare" allocates a next one
 * that the CLI fills and "commit" makes current. The entries and what each use compiled from the current
 * ones form one immutable snapshot, replaced whole by one volatile write: lookups on the event loops
 * never lock and see a change entirely or not at all. Changes are serialized by this object's monitor and
 * compiled by the thread that makes them (the CLI's, never a loop).
 */
public final class PatternFile {

    /**
     * One pattern, or one key and value.
     *
     * @param ref     its stable identifier (the {@code 0x...} of "show map", usable as {@code #<ref>})
     * @param value   null for a pattern without value
     * @param line    its line in the file, or -1 when added at run time
     * @param version the version it belongs to
     */
    public record Entry(long ref, String key, String value, int line, int version) {
    }

    /** Compiles the current entries for one use; fails with HAProxy's message for the first invalid one. */
    @FunctionalInterface
    public interface Compiler<T extends PatternIndex> {
        T compile(List<Entry> entries) throws ConfigException;
    }

    /** A use's compiled form, always taken from the current snapshot. */
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

    /** What one use finds for a value: the entry chosen, or null. */
    public record Match(PatternUse use, Entry entry) {
    }

    /** @param current the entries of {@code currVer}, in order: what {@code compiled} was built from */
    private record Snapshot(List<Entry> entries, List<Entry> current, int currVer, int nextVer, Object[] compiled) {
    }

    /** Entry references look like addresses, as HAProxy's do, and are never reused. */
    private static final AtomicLong REFS = new AtomicLong(0x5a0000001000L);

    private final String name;
    private final boolean twoColumns;
    private final StringBuilder display;
    private boolean map;
    private boolean acl;
    /** The id of "#<id>": set by "-u" or numbered once the configuration is read; -1 until then. */
    int id;
    private final List<PatternUse> uses = new ArrayList<>();
    private final List<Compiler<?>> compilers = new ArrayList<>();
    private volatile Snapshot snapshot;

    private PatternFile(String name, boolean twoColumns, String display, int id, List<Entry> entries) {
        this.name = name;
        this.twoColumns = twoColumns;
        this.display = new StringBuilder(display);
        this.id = id;
        this.snapshot = new Snapshot(List.copyOf(entries), List.copyOf(entries), 0, 0, new Object[0]);
    }

    /** Reads {@code name}, found at {@code path}, as a map file (two columns) or a pattern file. */
    static PatternFile load(String name, Path path, boolean twoColumns, String display) throws ConfigException {
        byte[] content;
        try {
            content = Files.readAllBytes(path);
        } catch (IOException | RuntimeException e) {
            throw new ConfigException("failed to open pattern file <" + name + ">");
        }
        return new PatternFile(name, twoColumns, display, -1, parse(new String(content, StandardCharsets.ISO_8859_1), twoColumns));
    }

    /** The patterns of an ACL line, which it adds itself. */
    static PatternFile anonymous(String display, int id) {
        return new PatternFile(null, false, display, id, List.of());
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
                    entries.add(map ? mapEntry(text, k, end, lineNo) : entry(text.substring(k, end), null, lineNo, 0));
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
        return entry(text.substring(from, keyEnd), text.substring(v, vEnd), line, 0);
    }

    private static Entry entry(String key, String value, int line, int version) {
        return new Entry(REFS.getAndAdd(0x50), key, value, line, version);
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

    /** The file's name, or null for the patterns of an ACL line. */
    public String name() {
        return name;
    }

    /** True for a map file (key and value), false for a pattern file. */
    public boolean isMap() {
        return twoColumns;
    }

    public int id() {
        return id;
    }

    /** Records a user of the file at configuration time: its kind and where it is, for the CLI's listings. */
    synchronized void usedBy(boolean byMap, String where) {
        if (byMap) {
            map = true;
        } else {
            acl = true;
        }
        if (where != null) {
            display.append(", by ").append(twoColumns ? "map" : "acl").append(" at ").append(where);
        }
    }

    /** Used by a map converter (listed by "show map"). */
    public synchronized boolean usedByMap() {
        return map;
    }

    /** Used by an ACL (listed by "show acl"). */
    public synchronized boolean usedByAcl() {
        return acl;
    }

    /** The line of "show map"/"show acl" that describes the file, without its end of line. */
    public synchronized String describe() {
        Snapshot s = snapshot;
        return id + " (" + (name == null ? "" : name) + ") " + display + ". curr_ver=" + Integer.toUnsignedString(s.currVer())
                + " next_ver=" + Integer.toUnsignedString(s.nextVer()) + " entry_cnt=" + s.entries().size();
    }

    /** The entries of the current version, in order. */
    public List<Entry> entries() {
        return snapshot.current();
    }

    /** The entries of {@code version}, in order. */
    public List<Entry> entries(int version) {
        Snapshot s = snapshot;
        return version == s.currVer() ? s.current() : s.entries().stream().filter(e -> e.version() == version).toList();
    }

    public int currentVersion() {
        return snapshot.currVer();
    }

    /**
     * The compiled form of {@code use} (a matching method and output...), compiled from the entries by
     * {@code compiler} unless an earlier user registered the same use. Configuration time only.
     */
    public synchronized <T extends PatternIndex> View<T> view(PatternUse use, Class<T> type, Compiler<T> compiler) throws ConfigException {
        int slot = uses.indexOf(use);
        if (slot < 0) {
            Snapshot s = snapshot;
            Object[] all = Arrays.copyOf(s.compiled(), s.compiled().length + 1);
            all[all.length - 1] = compiler.compile(s.current());
            uses.add(use);
            compilers.add(compiler);
            slot = all.length - 1;
            snapshot = new Snapshot(s.entries(), s.current(), s.currVer(), s.nextVer(), all);
        }
        return new View<>(this, slot, type);
    }

    /** What each use finds for {@code value} (given as a string, cast to the use's input type). */
    public List<Match> lookup(String value) {
        Snapshot s = snapshot;
        List<Match> out = new ArrayList<>();
        for (int i = 0; i < s.compiled().length; i++) {
            PatternUse use = uses.get(i);
            Sample smp = new Sample();
            smp.setStr(value.getBytes(StandardCharsets.ISO_8859_1));
            int k = smp.cast(use.method().input()) ? ((PatternIndex) s.compiled()[i]).find(smp) : -1;
            out.add(new Match(use, k < 0 ? null : s.current().get(k)));
        }
        return out;
    }

    /** True when entries may be added to {@code version}: from the current one to the last prepared one. */
    public boolean accepts(int version) {
        Snapshot s = snapshot;
        return Integer.compareUnsigned(version - s.currVer(), s.nextVer() - s.currVer()) <= 0;
    }

    /**
     * Adds {@code pairs} (key and value, or key and null) to {@code version}, in order, each checked by
     * every use first. When one is invalid, those before it stay added (as in HAProxy) and the error says why.
     */
    public synchronized void add(int version, List<String[]> pairs) throws ConfigException {
        Snapshot s = snapshot;
        List<Entry> added = new ArrayList<>(pairs.size());
        try {
            for (String[] p : pairs) {
                Entry e = entry(p[0], p[1], -1, version);
                check(e);
                added.add(e);
            }
        } finally {
            if (!added.isEmpty()) {
                List<Entry> all = new ArrayList<>(s.entries().size() + added.size());
                all.addAll(s.entries());
                all.addAll(added);
                publish(all, s.currVer(), s.nextVer(), version == s.currVer());
            }
        }
    }

    /** Fails as the file's uses would on {@code e}. */
    private void check(Entry e) throws ConfigException {
        for (Compiler<?> c : compilers) {
            c.compile(List.of(e));
        }
    }

    /** Selects the entries whose key is {@code key}. */
    public static Predicate<Entry> keyed(String key) {
        return e -> e.key().equals(key);
    }

    /**
     * Adds {@code key} with {@code value} (null for an ACL) to the current version unless an entry already has
     * that key; when one has and {@code replace}, gives every entry with that key the value instead. What the
     * set-map and add-acl actions do, at once for other threads.
     */
    public synchronized void put(String key, String value, boolean replace) throws ConfigException {
        Predicate<Entry> same = keyed(key);
        if (snapshot.entries().stream().noneMatch(same)) {
            add(currentVersion(), List.<String[]>of(new String[] {key, value}));
        } else if (replace) {
            setValue(same, value);
        }
    }

    /** Removes the entries {@code which} selects; returns how many. */
    public synchronized int remove(Predicate<Entry> which) throws ConfigException {
        Snapshot s = snapshot;
        List<Entry> kept = s.entries().stream().filter(which.negate()).toList();
        int removed = s.entries().size() - kept.size();
        if (removed > 0) {
            publish(kept, s.currVer(), s.nextVer(), true);
        }
        return removed;
    }

    /** Gives the entries {@code which} selects the value {@code value}, checked by every use; returns how many. */
    public synchronized int setValue(Predicate<Entry> which, String value) throws ConfigException {
        Snapshot s = snapshot;
        List<Entry> all = new ArrayList<>(s.entries());
        int changed = 0;
        for (int i = 0; i < all.size(); i++) {
            Entry e = all.get(i);
            if (which.test(e)) {
                Entry n = new Entry(e.ref(), e.key(), value, e.line(), e.version());
                if (changed++ == 0) {
                    check(n);
                }
                all.set(i, n);
            }
        }
        if (changed > 0) {
            publish(all, s.currVer(), s.nextVer(), true);
        }
        return changed;
    }

    /** Removes every entry of {@code version}. */
    public void clear(int version) throws ConfigException {
        remove(e -> e.version() == version);
    }

    /** Allocates the next version; returns it. */
    public synchronized int prepare() throws ConfigException {
        Snapshot s = snapshot;
        publish(s.entries(), s.currVer(), s.nextVer() + 1, false);
        return s.nextVer() + 1;
    }

    /**
     * Makes {@code version} current and drops the versions before it; false (nothing done) unless it is
     * after the current one and no later than the last prepared one.
     */
    public synchronized boolean commit(int version) throws ConfigException {
        Snapshot s = snapshot;
        if (version == s.currVer() || Integer.compareUnsigned(version - s.currVer(), s.nextVer() - s.currVer()) > 0) {
            return false;
        }
        int span = s.nextVer() - version;
        List<Entry> kept = s.entries().stream().filter(e -> Integer.compareUnsigned(e.version() - version, span) <= 0).toList();
        publish(kept, version, s.nextVer(), true);
        return true;
    }

    /** Publishes new entries, with every use recompiled when the current version's entries changed. */
    private void publish(List<Entry> all, int currVer, int nextVer, boolean recompile) throws ConfigException {
        Snapshot s = snapshot;
        if (!recompile) {
            snapshot = new Snapshot(List.copyOf(all), s.current(), currVer, nextVer, s.compiled());
            return;
        }
        List<Entry> current = all.stream().filter(e -> e.version() == currVer).toList();
        Object[] compiled = new Object[compilers.size()];
        for (int i = 0; i < compiled.length; i++) {
            compiled[i] = compilers.get(i).compile(current);
        }
        snapshot = new Snapshot(List.copyOf(all), current, currVer, nextVer, compiled);
    }
}
