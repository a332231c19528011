package io.fulcrum.log;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.Source;

/**
 * One {@code log} line: where messages go, how they are framed, which of them are sent.
 *
 * @param maxLength the longest message (header included) before the final newline; longer ones are cut
 * @param format    the framing, or null for the default (rfc3164 when {@code log-send-hostname} is set, else local)
 * @param sampling  which messages are sent, or null for all
 * @param maxLevel  messages less severe than this are not sent
 * @param minLevel  messages more severe than this are sent at this level
 * @param source    the {@code log} line
 */
record LogTarget(LogDestination destination, int maxLength, SyslogFormat format, LogSampling sampling, int facility, int maxLevel,
                 int minLevel, Source source) {

    static final int DEFAULT_LENGTH = 1024;

    /** This target with its default format resolved. */
    LogTarget withFormat(SyslogFormat f) {
        return format != null ? this : new LogTarget(destination, maxLength, f, sampling, facility, maxLevel, minLevel, source);
    }

    /** This target sending to {@code d}, framed by {@code f} and cut at {@code length} (a ring's format and maxlen). */
    LogTarget to(LogDestination d, SyslogFormat f, int length) {
        return new LogTarget(d, length, f, sampling, facility, maxLevel, minLevel, source);
    }

    /** The level a message of {@code level} is sent at, or -1 when it is filtered out. */
    int levelFor(int level) {
        if (level > maxLevel) {
            return -1;
        }
        return Math.max(level, minLevel);
    }

    /**
     * Parses {@code log <address> [len <n>] [format <f>] [sample <ranges>:<size>] <facility> [<level> [<minlevel>]]}
     * from the word at {@code first} (the address) on; messages as HAProxy's, without its "log : " prefix.
     */
    static LogTarget parse(ConfigLine l, int first) throws ConfigException {
        if (!l.has(first + 1)) {
            throw new ConfigException("expects <address> and <facility>  as arguments");
        }
        LogDestination destination = LogDestination.parse(l.arg(first));
        int i = first + 1;
        int length = DEFAULT_LENGTH;
        if (l.arg(i).equals("len")) {
            String v = l.arg(i + 1);
            length = v.length() > 0 && v.length() < 7 && v.chars().allMatch(Character::isDigit) ? Integer.parseInt(v) : -1;
            if (length < 80 || length > 65535) {
                throw new ConfigException("invalid log length '" + v + "', must be between 80 and 65535");
            }
            i += 2;
        }
        SyslogFormat format = null;
        if (l.arg(i).equals("format")) {
            format = SyslogFormat.of(l.arg(i + 1));
            if (format == null) {
                throw new ConfigException("unknown log format '" + l.arg(i + 1) + "'");
            }
            i += 2;
        }
        LogSampling sampling = null;
        if (l.arg(i).equals("sample")) {
            sampling = LogSampling.parse(l.arg(i + 1));
            i += 2;
        }
        int facility = Syslog.facility(l.arg(i));
        if (facility < 0) {
            throw new ConfigException("unknown log facility '" + l.arg(i) + "'");
        }
        int maxLevel = Syslog.DEBUG;
        int minLevel = Syslog.EMERG;
        if (l.has(i + 1)) {
            maxLevel = Syslog.level(l.arg(i + 1));
            if (maxLevel < 0) {
                throw new ConfigException("unknown optional log level '" + l.arg(i + 1) + "'");
            }
        }
        if (l.has(i + 2)) {
            minLevel = Syslog.level(l.arg(i + 2));
            if (minLevel < 0) {
                throw new ConfigException("unknown optional minimum log level '" + l.arg(i + 2) + "'");
            }
        }
        if (l.has(i + 3)) {
            throw new ConfigException("cannot handle unexpected argument '" + l.arg(i + 3) + "'");
        }
        return new LogTarget(destination, length, format, sampling, facility, maxLevel, minLevel, l.source());
    }
}
