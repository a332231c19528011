package io.fulcrum.log;

import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneId;

/**
 * A syslog message a {@code log-forward} section received, split as HAProxy 2.6 splits it: an optional
 * {@code <PRI>}, then an RFC 5424 header ({@code 1 TIMESTAMP HOST APP PROCID MSGID SD}) or an RFC 3164 one
 * ({@code Mmm dd hh:mm:ss HOST TAG[PID]: }). What does not parse stays in the message: no PRI means the facility
 * of the {@code log} line and the most severe level; no date means the time it is sent. Built on the sender thread.
 */
final class ReceivedLog {
    private static final String MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";

    private final byte[] raw;
    /** The PRI's facility and level, or -1 without one. */
    final int facility;
    final int level;
    /** Where what follows the PRI begins (0 without one), and where the message after the header begins. */
    private final int afterPri;
    private int body;
    /** An RFC 5424 timestamp as received, or an RFC 3164 one's fields ("Mmm dd hh:mm:ss"), or null. */
    private String iso;
    private String date3164;
    private String host;
    private String tag;
    private String pid;
    private String msgid;
    private String sd;

    ReceivedLog(byte[] raw) {
        this.raw = raw;
        int pri = -1;
        int i = 0;
        if (raw.length > 2 && raw[0] == '<') {
            int v = 0;
            int j = 1;
            while (j < raw.length && j < 5 && raw[j] >= '0' && raw[j] <= '9') {
                v = v * 10 + raw[j++] - '0';
            }
            if (j > 1 && j < raw.length && raw[j] == '>') {
                pri = v;
                i = j + 1;
            }
        }
        facility = pri < 0 ? -1 : pri >> 3;
        level = pri < 0 ? -1 : pri & 7;
        afterPri = i;
        body = i;
        if (pri >= 0 && !rfc5424(i)) {
            rfc3164(i);
        }
    }

    /** {@code 1 TIMESTAMP HOST APP PROCID MSGID SD [MSG]}: false, nothing taken, when it is not that. */
    private boolean rfc5424(int from) {
        if (from + 1 >= raw.length || raw[from] != '1' || raw[from + 1] != ' ') {
            return false;
        }
        String[] fields = new String[5];
        int i = from + 2;
        for (int f = 0; f < 5; f++) {
            int end = indexOf(' ', i);
            if (end < 0) {
                return false;
            }
            fields[f] = nil(text(i, end));
            i = end + 1;
        }
        int sdEnd = structuredData(i);
        if (sdEnd < 0 || sdEnd < raw.length && raw[sdEnd] != ' ') {
            return false;
        }
        iso = fields[0];
        host = fields[1];
        tag = fields[2];
        pid = fields[3];
        msgid = fields[4];
        sd = nil(text(i, sdEnd));
        body = Math.min(raw.length, sdEnd + 1);
        return true;
    }

    /** The end of the structured data at {@code i} ("-" or "[...]" elements, quoted values with escapes), or -1. */
    private int structuredData(int i) {
        if (i < raw.length && raw[i] == '-') {
            return i + 1;
        }
        int n = i;
        while (n < raw.length && raw[n] == '[') {
            boolean quoted = false;
            n++;
            while (n < raw.length && (quoted || raw[n] != ']')) {
                if (quoted && raw[n] == '\\') {
                    n++;
                } else if (raw[n] == '"') {
                    quoted = !quoted;
                }
                n++;
            }
            if (n >= raw.length) {
                return -1;
            }
            n++;
        }
        return n > i ? n : -1;
    }

    /** {@code Mmm dd hh:mm:ss HOST [TAG[\[PID\]]: ]MSG}; nothing taken without the date. */
    private void rfc3164(int i) {
        if (i + 16 > raw.length || raw[i + 15] != ' ' || MONTHS.indexOf(text(i, i + 3)) % 3 != 0 || raw[i + 3] != ' '
                || raw[i + 6] != ' ' || raw[i + 9] != ':' || raw[i + 12] != ':') {
            return;
        }
        date3164 = text(i, i + 15);
        int h = i + 16;
        int end = indexOf(' ', h);
        if (end < 0) {
            body = h;
            return;
        }
        host = text(h, end);
        body = end + 1;
        // A tag runs to '[' or ':'; a space first means there is none.
        int t = body;
        while (t < raw.length && raw[t] != '[' && raw[t] != ':' && raw[t] != ' ') {
            t++;
        }
        if (t >= raw.length || raw[t] == ' ' || t == body) {
            return;
        }
        String name = text(body, t);
        String p = null;
        if (raw[t] == '[') {
            int close = indexOf(']', t);
            if (close < 0 || close + 1 >= raw.length || raw[close + 1] != ':') {
                return;
            }
            p = text(t + 1, close);
            t = close + 1;
        }
        tag = name;
        pid = p;
        t++;
        body = t < raw.length && raw[t] == ' ' ? t + 1 : t;
    }

