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

/**
 * A set of patterns that ACLs and map converters look up, and that the CLI lists and changes (HAProxy's
 * pattern reference): a pattern file ("acl -f"), a map file (a key and a value a line), or the patterns
 * written on one ACL line (anonymous). A file is loaded once and shared by all that name it.
 *
 * <p>Entries carry a version: those of the current version are matched; "prepare" allocates a next one
 * that the CLI fills and "commit" makes current. Changes are serialized by this object's monitor and made by the
 * thread that asks for them (the CLI's, or a loop running a set-map action); lookups on the event loops never lock.
 *
 * <p>A map may hold millions of entries, and rebuilding its indexes for one "add map" cost seconds of CPU and
 * gigabytes of garbage (full GCs stopping every loop). So a change costs what it changes, each use's index being
 * layered ({@link LayeredIndex}): the base, compiled from the current entries at the last rebuild, where a removed
 * entry becomes a hole (one bit) and a new value replaces the old one in place; and the tiers of the entries added
 * since ({@link Tiering}): the newest, small, is recompiled at each addition and merged into the one before when full,
 * each tier holding {@link Tiering#ratio} times its successor's entries, and everything is rebuilt only when the
 * tiers hold a share of the base. An entry is so compiled a few times per tier, and the whole map once per share
 * added: on a map of millions, an addition costs microseconds instead of a rebuild of seconds every few thousands. A
 * lookup consults each tier (a few), and sees each entry old or new; the changes are published by a volatile write.
 * Uses whose index cannot skip holes (regex lists with back-references, "-i" string tables) are rebuilt at every
 * change, as before.
 *
 * <p>The entries are kept in slots, in order (their references grow with it): after a rebuild, the current version's
 * entries first (slot = position in the base), then the other versions', then those added since; a removed
 * entry leaves a null slot until the next rebuild. {@link KeySlots} finds a key's slots.
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

    /**
     * What lookups of one use read: its index of the entries compiled at the last rebuild (positions from 0, some
     * removed since), then its index of each tier of entries added since, oldest first, each with its removed
     * positions and its first position.
     */
    @FunctionalInterface
    public interface Layering<T extends PatternIndex> {
        T layer(PatternIndex[] layers, Holes[] holes, int[] starts);
    }

    /**
     * The sizes of the tiers of added entries: the newest holds at most {@code small} entries, each tier before it
     * {@code ratio} times as many as the one after, and their entries are folded into the base (a rebuild) once
     * they are more than the base's entries divided by {@code share}, or than {@code minFold}.
     */
    public record Tiering(int small, int ratio, int share, int minFold) {
        /**
         * A 16M-entry map takes 2M additions before a rebuild, in tiers of 128, 2K, 32K, 512K and 2M entries: each
         * addition recompiles the small tier (64 entries on average), each entry is recompiled about 8 times in each
         * larger one, and a lookup consults at most 5 tiers.
         */
        public static final Tiering DEFAULT = new Tiering(128, 16, 8, 256);

        /** The most entries of a tier at {@code level} (0 for the newest, which takes the additions). */
        long capacity(int level) {
            long c = small;
            for (int i = 0; i < level && c < Integer.MAX_VALUE; i++) {
                c *= ratio;
            }
            return c;
        }

        /** The most entries added since a rebuild to a base of {@code entries}. */
        int foldBound(int entries) {
            return Math.max(minFold, entries / share);
        }
    }

    /**
     * Entries added since the last rebuild, compiled together for each use.
     *
     * @param level   its size class (see {@link Tiering}): the tiers are kept oldest first, of decreasing levels
     * @param slots   its entries' slots, in order
     * @param holes   the positions in {@code slots} of the entries removed since it was compiled
     * @param indexes each use's index of those entries
     */
    private record Tier(int level, int[] slots, Holes holes, Object[] indexes) {
    }

    /** A use's compiled form, always the current one. */
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
            return type.cast(file.compiled[slot]);
        }
    }

    /** What one use finds for a value: the entry chosen, or null. */
    public record Match(PatternUse use, Entry entry) {
    }

    /** The entries a command designates: those of a key, or the one of a reference ({@code #<ref>}). */
    public record Selector(String key, long ref) {
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
    private final List<Layering<?>> layerings = new ArrayList<>();
    /** What lookups read: each use's layered index. Written last by every change (the volatile write that publishes it). */
    private volatile Object[] compiled = new Object[0];

    private Entry[] slots;
    /** Each slot's reference, kept when the entry is removed: sorted within [0, baseSize) and [baseSize, size). */
    private long[] refs;
    private int size;
    private int live;
    private final KeySlots keys;
    private int currVer;
    private int nextVer;
    /** Slots [0, baseSize) are the current version's entries that each use's base index was compiled from. */
    private int baseSize;
    private Holes baseHoles;
    private Object[] bases = new Object[0];
    /** The tiers of the current entries added since the last rebuild, oldest first. */
    private Tier[] tiers = new Tier[0];
    private Tiering tiering = Tiering.DEFAULT;
    /** Every use's index skips holes: changes are made in place. */
    private boolean inPlace = true;
    /** The current entries changed since the last rebuild. */
    private boolean changed;

    private PatternFile(String name, boolean twoColumns, String display, int id, List<Entry> entries) {
        this.name = name;
        this.twoColumns = twoColumns;
        this.display = new StringBuilder(display);
        this.id = id;
        size = entries.size();
        slots = entries.toArray(new Entry[capacity(tiering, size)]);
        refs = new long[slots.length];
        live = size;
        baseSize = size;
        baseHoles = new Holes(size);
        keys = new KeySlots(s -> slots[s], size);
        for (int s = 0; s < size; s++) {
            refs[s] = slots[s].ref();
            keys.add(s, slots[s].key(), s);
        }
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
        return id + " (" + (name == null ? "" : name) + ") " + display + ". curr_ver=" + Integer.toUnsignedString(currVer)
                + " next_ver=" + Integer.toUnsignedString(nextVer) + " entry_cnt=" + live;
    }

    /** The entries of the current version, in order. */
    public synchronized List<Entry> entries() {
        return entries(currVer);
    }

    /** The entries of {@code version}, in order. */
    public synchronized List<Entry> entries(int version) {
        List<Entry> out = new ArrayList<>(version == currVer ? live : 16);
        for (int s = 0; s < size; s++) {
            if (slots[s] != null && slots[s].version() == version) {
                out.add(slots[s]);
            }
        }
        return out;
    }

    public synchronized int currentVersion() {
        return currVer;
    }

    /**
     * The compiled form of {@code use} (a matching method and output...), compiled from the entries by
     * {@code compiler} unless an earlier user registered the same use. Configuration time only.
     */
    public synchronized <T extends PatternIndex> View<T> view(PatternUse use, Class<T> type, Compiler<T> compiler, Layering<T> layering)
            throws ConfigException {
        int slot = uses.indexOf(use);
        if (slot < 0) {
            uses.add(use);
            compilers.add(compiler);
            layerings.add(layering);
            slot = uses.size() - 1;
            if (changed) {
                rebuild();
            } else { // only the new use to compile (a map of millions is compiled once for each use)
                PatternIndex index = compiler.compile(Arrays.asList(slots).subList(0, baseSize));
                inPlace &= index.skipsHoles();
                bases = Arrays.copyOf(bases, uses.size());
                bases[slot] = index;
                publish();
            }
        }
        return new View<>(this, slot, type);
    }

    /** What each use finds for {@code value} (given as a string, cast to the use's input type). */
    public synchronized List<Match> lookup(String value) {
        List<Match> out = new ArrayList<>();
        Object[] all = compiled;
        for (int i = 0; i < all.length; i++) {
            PatternUse use = uses.get(i);
            Sample smp = new Sample();
            smp.setStr(value.getBytes(StandardCharsets.ISO_8859_1));
            int k = smp.cast(use.method().input()) ? ((PatternIndex) all[i]).find(smp) : -1;
            out.add(new Match(use, k < 0 ? null : slots[slotAt(k)]));
        }
        return out;
    }

    /** True when entries may be added to {@code version}: from the current one to the last prepared one. */
    public synchronized boolean accepts(int version) {
        return Integer.compareUnsigned(version - currVer, nextVer - currVer) <= 0;
    }

    /**
     * Adds {@code pairs} (key and value, or key and null) to {@code version}, in order, each checked by
     * every use first. When one is invalid, those before it stay added (as in HAProxy) and the error says why.
     */
    public synchronized void add(int version, List<String[]> pairs) throws ConfigException {
        int from = size;
        try {
            for (String[] p : pairs) {
                Entry e = entry(p[0], p[1], -1, version);
                check(e);
                append(e);
            }
        } finally {
            if (version == currVer && size > from) {
                compileAdded(from);
            }
        }
    }

    private void append(Entry e) {
        if (size == slots.length) {
            int n = Math.max(16, size + (size >> 1));
            slots = Arrays.copyOf(slots, n);
            refs = Arrays.copyOf(refs, n);
        }
        slots[size] = e;
        refs[size] = e.ref();
        keys.add(size, e.key(), size);
        size++;
        live++;
    }

    /** Fails as the file's uses would on {@code e}. */
    private void check(Entry e) throws ConfigException {
        for (Compiler<?> c : compilers) {
            c.compile(List.of(e));
        }
    }

    /** Selects the entries whose key is {@code key}. */
    public static Selector keyed(String key) {
        return new Selector(key, 0);
    }

    /** Selects the entry whose reference is {@code ref} (none when there is no such entry). */
    public static Selector referenced(long ref) {
        return new Selector(null, ref);
    }

    /** The slots {@code which} designates, in order. */
    private int[] select(Selector which) {
        if (which.key() == null) {
            int s = Arrays.binarySearch(refs, 0, baseSize, which.ref());
            if (s < 0) {
                s = Arrays.binarySearch(refs, baseSize, size, which.ref());
            }
            return s >= 0 && slots[s] != null ? new int[] {s} : new int[0];
        }
        int[][] found = {new int[4]};
        int[] count = {0};
        keys.forEach(which.key(), s -> {
            if (count[0] == found[0].length) {
                found[0] = Arrays.copyOf(found[0], count[0] * 2);
            }
            found[0][count[0]++] = s;
            return true;
        });
        int[] out = Arrays.copyOf(found[0], count[0]);
        Arrays.sort(out);
        return out;
    }

    /**
     * Adds {@code key} with {@code value} (null for an ACL) to the current version unless an entry already has
     * that key; when one has and {@code replace}, gives every entry with that key the value instead. What the
     * set-map and add-acl actions do, at once for other threads.
     */
    public synchronized void put(String key, String value, boolean replace) throws ConfigException {
        Selector same = keyed(key);
        if (select(same).length == 0) {
            add(currVer, List.<String[]>of(new String[] {key, value}));
        } else if (replace) {
            setValue(same, value);
        }
    }

    /** Removes the entries {@code which} designates; returns how many. */
    public synchronized int remove(Selector which) throws ConfigException {
        int[] found = select(which);
        boolean current = false;
        for (int s : found) {
            current |= slots[s].version() == currVer;
            if (inPlace && slots[s].version() == currVer) {
                if (s < baseSize) {
                    baseHoles.add(s);
                } else {
                    Tier t = tierOf(s);
                    t.holes().add(Arrays.binarySearch(t.slots(), s));
                }
            }
            slots[s] = null;
            live--;
        }
        if (current) {
            changed = true;
            published();
        }
        return found.length;
    }

    /** Gives the entries {@code which} designates the value {@code value}, checked by every use; returns how many. */
    public synchronized int setValue(Selector which, String value) throws ConfigException {
        int[] found = select(which);
        boolean current = false;
        for (int s : found) {
            Entry e = slots[s];
            Entry n = new Entry(e.ref(), e.key(), value, e.line(), e.version());
            if (!current && e.version() == currVer) {
                check(n);
                current = true;
            }
            slots[s] = n;
            if (inPlace && e.version() == currVer) {
                Tier t = s < baseSize ? null : tierOf(s);
                Object[] in = t == null ? bases : t.indexes();
                int position = t == null ? s : Arrays.binarySearch(t.slots(), s);
                for (Object index : in) {
                    ((PatternIndex) index).revalue(position, value);
                }
            }
        }
        if (current) {
            changed = true;
            published();
        }
        return found.length;
    }

    /** Removes every entry of {@code version}. */
    public synchronized void clear(int version) throws ConfigException {
        for (int s = 0; s < size; s++) {
            if (slots[s] != null && slots[s].version() == version) {
                slots[s] = null;
                live--;
            }
        }
        if (version == currVer) {
            rebuild();
        }
    }

    /** Allocates the next version; returns it. */
    public synchronized int prepare() {
        return ++nextVer;
    }

    /**
     * Makes {@code version} current and drops the versions before it; false (nothing done) unless it is
     * after the current one and no later than the last prepared one.
     */
    public synchronized boolean commit(int version) throws ConfigException {
        if (version == currVer || Integer.compareUnsigned(version - currVer, nextVer - currVer) > 0) {
            return false;
        }
        int span = nextVer - version;
        for (int s = 0; s < size; s++) {
            if (slots[s] != null && Integer.compareUnsigned(slots[s].version() - version, span) > 0) {
                slots[s] = null;
                live--;
            }
        }
        currVer = version;
        rebuild();
        return true;
    }

    /** Slots for {@code entries} and those added before the next rebuild: an addition never copies millions. */
    private static int capacity(Tiering tiering, int entries) {
        return entries + tiering.foldBound(entries) + 16;
    }

    /** For tests: tiers of other sizes, from the next change on. */
    public synchronized void tiering(Tiering t) {
        tiering = t;
    }

    /** For tests: the level and the number of entries (removed ones included) of each tier, oldest first. */
    public synchronized List<int[]> tiers() {
        return Arrays.stream(tiers).map(t -> new int[] {t.level(), t.slots().length}).toList();
    }

    /** The tier holding slot {@code s} (past the base, of a current entry added since the last rebuild). */
    private Tier tierOf(int s) {
        for (int i = tiers.length - 1; ; i--) {
            if (tiers[i].slots()[0] <= s) {
                return tiers[i];
            }
        }
    }

    /** The slot of the entry at position {@code k} of a lookup: in the base, or in the tiers that follow it. */
    private int slotAt(int k) {
        int start = baseSize;
        for (int t = 0; k >= start; start += tiers[t++].slots().length) {
            if (k < start + tiers[t].slots().length) {
                return tiers[t].slots()[k - start];
            }
        }
        return k;
    }

    /**
     * Puts the current entries appended from slot {@code from} into the newest tier, merging each full tier into the
     * one before it; rebuilds everything when the tiers grow past their share of the base.
     */
    private void compileAdded(int from) throws ConfigException {
        int total = size - from;
        for (Tier t : tiers) {
            total += t.slots().length;
        }
        if (!inPlace || total > tiering.foldBound(baseSize)) {
            rebuild();
            return;
        }
        List<Tier> next = new ArrayList<>(Arrays.asList(tiers));
        int[] fresh = new int[size - from];
        Arrays.setAll(fresh, i -> from + i);
        Tier newest = next.isEmpty() ? null : next.getLast();
        Tier t = newest != null && newest.level() == 0 ? compileTier(0, next.removeLast().slots(), fresh) : compileTier(0, fresh);
        while (t != null && t.slots().length > tiering.capacity(t.level())) {
            Tier before = next.isEmpty() ? null : next.getLast();
            t = before != null && before.level() == t.level() + 1
                    ? compileTier(before.level(), next.removeLast().slots(), t.slots())
                    : new Tier(t.level() + 1, t.slots(), t.holes(), t.indexes()); // nothing to merge with: it moves up
        }
        if (t == null) { // a kind of index that the base's patterns did not need
            rebuild();
            return;
        }
        next.add(t);
        changed = true;
        tiers = next.toArray(new Tier[0]);
        publish();
    }

    /** Compiles each use's index of the entries still in the slots of {@code runs}, in order; null when one cannot skip holes. */
    private Tier compileTier(int level, int[]... runs) throws ConfigException {
        int[] at = new int[Arrays.stream(runs).mapToInt(r -> r.length).sum()];
        List<Entry> entries = new ArrayList<>(at.length);
        for (int[] run : runs) {
            for (int s : run) {
                if (slots[s] != null) {
                    at[entries.size()] = s;
                    entries.add(slots[s]);
                }
            }
        }
        Object[] indexes = new Object[compilers.size()];
        for (int i = 0; i < indexes.length; i++) {
            PatternIndex index = compilers.get(i).compile(entries);
            if (!index.skipsHoles()) {
                return null;
            }
            indexes[i] = index;
        }
        return new Tier(level, Arrays.copyOf(at, entries.size()), new Holes(entries.size()), indexes);
    }

    /**
     * Compiles every use from the current entries: the slots are put in order again without the removed ones, the
     * current version's first.
     */
    private void rebuild() throws ConfigException {
        Entry[] ordered = new Entry[capacity(tiering, live)];
        long[] orderedRefs = new long[ordered.length];
        // The two runs of slots, each in order, merged: the current entries first, then the others.
        int n = 0;
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0, j = baseSize; i < baseSize || j < size; ) {
                int s = j >= size || i < baseSize && refs[i] < refs[j] ? i++ : j++;
                Entry e = slots[s];
                if (e != null && (e.version() == currVer) == (pass == 0)) {
                    ordered[n] = e;
                    orderedRefs[n++] = e.ref();
                }
            }
            if (pass == 0) {
                baseSize = n;
            }
        }
        slots = ordered;
        refs = orderedRefs;
        size = n;
        keys.clear(n);
        for (int s = 0; s < n; s++) {
            keys.add(s, slots[s].key(), s);
        }
        List<Entry> current = Arrays.asList(slots).subList(0, baseSize);
        Object[] indexes = new Object[compilers.size()];
        boolean holes = true;
        for (int i = 0; i < indexes.length; i++) {
            PatternIndex index = compilers.get(i).compile(current);
            holes &= index.skipsHoles();
            indexes[i] = index;
        }
        bases = indexes;
        baseHoles = new Holes(baseSize);
        inPlace = holes;
        tiers = new Tier[0];
        changed = false;
        publish();
    }

    /** Publishes each use's layers (a new array: lookups take one or the other). */
    private void publish() {
        int n = 1 + tiers.length;
        Holes[] holes = new Holes[n];
        int[] starts = new int[n];
        holes[0] = baseHoles;
        for (int t = 0, start = baseSize; t < tiers.length; start += tiers[t++].slots().length) {
            holes[t + 1] = tiers[t].holes();
            starts[t + 1] = start;
        }
        Object[] all = new Object[bases.length];
        for (int i = 0; i < all.length; i++) {
            PatternIndex[] layers = new PatternIndex[n];
            layers[0] = (PatternIndex) bases[i];
            for (int t = 0; t < tiers.length; t++) {
                layers[t + 1] = (PatternIndex) tiers[t].indexes()[i];
            }
            all[i] = layerings.get(i).layer(layers, holes, starts);
        }
        compiled = all;
    }

    /** Makes the holes and values written in place visible to the lookups that start after it. */
    private void published() throws ConfigException {
        if (inPlace) {
            compiled = compiled;
        } else {
            rebuild();
        }
    }
}
