package io.fulcrum.log;

/**
 * The header each format puts before a message, byte for byte as HAProxy 2.6 writes it. The date is
 * the time the message is sent; {@code <PRI>} is facility * 8 + level.
 */
final class SyslogHeader {
    private SyslogHeader() {
    }

    /**
     * @param host the {@code log-send-hostname} name, or null when it is not set
     * @param tag  the program name or {@code log-tag}; null for a message without metadata (the debug converter's):
     *             no tag, no pid
     * @param sd   the structured data of an rfc5424 header, or null for none
     */
    static void append(StringBuilder out, SyslogFormat format, int facility, int level, long epochMicros, String host, String tag,
                       long pid, String sd) {
        switch (format) {
            case LOCAL, RFC3164 -> {
                pri(out, facility, level);
                LogDates.rfc3164(out, epochMicros / 1000);
                out.append(' ');
                if (format == SyslogFormat.RFC3164) {
                    out.append(host != null ? host : "localhost").append(' ');
                }
                if (tag != null) {
                    out.append(tag).append('[').append(pid).append("]: ");
                }
            }
            case RFC5424 -> {
                pri(out, facility, level);
                out.append("1 ");
                LogDates.iso(out, epochMicros);
                out.append(' ').append(host != null ? host : "-").append(' ').append(tag != null ? tag : "-").append(' ')
                        .append(tag != null ? String.valueOf(pid) : "-").append(" - ")
                        .append(sd != null ? sd : "-").append(' ');
            }
            case PRIORITY -> pri(out, facility, level);
            case SHORT -> out.append('<').append(level).append('>');
            case TIMED -> {
                out.append('<').append(level).append('>');
                LogDates.iso(out, epochMicros);
                out.append(' ');
            }
            case ISO -> {
                LogDates.iso(out, epochMicros);
                out.append(' ');
            }
            case RAW -> { }
        }
    }

    /** {@code <PRI>}: the facility and level of a message, as syslog writes them. */
    static void pri(StringBuilder out, int facility, int level) {
        out.append('<').append(facility * 8 + level).append('>');
    }
}
