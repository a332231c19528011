package io.fulcrum.log;

import io.fulcrum.cfg.Source;
import io.fulcrum.proxy.ProxyPart;

import java.util.ArrayList;
import java.util.List;

/**
 * A proxy's logging settings as parsed: its {@code log} lines, {@code log-tag}, which format its traffic logs
 * use, and the options that decide which transactions are logged. Inherited from defaults sections. The
 * formats are compiled by the whole-configuration check, once each proxy's mode is known.
 */
final class ProxyLog implements ProxyPart {
    /** Stands, in {@link #targets}, for the global section's targets ({@code log global}). */
    static final LogTarget GLOBAL = new LogTarget(null, 0, null, null, 0, 0, 0, null);

    /** Which traffic log format the proxy asked for, last keyword first. */
    enum Kind {
        TCPLOG("tcplog"), HTTPLOG("httplog"), CLF("httplog"), HTTPSLOG("httpslog"), CUSTOM(null);

        /** The option's name, for messages. */
        final String option;

        Kind(String option) {
            this.option = option;
        }
    }

    /** A format keyword: its kind, its text for log-format, and where it was written. */
    record Format(Kind kind, String text, Source source) {
    }

    List<LogTarget> targets = new ArrayList<>();
    String tag;
    Format format;
    Format errorFormat;
    Format uniqueIdFormat;
    /** {@code log-format-sd}: the structured data of rfc5424 lines. */
    Format sdFormat;
    String uniqueIdHeader;
    boolean dontlognull;
    boolean separateErrors;
    boolean dontlogNormal;
    boolean logasap;
    /** {@code option contstats}: the bytes of running streams reach the counters as they pass. */
    boolean contstats;

    /** Set by the configuration check. */
    LogFormat compiled;
    LogFormat compiledError;
    LogFormat compiledUniqueId;
    LogFormat compiledSd;

    @Override
    public ProxyPart inherit() {
        ProxyLog c = new ProxyLog();
        c.targets = new ArrayList<>(targets);
        c.tag = tag;
        c.format = format;
        c.errorFormat = errorFormat;
        c.uniqueIdFormat = uniqueIdFormat;
        c.sdFormat = sdFormat;
        c.uniqueIdHeader = uniqueIdHeader;
        c.dontlognull = dontlognull;
        c.separateErrors = separateErrors;
        c.dontlogNormal = dontlogNormal;
        c.logasap = logasap;
        c.contstats = contstats;
        return c;
    }
}
