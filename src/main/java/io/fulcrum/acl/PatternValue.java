package io.fulcrum.acl;

import io.fulcrum.cfg.ConfigException;

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

    /** {@code e} with the place of a pattern read from a file, as HAProxy reports it. */
    ConfigException locate(ConfigException e) {
        return file == null ? e : new ConfigException(e.getMessage() + " at line " + line + " of file '" + file + "'");
    }
}
