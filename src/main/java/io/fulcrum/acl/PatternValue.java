package io.fulcrum.acl;

import io.fulcrum.cfg.ConfigException;

import java.util.AbstractList;
import java.util.List;

/**
 * One pattern as written (on the ACL line or in a file), with the "-i" in force where it was read:
 * "-i" applies to the patterns that follow it, not to those before.
 *
 * @param file the pattern or map file it comes from, or null for a pattern of the ACL line
 * @param line its line in that file
 */
public record PatternValue(String text, boolean ignoreCase, String file, int line) {

    public PatternValue(String text, boolean ignoreCase) {
        this(text, ignoreCase, null, 0);
    }

    /**
     * The keys of {@code entries} as patterns; those read from {@code file} name their line in messages,
     * those added at run time do not. A view made as it is read: compiling a map of millions of lines
     * keeps no pattern object per line.
     */
    public static List<PatternValue> of(List<PatternFile.Entry> entries, boolean ignoreCase, String file) {
        return new AbstractList<>() {
            @Override
            public PatternValue get(int k) {
                PatternFile.Entry e = entries.get(k);
                return new PatternValue(e.key(), ignoreCase, e.line() < 0 ? null : file, e.line());
            }

            @Override
            public int size() {
                return entries.size();
            }
        };
    }

    /** {@code e} with the place of a pattern read from a file, as HAProxy reports it. */
    ConfigException locate(ConfigException e) {
        return file == null ? e : new ConfigException(e.getMessage() + " at line " + line + " of file '" + file + "'");
    }
}
