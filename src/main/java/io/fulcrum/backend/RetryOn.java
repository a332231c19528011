package io.fulcrum.backend;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;

/**
 * The failures {@code retry-on} retries a request on, as a bit set: the connection failure (the default), and the
 * layer-7 ones that need the request kept for a replay: an empty response, a junk response, a response timeout,
 * early data refused, and a few status codes.
 */
public final class RetryOn {
    private RetryOn() {
    }

    public static final int CONN_FAILURE = 1;
    public static final int EMPTY_RESPONSE = 1 << 1;
    public static final int JUNK_RESPONSE = 1 << 2;
    public static final int RESPONSE_TIMEOUT = 1 << 3;
    /** Fulcrum sends no early data to servers: accepted, never seen. */
    public static final int ZERO_RTT_REJECTED = 1 << 4;
    /** The status codes that may be retried, each with its bit from {@link #STATUS_SHIFT} on. */
    private static final int[] STATUSES = {401, 403, 404, 408, 425, 500, 501, 502, 503, 504};
    private static final int STATUS_SHIFT = 5;
    /** {@code all-retryable-errors}. */
    private static final int ALL_RETRYABLE = CONN_FAILURE | EMPTY_RESPONSE | JUNK_RESPONSE | RESPONSE_TIMEOUT | ZERO_RTT_REJECTED
            | status(500) | status(502) | status(503) | status(504);

    /** The bit of a status code, 0 when it cannot be retried on. */
    public static int status(int code) {
        for (int i = 0; i < STATUSES.length; i++) {
            if (STATUSES[i] == code) {
                return 1 << (STATUS_SHIFT + i);
            }
        }
        return 0;
    }

    /** Some failure other than the connection's is retried: the request must be kept for a replay. */
    public static boolean layer7(int set) {
        return (set & ~CONN_FAILURE) != 0;
    }

    /** {@code retry-on <keywords>}, with the wording of HAProxy's proxy_parse_retry_on(). */
    static int parse(ConfigLine l) throws ConfigException {
        if (!l.has(1)) {
            throw new ConfigException("'retry-on' needs at least one keyword to specify when to retry");
        }
        int set = 0;
        for (int i = 1; l.has(i); i++) {
            String w = l.arg(i);
            int bit = switch (w) {
                case "none" -> {
                    if (l.has(2)) {
                        throw new ConfigException("'retry-on' 'none' keyworld only usable alone");
                    }
                    yield 0;
                }
                case "conn-failure" -> CONN_FAILURE;
                case "empty-response" -> EMPTY_RESPONSE;
                case "junk-response" -> JUNK_RESPONSE;
                case "response-timeout" -> RESPONSE_TIMEOUT;
                case "0rtt-rejected" -> ZERO_RTT_REJECTED;
                case "all-retryable-errors" -> ALL_RETRYABLE;
                default -> {
                    int b = w.matches("[0-9]{3}") ? status(Integer.parseInt(w)) : 0;
                    if (b == 0) {
                        throw new ConfigException("'retry-on': unknown keyword '" + w + "'");
                    }
                    yield b;
                }
            };
            set |= bit;
        }
        return set;
    }
}
