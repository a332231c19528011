package io.fulcrum.cli;

/** HAProxy's human_time(), as its CLI and stats page print durations: "1d2h", "3h4m", "5m6s", "7s", "0s". */
public final class HumanTime {
    private HumanTime() {
    }

    /** At most two units among d, h, m, s; "?" for a negative duration. */
    public static String of(long seconds) {
        if (seconds < 0) {
            return "?";
        }
        StringBuilder b = new StringBuilder();
        int units = 2;
        if (seconds >= 86400) {
            b.append(seconds / 86400).append('d');
            units--;
        }
        if (units > 0 && seconds % 86400 / 3600 != 0) {
            b.append(seconds % 86400 / 3600).append('h');
            units--;
        }
        if (units > 0 && seconds % 3600 / 60 != 0) {
            b.append(seconds % 3600 / 60).append('m');
            units--;
        }
        if (units > 0 && seconds % 60 != 0 || seconds == 0) {
            b.append(seconds % 60).append('s');
        }
        return b.toString();
    }
}
