package io.fulcrum.runtime;

import java.util.EnumSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code -dM[<byte>][,<option>...]}: HAProxy's pool debugging (poisoning, tags, caches of its own allocator), read
 * as HAProxy 2.6 reads it ({@code help} prints its table, an unknown option is an error). Fulcrum's buffers come from
 * Netty's allocator, which has none of these: the options are accepted and have no effect.
 */
public final class MemoryDebug {
    private MemoryDebug() {
    }

    /** HAProxy 2.6's options: the word that sets one, the word that clears it, and what it does. */
    private enum Option {
        FAIL("fail", "no-fail", "randomly fail allocations"),
        NO_MERGE("no-merge", "merge", "disable merging of similar pools"),
        COLD_FIRST("cold-first", "hot-first", "pick cold objects first"),
        INTEGRITY("integrity", "no-integrity", "enable cache integrity checks"),
        NO_GLOBAL("no-global", "global", "disable global shared cache"),
        NO_CACHE("no-cache", "cache", "disable thread-local cache"),
        CALLER("caller", "no-caller", "save caller information in cache"),
        TAG("tag", "no-tag", "add tag at end of allocated objects"),
        POISON("poison", "no-poison", "poison newly allocated objects");

        final String set;
        final String clear;
        final String description;

        Option(String set, String clear, String description) {
            this.set = set;
            this.clear = clear;
            this.description = description;
        }
    }

    /** A leading number as strtol(3) with base 0 reads it: sign, then hexadecimal, octal or decimal digits. */
    private static final Pattern NUMBER = Pattern.compile("^\\s*[-+]?(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)");

    /**
     * What {@code -dM<spec>} asks for: null to go on, else the help to print (and exit 0).
     *
     * @throws IllegalArgumentException with HAProxy's alert for an unknown option (exit 1)
     */
    public static String parse(String spec) {
        // The debugging options of Debian's build, as -dMhelp shows them before any change.
        Set<Option> on = EnumSet.of(Option.NO_GLOBAL, Option.TAG);
        String rest = spec;
        Matcher m = NUMBER.matcher(spec);
        int end = m.find() ? m.end() : 0;
        if (end == spec.length() || spec.charAt(end) == ',') {
            // The poisoning byte (0x50 when none is given); a negative one turns poisoning off.
            String number = end > 0 ? m.group().strip() : "";
            if (number.startsWith("-") && !number.substring(1).replaceAll("(?i)^0x|0", "").isEmpty()) {
                on.remove(Option.POISON);
            } else {
                on.add(Option.POISON);
            }
            rest = spec.substring(end);
        }
        // help shows the settings as they were before this option's words (only the poisoning byte is set already).
        Set<Option> before = EnumSet.copyOf(on);
        for (String feature : rest.split(",", -1)) {
            if (feature.isEmpty()) {
                continue;
            }
            if (feature.equals("help")) {
                return help(before);
            }
            Option found = null;
            for (Option o : Option.values()) {
                if (feature.equals(o.set) || feature.equals(o.clear)) {
                    found = o;
                }
            }
            if (found == null) {
                throw new IllegalArgumentException("-dM: unknown pool debugging feature <" + feature + ">");
            }
            if (feature.equals(found.set)) {
                on.add(found);
            } else {
                on.remove(found);
            }
        }
        return null;
    }

    private static String help(Set<Option> on) {
        StringBuilder b = new StringBuilder("""
                -dM alone enables memory poisonning with byte 0x50 on allocation. A numeric
                value may be appended immediately after -dM to use another value (0 supported).
                Then an optional list of comma-delimited keywords may be appended to set or
                clear some debugging options ('*' marks the current setting):

                    set               clear            description
                  -----------------+-----------------+-----------------------------------------
                """);
        for (Option o : Option.values()) {
            boolean set = on.contains(o);
            b.append(String.format("  %s %-15s|%s %-15s| %s%n", set ? "*" : " ", o.set, set ? " " : "*", o.clear, o.description));
        }
        return b.append('\n').toString(); // (HAProxy prints the message and a newline)
    }
}
