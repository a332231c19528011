package io.fulcrum.log;

import io.fulcrum.cfg.ConfigModel;

import java.util.ArrayList;
import java.util.List;

/** The global section's {@code log}, {@code log-tag} and {@code log-send-hostname}. */
public final class GlobalLog {
    /** What names the process in syslog headers when no {@code log-tag} is set: HAProxy's program name is its own. */
    static final String PROGRAM = "fulcrum";

    final List<LogTarget> targets = new ArrayList<>();
    String tag;
    /** The host name for headers, or null when {@code log-send-hostname} is not set. */
    String sendHostname;
    /** {@code tune.http.logurilen}: the longest request line the logs keep. */
    int uriLength = 1024;
    /** {@code tune.http.cookielen}: the longest {@code capture cookie}. */
    int cookieLength = 63;

    public static GlobalLog of(ConfigModel model) {
        return model.part(GlobalLog.class, GlobalLog::new);
    }

    /** The default format of targets that name none: the host name needs rfc3164's header. */
    SyslogFormat defaultFormat() {
        return sendHostname != null ? SyslogFormat.RFC3164 : SyslogFormat.LOCAL;
    }
}