    /**
     * Appends the header of {@code format} and returns where in {@link #raw} the text to send after it begins.
     *
     * @param facility the facility the message goes with (its own, else the {@code log} line's)
     * @param level    the level it is sent at
     * @param host     the {@code log-send-hostname} name, or null
     */
    int header(StringBuilder out, SyslogFormat format, int facility, int level, long nowMicros, String host) {
        switch (format) {
            case LOCAL -> {
                // The message goes on as it came, its PRI rewritten for the level it is sent at.
                if (this.facility < 0) {
                    return 0;
                }
                SyslogHeader.pri(out, facility, level);
                return afterPri;
            }
            case RFC3164 -> {
                SyslogHeader.pri(out, facility, level);
                date3164(out, nowMicros);
                out.append(' ').append(this.host != null ? this.host : host != null ? host : "localhost").append(' ');
                if (tag != null) {
                    out.append(tag);
                    if (pid != null) {
                        out.append('[').append(pid).append(']');
                    }
                    out.append(": ");
                }
            }
            case RFC5424 -> {
                SyslogHeader.pri(out, facility, level);
                out.append("1 ");
                iso(out, nowMicros);
                out.append(' ').append(this.host != null ? this.host : host != null ? host : "-").append(' ')
                        .append(tag != null ? tag : "-").append(' ').append(pid != null ? pid : "-").append(' ')
                        .append(msgid != null ? msgid : "-").append(' ').append(sd != null ? sd : "-").append(' ');
            }
            case PRIORITY -> SyslogHeader.pri(out, facility, level);
            case SHORT -> out.append('<').append(level).append('>');
            case TIMED -> {
                out.append('<').append(level).append('>');
                iso(out, nowMicros);
                out.append(' ');
            }
            case ISO -> {
                iso(out, nowMicros);
                out.append(' ');
            }
            case RAW -> { }
        }
        return body;
    }

    /** The received date in RFC 3164's form, or now's. */
    private void date3164(StringBuilder out, long nowMicros) {
        if (date3164 != null) {
            out.append(date3164);
        } else if (iso != null && iso.length() >= 19 && iso.charAt(10) == 'T') {
            int month = Integer.parseInt(iso, 5, 7, 10);
            int day = Integer.parseInt(iso, 8, 10, 10);
            out.append(MONTHS, (month - 1) * 3, month * 3).append(day < 10 ? "  " : " ").append(day).append(' ')
                    .append(iso, 11, 19);
        } else {
            LogDates.rfc3164(out, nowMicros / 1000);
        }
    }

    /** The received date in RFC 5424's form (an RFC 3164 one in this year, offset unknown: "-00:00"), or now's. */
    private void iso(StringBuilder out, long nowMicros) {
        if (iso != null) {
            out.append(iso);
        } else if (date3164 != null) {
            int month = MONTHS.indexOf(date3164.substring(0, 3)) / 3 + 1;
            int day = Integer.parseInt(date3164.substring(4, 6).trim());
            out.append(LocalDateTime.now(ZoneId.systemDefault()).getYear()).append('-');
            LogDates.pad(out, month, 2);
            out.append('-');
            LogDates.pad(out, day, 2);
            out.append('T').append(date3164, 7, 15).append("-00:00");
        } else {
            LogDates.iso(out, nowMicros);
        }
    }

    private int indexOf(char c, int from) {
        for (int i = from; i < raw.length; i++) {
            if (raw[i] == c) {
                return i;
            }
        }
        return -1;
    }

    private String text(int from, int to) {
        return new String(raw, from, to - from, StandardCharsets.ISO_8859_1);
    }

    private static String nil(String field) {
        return field.equals("-") ? null : field;
    }
}
