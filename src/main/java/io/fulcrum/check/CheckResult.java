package io.fulcrum.check;

/**
 * The outcome of one check: its status, the code (HTTP status, or 0), what it found, how long it took (-1: not a check
 * that ran, a health analysis of the traffic).
 */
record CheckResult(CheckStatus status, int code, String info, long durationMillis) {
    /** Before the first check ends. */
    static final CheckResult NONE = new CheckResult(CheckStatus.INI, 0, "", 0);

    /** HAProxy's words after "reason: " (the check's line) or in ", reason: " (the server's). */
    String reason() {
        StringBuilder sb = new StringBuilder(status.description());
        if (status.hasCode()) {
            sb.append(", code: ").append(code);
        }
        if (info != null && !info.isEmpty()) {
            sb.append(", info: \"").append(info).append('"');
        }
        if (durationMillis >= 0) { // HAProxy's "check->duration >= 0"
            sb.append(", check duration: ").append(durationMillis).append("ms");
        }
        return sb.toString();
    }
}
