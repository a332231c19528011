package io.fulcrum.log;

import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.proxy.Mode;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.stats.Counters;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.runtime.ConnLimit;
import io.fulcrum.server.ServerEvents;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The process's logging at run time: the global targets, the sender thread they share with every proxy's, the
 * rings, and the process-wide connection count log lines report (%ac). Builds each frontend's logger.
 */
public final class ProcessLog implements AutoCloseable {
    private final GlobalLog global;
    /** Resolved once: every proxy with {@code log global} shares them, and their sampling. */
    private final List<LogTarget> globalTargets = new ArrayList<>();
    /** Each declared target as it sends: its default format set, a ring@ one with its ring's format and length. */
    private final Map<LogTarget, LogTarget> resolved = new IdentityHashMap<>();
    private final ConnLimit connections;
    private final Sinks sinks;
    private final LogSender sender;
    /** The longest line built: one less than the largest {@code len} of all targets, as in HAProxy. */
    private final int lineLimit;
    /**
     * Streams begun so far (a TCP session, an HTTP request whose head was read, a CLI connection), and lines logged
     * for connections that began none: HAProxy's request counter, whose draws are %rt and whose count is CumReq.
     */
    private final AtomicLong streams = new AtomicLong();
    private final LongAdder received = new LongAdder();

    /** @param connections the process's connection limit, whose count is %ac */
    public ProcessLog(ConfigModel model, ConnLimit connections) {
        this.global = GlobalLog.of(model);
        this.connections = connections;
        Map<String, RingSpec> rings = RingSpec.of(model);
        this.sinks = new Sinks(rings.values());
        DebugConverter.bind(sinks);
        this.sender = new LogSender(global.sendHostname, sinks);
        int longest = LogTarget.DEFAULT_LENGTH;
        for (LogTarget t : global.targets) {
            longest = Math.max(longest, t.maxLength());
            globalTargets.add(resolve(t, rings, global.defaultFormat()));
        }
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            ProxyLog log = p.partOrNull(ProxyLog.class);
            for (LogTarget t : log == null ? List.<LogTarget>of() : log.targets) {
                longest = Math.max(longest, t.maxLength());
                if (t != ProxyLog.GLOBAL) {
                    resolve(t, rings, global.defaultFormat());
                }
            }
        }
        for (LogForwardSpec f : LogForwardSpec.of(model).values()) {
            for (LogTarget t : f.targets) {
                if (t != ProxyLog.GLOBAL) {
                    // Without a format, a forwarded message keeps the one it came in (configuration.txt 3.10).
                    resolve(t, rings, SyslogFormat.LOCAL);
                }
            }
        }
        this.lineLimit = longest - 1;
        sinks.start();
    }

    /**
     * A declared target as the sender uses it, once per {@code log} line: a {@code ring@} target takes its ring's
     * format and maxlen (its own are ignored, as by HAProxy); a {@code tcp@} one gets a ring of its own, "ring#N",
     * with its format and length, whose forwarder sends each message followed by a newline.
     */
    private LogTarget resolve(LogTarget t, Map<String, RingSpec> rings, SyslogFormat defaultFormat) {
        return resolved.computeIfAbsent(t, k -> {
            LogTarget target = t.withFormat(defaultFormat);
            if (t.destination() instanceof LogDestination.Ring r) {
                RingSpec spec = rings.get(r.name());
                return target.to(r, spec.format, (int) Math.min(spec.maxlen, Integer.MAX_VALUE));
            }
            if (t.destination() instanceof LogDestination.Tcp tcp) {
                String name = "ring#" + (sinks.implicitCount() + 1);
                RingSpec spec = new RingSpec(name, "created from logserver declared into '" + t.source().file() + "' at line "
                        + t.source().line(), t.source());
                spec.format = target.format();
                spec.maxlen = t.maxLength();
                spec.servers.add(new RingSpec.Server(name, tcp.address(), false));
                sinks.add(spec);
                return target.to(new LogDestination.Ring(name), spec.format, t.maxLength());
            }
            return target;
        });
    }

    int lineLimit() {
        return lineLimit;
    }

    /** The longest request line the logs keep ({@code tune.http.logurilen}). */
    int requestLineLimit() {
        return Math.max(0, global.uriLength);
    }

    /** The logger of the frontend configured by {@code spec}. */
    /** @param counters the frontend's stats, which count each request as it arrives */
    public FrontendLogger frontend(ProxySpec spec, Counters counters) {
        ProxyLog p = spec.partOrNull(ProxyLog.class);
        HeaderCaptures captures = spec.partOrNull(HeaderCaptures.class);
        return new FrontendLogger(this, spec.name(), p == null ? new ProxyLog() : p, captures == null ? HeaderCaptures.NONE : captures,
                spec.mode == Mode.HTTP, counters);
    }

    /** Where the events of the servers of the backend configured by {@code spec} go: stderr and its log targets. */
    public ServerEvents serverEvents(ProxySpec spec, Diagnostics diag) {
        return new ServerEventLog(frontend(spec, new Counters()), diag); // sends events only: counts nothing
    }

    /** The targets of a proxy's {@code log} lines, {@code log global} replaced by the global ones. */
    LogTarget[] targets(List<LogTarget> declared) {
        List<LogTarget> out = new ArrayList<>();
        for (LogTarget t : declared) {
            if (t == ProxyLog.GLOBAL) {
                out.addAll(globalTargets);
            } else {
                out.add(resolved.get(t));
            }
        }
        return out.toArray(new LogTarget[0]);
    }

    String tag(String proxyTag) {
        return proxyTag != null ? proxyTag : global.tag != null ? global.tag : GlobalLog.PROGRAM;
    }

    int actconn() {
        return connections.current();
    }

    /** Draws the number of a stream that begins (or of a line logged for a connection without one). */
    public long nextStream() {
        return streams.getAndIncrement();
    }

    /** The numbers drawn so far (CumReq). */
    public long streams() {
        return streams.get();
    }

    /** Queues a syslog message a {@code log-forward} section received for {@code targets}; never blocks. */
    void forward(LogTarget[] targets, byte[] message) {
        received.increment();
        sender.offer(LogMessage.received(targets, message, LogDates.nowMicros()));
    }

    /** Syslog messages the {@code log-forward} sections received (CumRecvLogs). */
    public long receivedLogs() {
        return received.sum();
    }

    /** Log lines dropped because the sender's queue was full (DroppedLogs). */
    public long droppedLogs() {
        return sender.dropped();
    }

    LogSender sender() {
        return sender;
    }

    Sinks sinks() {
        return sinks;
    }

    /** Sends what is still queued, then stops the sender and the rings' forwarders. */
    @Override
    public void close() {
        sender.close();
        sinks.close();
    }
}
