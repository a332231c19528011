package io.fulcrum.log;

/** How a log target frames each message (the {@code format} argument of {@code log}). */
enum SyslogFormat {
    /** RFC 3164 without the host name: the default. */
    LOCAL("local"),
    RFC3164("rfc3164"),
    RFC5424("rfc5424"),
    /** {@code <PRI>} then the text. */
    PRIORITY("priority"),
    /** {@code <LEVEL>} then the text (what systemd reads). */
    SHORT("short"),
    /** {@code <LEVEL>}, an ISO date, then the text. */
    TIMED("timed"),
    /** An ISO date, then the text. */
    ISO("iso"),
    /** The text alone. */
    RAW("raw");

    private final String keyword;

    SyslogFormat(String keyword) {
        this.keyword = keyword;
    }

    static SyslogFormat of(String keyword) {
        for (SyslogFormat f : values()) {
            if (f.keyword.equals(keyword)) {
                return f;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return keyword;
    }
}
