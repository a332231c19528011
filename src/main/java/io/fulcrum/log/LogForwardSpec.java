package io.fulcrum.log;

import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Source;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One {@code log-forward} section as configured. */
final class LogForwardSpec {
    /** HAProxy's default maxconn of a log-forward section's stream listeners. */
    static final int DEFAULT_MAXCONN = 10;

    final String name;
    final Source source;
    final List<Address> datagrams = new ArrayList<>();
    final List<Address> streams = new ArrayList<>();
    final List<LogTarget> targets = new ArrayList<>();
    int maxconn = DEFAULT_MAXCONN;
    /** The listen backlog of the stream listeners, 0 for maxconn's. */
    int backlog;
    /** How long a stream connection may stay silent, 0 for ever. */
    long timeoutClient;

    /** A listening address with the line that asked for it. */
    record Address(InetSocketAddress socket, Source source) {
    }

    LogForwardSpec(String name, Source source) {
        this.name = name;
        this.source = source;
    }

    /** The sections of {@code model}, by name. */
    static Map<String, LogForwardSpec> of(ConfigModel model) {
        return model.part(Sections.class, Sections::new).byName;
    }

    private static final class Sections {
        final Map<String, LogForwardSpec> byName = new LinkedHashMap<>();
    }
}
