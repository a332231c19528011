package io.fulcrum.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The process's event sinks, as {@code show events} lists them: stdout and stderr, HAProxy's {@code buf0}, the
 * rings of {@code ring} sections, then those made for {@code tcp@} targets ("ring#1"...). Starts and stops the
 * forwarders of the rings that have servers.
 */
final class Sinks implements AutoCloseable {
    /** The sinks every process has; no ring section may take their names. */
    static final List<String> BUILTIN = List.of("stdout", "stderr", "buf0");
    /** HAProxy's trace buffer: nothing writes to it yet, but it exists, with its size. */
    private static final long BUF0_SIZE = 1 << 20;

    private final Map<String, Ring> rings = new LinkedHashMap<>();
    /** Each ring's format; buf0's is HAProxy's "timed". */
    private final Map<String, SyslogFormat> formats = new HashMap<>();
    private final List<RingForwarder> forwarders = new ArrayList<>();

    Sinks(Collection<RingSpec> specs) {
        rings.put("buf0", new Ring("buf0", "in-memory ring buffer", BUF0_SIZE));
        formats.put("buf0", SyslogFormat.TIMED);
        specs.forEach(this::add);
    }

    /** Creates the ring of {@code spec}, and its forwarders. */
    Ring add(RingSpec spec) {
        Ring ring;
        try {
            ring = new Ring(spec.name, spec.description, spec.storage(),
                    spec.backingFile == null ? null : RingFile.open(spec.backingFile, spec.size));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map backing-file '" + spec.backingFile + "' of ring '" + spec.name + "'", e);
        }
        rings.put(spec.name, ring);
        formats.put(spec.name, spec.format);
        for (RingSpec.Server s : spec.servers) {
            forwarders.add(new RingForwarder(ring, s, spec.timeoutConnect, spec.timeoutServer));
        }
        return ring;
    }

    /** The ring named {@code name}, or null. */
    Ring ring(String name) {
        return rings.get(name);
    }

    /** The format of the ring named {@code name}. */
    SyslogFormat format(String name) {
        return formats.get(name);
    }

    /** How many rings were made for {@code tcp@} targets so far. */
    int implicitCount() {
        return (int) rings.keySet().stream().filter(n -> n.startsWith("ring#")).count();
    }

    void start() {
        forwarders.forEach(RingForwarder::start);
    }

    /** What {@code show events} without a sink prints. */
    String list() {
        StringBuilder b = new StringBuilder("Supported events sinks are listed below. Add -w(wait), -n(new). Any key to stop\n");
        // HAProxy describes stderr as "standard output" too.
        line(b, "stdout", "fd", 0, "standard output (fd#1)");
        line(b, "stderr", "fd", 0, "standard output (fd#2)");
        for (Ring r : rings.values()) {
            line(b, r.name(), "buffer", r.dropped(), r.description());
        }
        return b.toString();
    }

    private static void line(StringBuilder b, String name, String type, long dropped, String description) {
        b.append(String.format("    %-10s : type=%s, %d dropped, %s%n", name, type, dropped, description));
    }

    @Override
    public void close() {
        forwarders.forEach(RingForwarder::close);
    }
}
