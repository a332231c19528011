package io.fulcrum.check;

/**
 * The outcome of one check: its status, the code (HTTP status, or 0), what it found (the stats' last_chk), how long it
 * took (-1: not a check that ran, a health analysis of the traffic), and what the check's log line tells instead of the info
 * when that differs (a protocol's judge: HAProxy logs its words as the status changes, then keeps none), or null.
 */
record CheckResult(CheckStatus status, int code, String info, long durationMillis, String said) {
    /** Before the first check ends. */
    static final CheckResult NONE = new CheckResult(CheckStatus.INI, 0, "", 0);

    CheckResult(CheckStatus status, int code, String info, long durationMillis) {
        this(status, code, info, durationMillis, null);
    }

    /** HAProxy's words after "reason: " (the check's line) or in ", reason: " (the server's). */
    String reason() {
        return reason(info);
    }

    /** The same words for the check's own log line ("Health check for server ..."): the judge's when it said some. */
    String checkReason() {
        return reason(said != null ? said : info);
    }

    private String reason(String words) {
        StringBuilder sb = new StringBuilder(status.description());
        if (status.hasCode()) {
            sb.append(", code: ").append(code);
        }
        if (words != null && !words.isEmpty()) {
            sb.append(", info: \"").append(words).append('"');
        }
        if (durationMillis >= 0) { // HAProxy's "check->duration >= 0"
            sb.append(", check duration: ").append(durationMillis).append("ms");
        }
        return sb.toString();
    }
}
