package io.fulcrum.log;

import java.util.List;

/** Syslog facility and severity names and numbers (RFC 5424 section 6.2.1), as HAProxy spells them. */
public final class Syslog {
    private Syslog() {
    }

    static final int EMERG = 0;
    public static final int ALERT = 1;
    static final int ERR = 3;
    static final int WARNING = 4;
    public static final int NOTICE = 5;
    public static final int INFO = 6;
    static final int DEBUG = 7;

    /** HAProxy's 24 facility names, by number. */
    static final List<String> FACILITIES = List.of("kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp",
            "cron", "auth2", "ftp", "ntp", "audit", "alert", "cron2", "local0", "local1", "local2", "local3", "local4", "local5",
            "local6", "local7");

    /** The eight severities, most severe first. */
    static final List<String> LEVELS = List.of("emerg", "alert", "crit", "err", "warning", "notice", "info", "debug");

    /** The facility's number, or -1. */
    static int facility(String name) {
        return FACILITIES.indexOf(name);
    }

    /** The level's number, or -1. */
    public static int level(String name) {
        return LEVELS.indexOf(name);
    }
}
