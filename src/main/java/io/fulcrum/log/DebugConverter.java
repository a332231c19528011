package io.fulcrum.log;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Registry;
import io.fulcrum.sample.Arg;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.ArgType;
import io.fulcrum.sample.Converter;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.SampleType;

import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * The {@code debug} converter (configuration.txt 7.3.1): passes its sample on and writes "[debug] prefix: type=str
 * <value>" to an event sink: stdout, stderr, HAProxy's {@code buf0} (its default, read with "show events buf0") or a
 * ring section declared before the line, after the header the ring's format puts before a message without metadata,
 * as HAProxy 2.6 writes it.
 */
final class DebugConverter {
    /** The process's sinks, once its logging is set up (a sample evaluated while the configuration is read has none). */
    private static volatile Sinks sinks;

    private DebugConverter() {
    }

    /** @param rings the ring sections declared so far */
    static void register(Registry registry, Set<String> rings) {
        SampleCatalog.of(registry).converter(new Converter("debug", ArgSpec.of(0, ArgType.STR, ArgType.STR), SampleType.ANY,
                SampleType.SAME, DebugConverter::debug, a -> {
                    String sink = sink(a);
                    if (!Sinks.BUILTIN.contains(sink) && !rings.contains(sink)) {
                        throw new ConfigException("No such sink '" + sink + "'");
                    }
                }));
    }

    static void bind(Sinks processSinks) {
        sinks = processSinks;
    }

    private static String sink(Arg[] a) {
        return a.length > 1 && !a[1].text().isEmpty() ? a[1].text() : "buf0";
    }

    private static boolean debug(Arg[] a, Sample smp, SampleContext ctx) {
        String sink = sink(a);
        boolean fd = sink.equals("stdout") || sink.equals("stderr");
        Sinks s = sinks;
        Ring ring = fd || s == null ? null : s.ring(sink);
        if (!fd && ring == null) {
            return true;
        }
        StringBuilder line = new StringBuilder(64);
        if (ring != null) {
            SyslogHeader.append(line, s.format(sink), 0, 0, LogDates.nowMicros(), null, null, 0, null);
        }
        line.append("[debug] ").append(a.length > 0 ? a[0].text() : "").append(": type=").append(smp.type()).append(" <");
        String value = smp.asText(); // as a string: binary data stops at its first NUL
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            line.append(ch >= 0x20 && ch < 0x7f ? ch : '.');
        }
        line.append('>');
        if (fd) {
            (sink.equals("stdout") ? System.out : System.err).print(line.append('\n'));
        } else {
            byte[] bytes = line.toString().getBytes(StandardCharsets.ISO_8859_1);
            ring.write(bytes, bytes.length);
        }
        return true;
    }
}
