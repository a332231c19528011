package io.fulcrum.proxy;

/** Which kinds of proxy section a keyword applies to, as in HAProxy's keyword matrix (section 4.1). */
public final class Capability {
    private Capability() {
    }

    public static final int DEFAULTS = 1;
    public static final int FRONTEND = 2;
    public static final int BACKEND = 4;
    public static final int ALL = DEFAULTS | FRONTEND | BACKEND;
    /** Frontend-side keywords, also allowed in defaults (and so in listen). */
    public static final int FE = DEFAULTS | FRONTEND;
    /** Backend-side keywords, also allowed in defaults (and so in listen). */
    public static final int BE = DEFAULTS | BACKEND;
    /**
     * Set on keywords that are an error, not just ignored with a warning, in a section lacking the
     * capability (HAProxy refuses a {@code server} in a frontend but only warns about a {@code bind} in a
     * backend).
     */
    public static final int STRICT = 8;
    /** Set on options that have no {@code no option} form: HAProxy refuses the negation. */
    public static final int NO_NEGATION = 16;
    /** Set on keywords that also take HAProxy's {@code no} prefix (as {@code no log}); their parser sees "no" as the keyword. */
    public static final int NEGATABLE = 32;
    /**
     * Set on the rule keywords ({@code acl}, {@code http-request}, {@code tcp-request}...) that HAProxy 2.5+ takes in a
     * defaults section with a name, and refuses in an anonymous one.
     */
    public static final int NAMED_DEFAULTS = 64;
    /**
     * Set on keywords that HAProxy still parses after warning that a section lacking the capability ignores them: a
     * {@code bind} in a backend makes a configuration that has a listener for {@code -c}.
     */
    public static final int PARSED_WHEN_IGNORED = 128;
    /** The rule keywords' capabilities: frontends, backends and named defaults sections, refused elsewhere. */
    public static final int RULES = FRONTEND | BACKEND | STRICT | NAMED_DEFAULTS;
}
