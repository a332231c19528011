package io.fulcrum.cli;

/** What a CLI session may do ({@code level} of a stats socket): read stats, clear maxima, change everything. */
public enum CliLevel {
    USER("user"),
    OPERATOR("operator"),
    ADMIN("admin");

    private final String keyword;

    CliLevel(String keyword) {
        this.keyword = keyword;
    }

    public String keyword() {
        return keyword;
    }

    /** This level allows what {@code required} allows. */
    public boolean allows(CliLevel required) {
        return compareTo(required) >= 0;
    }

    /** The level named {@code word}, or null. */
    public static CliLevel of(String word) {
        for (CliLevel l : values()) {
            if (l.keyword.equals(word)) {
                return l;
            }
        }
        return null;
    }
}
