package io.fulcrum.log;

import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Source;

import java.net.SocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A {@code ring} section as parsed; HAProxy's defaults (raw format, 16384 bytes, no timeouts). */
final class RingSpec {
    /** HAProxy's BUFSIZE: the default and smallest ring, and the default longest message. */
    static final int BUFSIZE = 16384;

    /** A {@code server} line: where the ring's messages are forwarded (TCP or a unix stream socket), and how they are framed. */
    record Server(String name, SocketAddress address, boolean octetCount) {
    }

    final String name;
    final Source source;
    String description;
    SyslogFormat format = SyslogFormat.RAW;
    long maxlen = BUFSIZE;
    long size = BUFSIZE;
    /** Milliseconds; 0: none. */
    long timeoutConnect;
    long timeoutServer;
    final List<Server> servers = new ArrayList<>();
    /** {@code backing-file}, or null. */
    Path backingFile;

    RingSpec(String name, String description, Source source) {
        this.name = name;
        this.description = description;
        this.source = source;
    }

    /** What the ring stores: its size, less the backing file's header when it has one (as HAProxy's). */
    long storage() {
        return backingFile == null ? size : size - RingFile.HEADER;
    }

    /** The rings of a configuration, by name, in declaration order. */
    static Map<String, RingSpec> of(ConfigModel model) {
        return model.part(Rings.class, Rings::new).rings;
    }

    private static final class Rings {
        final Map<String, RingSpec> rings = new LinkedHashMap<>();
    }
}
