package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.runtime.EventLoops;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import static io.fulcrum.sample.ArgType.*;

/**
 * Fetches of the process's own state: the date, the host, the thread, random values, the stream's task
 * (configuration.txt 7.3.2).
 */
final class ProcessFetches {
    private ProcessFetches() {
    }

    /** Read once, as HAProxy does at start. */
    private static final String HOSTNAME = hostname();

    static void register(SampleCatalog c) {
        c.fetch(new Fetch("date", ArgSpec.of(0, SINT, STR), SampleType.SINT, Source.CONST, ProcessFetches::date,
                a -> unit(a, 1, "expects 's', 'ms' or 'us', got '")));
        c.fetch(new Fetch("date_us", ArgSpec.NONE, SampleType.SINT, Source.CONST,
                (a, ctx, out) -> out.setSint(Instant.now().getNano() / 1000)));
        c.fetch(new Fetch("hostname", ArgSpec.NONE, SampleType.STR, Source.CONST, (a, ctx, out) -> out.setStr(HOSTNAME)));
        c.fetch(new Fetch("nbproc", ArgSpec.NONE, SampleType.SINT, Source.CONST, (a, ctx, out) -> out.setSint(1)));
        c.fetch(new Fetch("proc", ArgSpec.NONE, SampleType.SINT, Source.CONST, (a, ctx, out) -> out.setSint(1)));
        c.fetch(new Fetch("thread", ArgSpec.NONE, SampleType.SINT, Source.CONST, (a, ctx, out) -> out.setSint(EventLoops.threadIndex())));
        c.fetch(new Fetch("rand", ArgSpec.of(0, SINT), SampleType.SINT, Source.CONST, ProcessFetches::rand));
        c.fetch(new Fetch("uuid", ArgSpec.of(0, SINT), SampleType.STR, Source.CONST, (a, ctx, out) -> out.setStr(uuid4()), a -> {
            if (a.length > 0 && a[0].num() != 4) {
                throw new ConfigException("Unsupported UUID version: '" + a[0].text() + "'");
            }
        }));
        c.fetch(new Fetch("stopping", ArgSpec.NONE, SampleType.BOOL, Source.INTRN, (a, ctx, out) -> out.setBool(ctx.stopping())));
        c.fetch(new Fetch("wait_end", ArgSpec.NONE, SampleType.BOOL, Source.INTRN, (a, ctx, out) -> {
            if (ctx.awaitingContent()) {
                ctx.contentMissing();
                return false;
            }
            return out.setBool(true);
        }));
        c.fetch(new Fetch("unique-id", ArgSpec.NONE, SampleType.STR, Source.CONST, (a, ctx, out) -> {
            CharSequence id = ctx.uniqueId();
            return id != null && out.setStr(id);
        }));
        // The stream's task: its calls, and what HAProxy measures only under "profiling.tasks on" (0 otherwise), for which
        // Fulcrum has no profiler: 0. No sample without a stream, as HAProxy's.
        c.fetch(new Fetch("cpu_calls", ArgSpec.NONE, SampleType.SINT, Source.INTRN, (a, ctx, out) -> {
            long calls = ctx.streamCalls();
            return calls >= 0 && out.setSint(calls);
        }));
        for (String name : new String[] {"cpu_ns_avg", "cpu_ns_tot", "lat_ns_avg", "lat_ns_tot"}) {
            c.fetch(new Fetch(name, ArgSpec.NONE, SampleType.SINT, Source.INTRN, (a, ctx, out) -> ctx.streamCalls() >= 0 && out.setSint(0)));
        }
        c.fetch(new Fetch("last_rule_file", ArgSpec.NONE, SampleType.STR, Source.INTRN, (a, ctx, out) -> {
            String f = ctx.lastRuleFile();
            return f != null && out.setStr(f);
        }));
        c.fetch(new Fetch("last_rule_line", ArgSpec.NONE, SampleType.SINT, Source.INTRN, (a, ctx, out) -> {
            int l = ctx.lastRuleLine();
            return l > 0 && out.setSint(l);
        }));
    }

    /**
     * Checks the time unit of argument {@code i} ("s", "ms" or "us", default "s") and keeps its number of
     * microseconds in the argument's number.
     */
    private static void unit(Arg[] a, int i, String message) throws ConfigException {
        if (a.length <= i) {
            return;
        }
        String u = a[i].text();
        long us = switch (u) {
            case "s" -> 1_000_000;
            case "ms" -> 1_000;
            case "us" -> 1;
            default -> throw new ConfigException(message + u + "'");
        };
        a[i] = Arg.of(STR, u, us);
    }

    /** {@code date([offset[,unit]])}: the time since the epoch in the unit (seconds by default), plus the offset. */
    private static boolean date(Arg[] a, SampleContext ctx, Sample out) {
        Instant now = Instant.now();
        long unitUs = a.length > 1 ? a[1].num() : 1_000_000;
        long v = unitUs == 1_000_000 ? now.getEpochSecond()
                : unitUs == 1_000 ? now.toEpochMilli()
                : now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
        return out.setSint(v + (a.length > 0 ? a[0].num() : 0));
    }

    /** A 32-bit random number, scaled to {@code [0, range)} when a range is given (as an unsigned 64-bit product). */
    private static boolean rand(Arg[] a, SampleContext ctx, Sample out) {
        long r = ThreadLocalRandom.current().nextInt() & 0xffffffffL;
        if (a.length > 0) {
            r = (r * a[0].num()) >>> 32;
        }
        return out.setSint(r);
    }

    /** A random (version 4) UUID; not for security, like HAProxy's. */
    private static String uuid4() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        long hi = r.nextLong() & ~0xf000L | 0x4000L;
        long lo = r.nextLong() & ~(0xc000L << 48) | 0x8000L << 48;
        return new UUID(hi, lo).toString();
    }

    /** The system's host name, as gethostname() gives it. */
    private static String hostname() {
        try {
            // By lines: JDK 25's Files.readString may stop early in a /proc file (its size says 0).
            return Files.readAllLines(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.ISO_8859_1).get(0).strip();
        } catch (IOException | RuntimeException e) {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (IOException e2) {
                return "localhost";
            }
        }
    }
}
