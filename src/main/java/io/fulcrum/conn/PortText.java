package io.fulcrum.conn;

import io.fulcrum.cfg.ConfigException;

/**
 * The port part of an address ({@code bind}, {@code server}, {@code source}, {@code log}...), read as HAProxy's
 * str2sa_range() reads it, with its messages: a number or a range {@code low-high} where the keyword takes ranges, an
 * offset {@code +N}/{@code -N} where it takes offsets. Stricter in one way: digits followed by anything else are
 * refused ("invalid port"), where HAProxy keeps the leading number.
 *
 * @param low    the port, the first of the range, or the signed offset
 * @param high   the last port of the range ({@code low} for one port; it may be lower than {@code low})
 * @param offset {@code low} is an offset from the port the client connected to
 */
public record PortText(int low, int high, boolean offset) {
    /** No port given (where none is needed). */
    public static final PortText NONE = new PortText(0, 0, false);

    /** What the keyword accepts. */
    public enum Allow {
        /** one port, none required: 0 or empty is none */
        PORT,
        /** a port or a range, required ({@code bind}) */
        MANDATORY_RANGE,
        /** a port or a range, none required */
        RANGE,
        /** a port or an offset, none required ({@code server}) */
        OFFSET
    }

    /**
     * Reads {@code port}, the text after the address's last colon ({@code ""} when there is none) of {@code whole},
     * the address as written (which the messages quote).
     */
    public static PortText parse(String port, String whole, Allow allow) throws ConfigException {
        boolean mandatory = allow == Allow.MANDATORY_RANGE;
        if (port.isEmpty()) {
            if (mandatory) {
                throw new ConfigException("missing port specification in '" + whole + "'");
            }
            return NONE;
        }
        char first = port.charAt(0);
        if (first >= '0' && first <= '9') {
            int dash = port.indexOf('-');
            if (dash >= 0 && allow != Allow.RANGE && allow != Allow.MANDATORY_RANGE) {
                throw new ConfigException("port range not permitted here in '" + whole + "'");
            }
            int low = number(dash < 0 ? port : port.substring(0, dash), mandatory);
            int high = dash < 0 ? low : number(port.substring(dash + 1), mandatory);
            return new PortText(low, high, false); // (each keyword judges the order of a range in its own words)
        }
        if (first == '+' || first == '-') {
            if (allow != Allow.OFFSET) {
                throw new ConfigException("port offset not permitted here in '" + whole + "'");
            }
            String digits = port.substring(1);
            int v = digits.isEmpty() ? 0 : number(digits, false);
            return new PortText(first == '-' ? -v : v, first == '-' ? -v : v, true);
        }
        throw new ConfigException("invalid character '" + first + "' in port number '" + port + "' in '" + whole + "'");
    }

    /** A port number, 1 to 65535 (0 too when no port is required; empty is 0), else HAProxy's "invalid port". */
    private static int number(String text, boolean mandatory) throws ConfigException {
        int v = text.isEmpty() ? 0 : text.length() > 5 || !text.chars().allMatch(c -> c >= '0' && c <= '9')
                ? -1 : Integer.parseInt(text);
        if (v < (mandatory ? 1 : 0) || v > 65535) {
            throw new ConfigException("invalid port '" + text + "'");
        }
        return v;
    }
}
