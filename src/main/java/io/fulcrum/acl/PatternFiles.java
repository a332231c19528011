package io.fulcrum.acl;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Source;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every pattern set of a configuration (HAProxy's pattern references): the pattern and map files by
 * name, each read once however many ACLs and map converters use it, and the patterns of each ACL line.
 * The CLI finds them by name or by {@code #<id>}.
 */
public final class PatternFiles {
    private final Map<String, PatternFile> files = new LinkedHashMap<>();
    /** In the order they were created, until numbered; then by id. */
    private final List<PatternFile> all = new ArrayList<>();
    private boolean numbered;

    /** The registry's files, created on first use. */
    public static PatternFiles of(Registry registry) {
        return registry.component(PatternFiles.class, PatternFiles::new);
    }

    /**
     * The file {@code name}, read on first use as a map file or a pattern file. A file is one or the
     * other for the whole configuration, as in HAProxy.
     *
     * @param byMap a map converter uses it (else an ACL)
     * @param where the configuration line that uses it, or null
     */
    public synchronized PatternFile load(String name, boolean twoColumns, boolean byMap, Source where) throws ConfigException {
        PatternFile f = files.get(name);
        if (f == null) {
            // Files are known by their name, as in HAProxy, even when default-path finds them elsewhere.
            Path path = where == null ? Path.of(name) : where.path(name);
            f = PatternFile.load(name, path, twoColumns, "pattern loaded from file '" + name + "' used by " + (twoColumns ? "map" : "acl")
                    + " at " + place(where));
            files.put(name, f);
            all.add(f);
            f.usedBy(byMap, null);
        } else if (f.isMap() != twoColumns) {
            throw new ConfigException("The file \"" + name + "\" is already used as " + columns(f.isMap())
                    + " column file and cannot be used by as " + columns(twoColumns) + " column file.");
        } else {
            f.usedBy(byMap, place(where));
        }
        return f;
    }

    /**
     * The patterns of an ACL line ({@code keyword} is its criterion's), listed by "show acl".
     *
     * @param id the id given by "-u", or -1
     */
    synchronized PatternFile anonymous(String keyword, Source where, int id) throws ConfigException {
        if (id >= 0 && all.stream().anyMatch(f -> f.id == id)) {
            throw new ConfigException("the unique id '" + id + "' is already used");
        }
        PatternFile f = PatternFile.anonymous("acl '" + keyword + "' " + place(where), id);
        f.usedBy(false, null);
        all.add(f);
        return f;
    }

    /** "file 'haproxy.cfg' line 12", as HAProxy names a place. */
    private static String place(Source where) {
        return where == null ? "file '' line 0" : "file '" + where.file() + "' line " + where.line();
    }

    private static String columns(boolean map) {
        return map ? "two" : "one";
    }

    public synchronized PatternFile get(String name) {
        return files.get(name);
    }

    /** Every pattern set, by id. */
    public synchronized List<PatternFile> all() {
        number();
        return List.copyOf(all);
    }

    /** The pattern set named {@code ref}: "#<id>" or a file name; null when there is none. */
    public synchronized PatternFile find(String ref) {
        if (ref.startsWith("#")) {
            int id;
            try {
                id = Integer.parseInt(ref.substring(1));
            } catch (NumberFormatException e) {
                return null;
            }
            number();
            return all.stream().filter(f -> f.id == id).findFirst().orElse(null);
        }
        return files.get(ref);
    }

    /**
     * Numbers the sets once the configuration is read, as HAProxy does: those without "-u" take the
     * lowest ids that no "-u" took, in the order they were created; the list is then ordered by id.
     */
    private void number() {
        if (numbered) {
            return;
        }
        numbered = true;
        Set<Integer> taken = new HashSet<>();
        all.forEach(f -> taken.add(f.id));
        int next = 0;
        for (PatternFile f : all) {
            if (f.id < 0) {
                while (taken.contains(next)) {
                    next++;
                }
                f.id = next++;
            }
        }
        all.sort(Comparator.comparingInt(PatternFile::id));
    }
}
