package io.fulcrum.check;

/**
 * A server's health check or agent check as {@code show stat} and {@code show servers state} report it.
 *
 * @param state  HAProxy's CHK_ST_* flags ({@link #IN_PROGRESS}, {@link #CONFIGURED}...)
 * @param result HAProxy's CHK_RES_* code of the last result: 0 none yet or a check running, 2 failed, 3 passed,
 *               4 conditionally passed
 * @param code   the status code the check read (HTTP status), when {@link CheckStatus#hasCode()}
 * @param info   what the last check found ("Connection refused"), or ""
 */
public record CheckView(int state, CheckStatus status, int result, int code, long durationMillis, String info,
                        int rise, int fall, int health) {
    public static final int IN_PROGRESS = 0x01;
    public static final int CONFIGURED = 0x02;
    public static final int ENABLED = 0x04;
    public static final int PAUSED = 0x08;
    public static final int AGENT = 0x10;

    public boolean enabled() {
        return (state & ENABLED) != 0;
    }

    /** Enabled and not paused by maintenance: {@code show stat} reports its status, code, duration and texts. */
    public boolean reported() {
        return (state & (ENABLED | PAUSED)) == ENABLED;
    }

    public boolean inProgress() {
        return (state & IN_PROGRESS) != 0;
    }

    /** {@code check_status}: "L4OK", "* L4OK" while the next check runs. */
    public String statusText() {
        return (inProgress() ? "* " : "") + status.name();
    }

    /** A check has ended since start-up (HAProxy's "status >= HCHK_STATUS_CHECKED"). */
    public boolean finished() {
        return status.finished();
    }
}
