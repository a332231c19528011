package io.fulcrum.acl;

/**
 * How one kind of user reads a pattern file (HAProxy's pattern expression): an ACL's matching method and
 * case, or a map converter's method and output. Users of a file that read it the same way share one
 * compiled form; {@code get map} and {@code get acl} report each kind on a line of its own.
 */
public interface PatternUse {
    MatchMethod method();

    boolean ignoreCase();

    /** The method's name in {@code get map}/{@code get acl} ("regm" for map_regm). */
    default String matchName() {
        return method().keyword();
    }

    /** The type name of {@code value} as this use returns it ("str", "sint", "ipv4"...), or null for ACLs. */
    default String valueType(String value) {
        return null;
    }

    /** How the pattern {@code key} is indexed: "tree" (exact strings, prefixes and address prefixes), else "list". */
    default String index(String key) {
        return switch (method()) {
            case STR, BEG -> ignoreCase() ? "list" : "tree";
            case IP -> {
                try {
                    yield IpPattern.parse(key).prefix() >= 0 ? "tree" : "list";
                } catch (io.fulcrum.cfg.ConfigException e) {
                    yield "list";
                }
            }
            default -> "list";
        };
    }
}
