package io.fulcrum.stats;

import io.fulcrum.Version;
import io.fulcrum.backend.Backend;
import io.fulcrum.log.Hostname;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.compression.CompressionRate;
import io.fulcrum.compression.ZlibMemory;
import io.fulcrum.runtime.AcceptRate;
import io.fulcrum.runtime.Fulcrum;
import io.fulcrum.server.Server;
import io.fulcrum.stats.Counters.Count;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.SingleThreadEventExecutor;
import io.netty.util.internal.PlatformDependent;

import java.lang.management.ManagementFactory;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The values of {@code show info} for the running process. */
public final class ProcessInfo {
    private ProcessInfo() {
    }

    static Map<InfoField, Object> of(Fulcrum p) {
        Map<InfoField, Object> v = new EnumMap<>(InfoField.class);
        long now = System.currentTimeMillis();
        long uptime = (now - p.startMillis()) / 1000;
        long direct = Math.max(0, PlatformDependent.usedDirectMemory());
        int nbthread = p.global().effectiveNbthread();
        v.put(InfoField.NAME, "Fulcrum");
        v.put(InfoField.VERSION, Version.FULCRUM);
        v.put(InfoField.RELEASE_DATE, Version.DATE);
        v.put(InfoField.NBTHREAD, (long) nbthread);
        v.put(InfoField.NBPROC, 1L);
        v.put(InfoField.PROCESS_NUM, 1L);
        v.put(InfoField.PID, ProcessHandle.current().pid());
        v.put(InfoField.UPTIME, String.format("%dd %dh%02dm%02ds", uptime / 86400, uptime / 3600 % 24, uptime / 60 % 60, uptime % 60));
        v.put(InfoField.UPTIME_SEC, uptime);
        v.put(InfoField.MEMMAX_MB, p.global().memmaxMb);
        v.put(InfoField.MEMMAX_BYTES, p.global().memmaxMb << 20);
        v.put(InfoField.POOLALLOC_MB, direct >> 20);
        v.put(InfoField.POOLUSED_MB, direct >> 20);
        v.put(InfoField.POOLFAILED, 0L);
        v.put(InfoField.ULIMIT_N, p.fds().ulimitN());
        v.put(InfoField.MAXSOCK, p.fds().maxsock());
        v.put(InfoField.MAXCONN, (long) p.connections().max());
        v.put(InfoField.HARD_MAXCONN, (long) p.fds().maxconn());
        v.put(InfoField.CURRCONNS, (long) p.connections().current());
        v.put(InfoField.CUMCONNS, p.connections().total() + p.cliConnections().total() + p.services().info(InfoField.CUMCONNS));
        v.put(InfoField.CUMREQ, p.logging().streams() + p.services().info(InfoField.CUMREQ));
        v.put(InfoField.CUMRECVLOGS, p.logging().receivedLogs());
        for (InfoField f : new InfoField[] {InfoField.MAXSSLCONNS, InfoField.CURRSSLCONNS, InfoField.CUMSSLCONNS,
                InfoField.SSLFRONTENDKEYRATE, InfoField.SSLFRONTENDMAXKEYRATE, InfoField.SSLBACKENDKEYRATE,
                InfoField.SSLBACKENDMAXKEYRATE, InfoField.SSLCACHELOOKUPS, InfoField.SSLCACHEMISSES}) {
            v.put(f, p.services().info(f)); // the TLS subsystem's
        }
        for (InfoField f : new InfoField[] {InfoField.MAXPIPES,
                InfoField.PIPESUSED, InfoField.PIPESFREE, InfoField.UNSTOPPABLE_JOBS,
                InfoField.BUSYPOLLING, InfoField.FAILEDRESOLUTIONS, InfoField.TOTALSPLICDEDBYTESOUT,
                InfoField.DEBUGCOMMANDSISSUED}) {
            v.put(f, 0L);
        }
        Counters c = p.counters();
        v.put(InfoField.CONNRATE, c.connectionRate().rate());
        v.put(InfoField.MAXCONNRATE, c.connectionRate().max());
        v.put(InfoField.SESSRATE, c.sessionRate().rate());
        v.put(InfoField.MAXSESSRATE, c.sessionRate().max());
        AcceptRate rates = p.acceptRate();
        v.put(InfoField.CONNRATELIMIT, (long) rates.connLimit());
        v.put(InfoField.SESSRATELIMIT, (long) rates.sessLimit());
        v.put(InfoField.SSLRATE, rates.tls().rate());
        v.put(InfoField.SSLRATELIMIT, (long) rates.tlsLimit());
        v.put(InfoField.MAXSSLRATE, rates.tls().max());
        v.put(InfoField.SSLFRONTENDSESSIONREUSE_PCT, reusePercent(rates.tls().rate(), (Long) v.get(InfoField.SSLFRONTENDKEYRATE)));
        v.put(InfoField.COMPRESSBPSIN, CompressionRate.in().rate());
        v.put(InfoField.COMPRESSBPSOUT, CompressionRate.out().rate());
        v.put(InfoField.COMPRESSBPSRATELIM, CompressionRate.limit());
        v.put(InfoField.ZLIBMEMUSAGE, ZlibMemory.used());
        // A u32 as in HAProxy, where a limit of 4 GB or more shows cut (and a negative one, which is no limit, too).
        v.put(InfoField.MAXZLIBMEMUSAGE, ZlibMemory.limit() & 0xffffffffL);
        long ready = 0;
        for (EventExecutor e : p.loops().group()) {
            if (e instanceof SingleThreadEventExecutor s) {
                ready += s.pendingTasks();
            }
        }
        v.put(InfoField.TASKS, tasks(p) + ready);
        v.put(InfoField.RUN_QUEUE, ready);
        v.put(InfoField.IDLE_PCT, idlePercent(nbthread));
        v.put(InfoField.NODE, p.global().node != null ? p.global().node : Hostname.name());
        v.put(InfoField.STOPPING, p.stopping() ? 1L : 0L);
        long listeners = p.listeners().size() + p.services().info(InfoField.LISTENERS);
        v.put(InfoField.JOBS, p.connections().current() + p.cliConnections().current() + listeners + p.services().info(InfoField.JOBS));
        v.put(InfoField.LISTENERS, listeners);
        v.put(InfoField.ACTIVEPEERS, p.services().info(InfoField.ACTIVEPEERS));
        v.put(InfoField.CONNECTEDPEERS, p.services().info(InfoField.CONNECTEDPEERS));
        v.put(InfoField.DROPPEDLOGS, p.droppedLogs());
        v.put(InfoField.TOTALBYTESOUT, bytesOut(p));
        v.put(InfoField.BYTESOUTRATE, p.bytesOutRate().rate());
        v.put(InfoField.BUILD_INFO, Version.FULCRUM + " (HAProxy language " + Version.HAPROXY + ")");
        v.put(InfoField.POOLALLOC_BYTES, direct);
        v.put(InfoField.POOLUSED_BYTES, direct);
        v.put(InfoField.START_TIME_SEC, p.startMillis() / 1000);
        v.put(InfoField.TAINTED, "0");
        return v;
    }

