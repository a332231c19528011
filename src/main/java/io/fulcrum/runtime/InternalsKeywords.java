package io.fulcrum.runtime;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.runtime.GlobalModule.GlobalContext;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The global keywords that tune HAProxy's own internals (its scheduler, buffer allocator, pattern cache, other
 * pollers, setuid and core-dump guards), which have no counterpart in a JVM on Netty. Each is read and range-checked
 * with HAProxy's words, so that a config HAProxy refuses is refused, and docs/keyword-status.tsv says why it has no
 * effect. {@code noepoll} and the pollers' keywords live in {@link PollerKeywords}.
 */
final class InternalsKeywords {
    private InternalsKeywords() {
    }

    /**
     * Keywords without arguments, accepted and without effect (see the class comment): no-memory-trimming stops
     * malloc_trim() calls, which the JVM's heap has no use for; h2-workaround-bogus-websocket-clients changes HTTP/2
     * settings, and Fulcrum speaks no HTTP/2.
     */
    private static final List<String> FLAGS = List.of("insecure-setuid-wanted", "nogetaddrinfo", "no-memory-trimming",
            "h2-workaround-bogus-websocket-clients");
    /** Flags that also take HAProxy's {@code no} prefix. */
    private static final List<String> NEGATABLE_FLAGS = List.of("set-dumpable");

    static void register(KeywordTable<GlobalContext> kw, int negatable) {
        for (String name : FLAGS) {
            kw.add(name, (g, l) -> Args.noMoreThan(l, 0, name));
        }
        for (String name : NEGATABLE_FLAGS) {
            kw.add(name, negatable, (g, l) -> Args.noMoreThan(positive(l), 0, name));
        }
        // As HAProxy, numa-cpu-mapping reads no argument and ignores any.
        kw.add("numa-cpu-mapping", negatable, (g, l) -> { });
        for (String name : List.of("tune.recv_enough", "tune.buffers.limit", "tune.buffers.reserve", "tune.runqueue-depth")) {
            kw.add(name, (g, l) -> integer(l));
        }
        kw.add("tune.idletimer", (g, l) -> idleTimer(l));
        kw.add("tune.sched.low-latency", (g, l) -> onOff(l));
        kw.add("tune.pattern.cache-size", (g, l) -> {
            // HAProxy reads it with atoi and checks neither the count of words nor what follows the digits.
            if (l.arg(1).isEmpty() || atoi(l.arg(1)) < 0) {
                throw new ConfigException("'" + l.keyword() + "' expects a positive numeric value");
            }
        });
        for (String name : List.of("tune.pool-high-fd-ratio", "tune.pool-low-fd-ratio")) {
            kw.add(name, (g, l) -> {
                Args.noMoreThan(l, 1, name);
                long v = Args.atol(l.arg(1));
                if (l.arg(1).isEmpty() || v < 0 || v > 100) {
                    throw new ConfigException("'" + name + "' expects an integer argument between 0 and 100.");
                }
            });
        }
        kw.add("profiling.tasks", (g, l) -> {
            Args.noMoreThan(l, 1, l.keyword());
            if (!List.of("on", "auto", "off").contains(l.arg(1))) {
                throw new ConfigException("'" + l.keyword() + "' expects either 'on', 'auto', or 'off' but got '" + l.arg(1) + "'.");
            }
            g.settings().profilingTasks = l.arg(1);
        });
        kw.add("profiling.memory", (g, l) -> onOff(l));
        kw.add("tune.fail-alloc", (g, l) -> {
            // HAProxy's atoi; only a value out of 0..100 is refused (an empty or unreadable one is 0).
            Args.noMoreThan(l, 1, l.keyword());
            int rate = atoi(l.arg(1));
            if (rate < 0 || rate > 100) {
                throw new ConfigException("'" + l.keyword() + "' expects a numeric value between 0 and 100.");
            }
        });
        kw.add("tune.fd.edge-triggered", (g, l) -> {
            if (!g.settings().experimental) {
                throw new ConfigException("'" + l.keyword() + "' directive is experimental, must be allowed via a global "
                        + "'expose-experimental-directives'");
            }
            onOff(l); // Netty's epoll transport is edge-triggered already, whatever the value
        });
        kw.add("cluster-secret", (g, l) -> {
            // The secret of QUIC's stateless resets and retry tokens: Fulcrum speaks no QUIC.
            Args.noMoreThan(l, 1, l.keyword());
            if (l.arg(1).isEmpty()) {
                throw new ConfigException("expects an ASCII string argument.");
            }
            if (g.settings().clusterSecret) {
                l.alertNotCounted("'" + l.keyword() + "' already specified. Continuing.");
            }
            g.settings().clusterSecret = true;
        });
    }

    private static final Pattern LEADING_INTEGER = Pattern.compile("^\\s*([-+]?[0-9]+)");

    /** C's atoi as glibc has it: strtol's saturated long, cut to an int ("3000000000" is negative). */
    private static int atoi(String text) {
        Matcher m = LEADING_INTEGER.matcher(text);
        if (!m.find()) {
            return 0;
        }
        try {
            return (int) Long.parseLong(m.group(1));
        } catch (NumberFormatException overflow) {
            return m.group(1).startsWith("-") ? 0 : -1; // LONG_MIN and LONG_MAX, cut
        }
    }

    /** {@code l} without its {@code no} prefix. */
    static ConfigLine positive(ConfigLine l) {
        return l.keyword().equals("no") ? l.shift(1) : l;
    }

    /** One integer, read as C's atol (HAProxy checks only that it is there). */
    static long integer(ConfigLine l) throws ConfigException {
        Args.noMoreThan(l, 1, l.keyword());
        return Args.atol(Args.required(l, 1, l.keyword(), "an integer argument"));
    }

    /** {@code on} or {@code off}, with HAProxy's wording; true for on. */
    static boolean onOff(ConfigLine l) throws ConfigException {
        Args.noMoreThan(l, 1, l.keyword());
        if (!l.arg(1).equals("on") && !l.arg(1).equals("off")) {
            throw new ConfigException("'" + l.keyword() + "' expects either 'on' or 'off' but got '" + l.arg(1) + "'.");
        }
        return l.arg(1).equals("on");
    }

    /** A time of 0 to 65535 ms, with the messages of HAProxy's parse_time_err. */
    private static void idleTimer(ConfigLine l) throws ConfigException {
        Args.noMoreThan(l, 1, l.keyword());
        String v = l.arg(1);
        String range = "'" + l.keyword() + "' expects a timer value between 0 and 65535 ms.";
        if (v.isEmpty()) {
            throw new ConfigException(range);
        }
        long ms = SoftStopKeywords.time(l, v, false);
        if (ms > 65535) {
            throw new ConfigException(range);
        }
    }
}