    /** A field's value as {@code show info float} gives it: the uptime and start date to the millisecond. */
    static Flt asFloat(InfoField f, Object value, Fulcrum p) {
        return switch (f) {
            case UPTIME_SEC -> new Flt((System.currentTimeMillis() - p.startMillis()) / 1000.0);
            case START_TIME_SEC -> new Flt(p.startMillis() / 1000.0);
            default -> new Flt(((Number) value).doubleValue());
        };
    }

    /** A float as HAProxy prints one (%f without its trailing zeros and dot: 12.5, 0), in every form. */
    record Flt(double value) {
        @Override
        public String toString() {
            String s = String.format(Locale.ROOT, "%f", value);
            s = s.replaceAll("0+$", "");
            return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
        }
    }

    /**
     * SslFrontendSessionReuse_pct as HAProxy computes it: the share of the TLS connections accepted over the last
     * second that made no new key, rounded, 0 when as many keys as connections (or more) were made.
     */
    static long reusePercent(long connectionRate, long keyRate) {
        return keyRate < connectionRate ? 100 - (100 * keyRate + (connectionRate - 1) / 2) / connectionRate : 0;
    }

    /**
     * The tasks HAProxy would hold for what the process holds now, sleeping ones too: one per proxy section, per
     * health check and agent, per connection (the clients', the CLI's, the servers', idle ones too) and per stream
     * (a transaction between its request and its end, queued ones included). HAProxy's fixed tasks (7, plus 2 per
     * thread) have no counterpart; the work queued in the loops (Run_queue) is added by the caller.
     */
    static long tasks(Fulcrum p) {
        Set<String> proxies = new HashSet<>(p.backends().keySet()); // (a listen section is a frontend and a backend)
        long n = p.connections().current() + p.cliConnections().current() + p.checks().sockets();
        for (Frontend fe : p.frontends()) {
            proxies.add(fe.name());
        }
        for (Backend be : p.backends().values()) {
            n += be.streams().current();
            for (Server s : be.servers()) {
                n += s.currentConnections();
            }
        }
        return n + proxies.size();
    }

    /** Bytes the process sent: to its clients and to its servers. */
    public static long bytesOut(Fulcrum p) {
        long bytes = 0;
        for (Frontend fe : p.frontends()) {
            bytes += fe.counters().get(Count.BYTES_OUT);
        }
        for (Backend be : p.backends().values()) {
            bytes += be.counters().get(Count.BYTES_IN); // what went to the servers
        }
        return bytes;
    }

    /** The share of the last moments the event loops' threads did not use the CPU, from the process's CPU load. */
    public static long idlePercent(int nbthread) {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            double load = os.getProcessCpuLoad(); // of all CPUs together, 0..1
            if (load >= 0) {
                double busy = load * Runtime.getRuntime().availableProcessors() / Math.max(1, nbthread);
                return Math.max(0, Math.min(100, Math.round(100 * (1 - busy))));
            }
        }
        return 100;
    }
}
