package io.fulcrum.runtime;

import java.nio.file.Path;

/** The process-wide settings of the {@code global} section (several global sections merge into one). */
public final class GlobalSettings {
    /** 0 means "derived from the file descriptor limit" ({@link FdBudget}). */
    public int maxconn;
    /** {@code ulimit-n}: the limit on open files to ask for; 0: maxsock. */
    public int ulimitN;
    /** {@code fd-hard-limit}: the most open files the process asks for or counts on; 0: none. */
    public int fdHardLimit;
    /** {@code cpu-map}: the CPUs of each event loop's thread. */
    public final CpuMap cpuMap = new CpuMap();
    /** {@code strict-limits} (on unless {@code no strict-limits}): a limit the system refuses stops the start. */
    public boolean strictLimits = true;
    /** {@code maxconnrate}, {@code maxsessrate}, {@code maxsslrate}: accepted per second, process-wide; 0: no limit. */
    public int maxconnrate;
    public int maxsessrate;
    public int maxsslrate;
    /** 0 means "one per available CPU". */
    public int nbthread;
    public boolean daemon;
    public Path pidfile;
    /** Milliseconds; 0 means soft stops wait for every session. */
    public long hardStopAfter;
    /** {@code grace}: ms between SIGUSR1 (the stopping fetch turns true) and the soft stop proper; 0: none. */
    public long grace;
    /** {@code close-spread-time}: ms over which a soft stop closes the connections; 0: at once; {@link CloseSpread#INFINITE}. */
    public long closeSpreadTime;
    /** {@code busy-polling}: the event loops poll without ever sleeping. */
    public boolean busyPolling;
    /**
     * {@code sched-batch} (the default) or {@code no sched-batch}, Fulcrum's own keyword: the event loops' threads
     * under Linux's SCHED_BATCH policy. Their wake-ups then wait for the running task's tick or sleep instead of preempting
     * it: on a box whose CPUs other busy processes share, a loop woken by each completion kept cutting into them (ten
     * times the involuntary context switches haproxy caused them), while a loop that waits finds more work per pass.
     */
    public boolean schedBatch = true;
    /** {@code profiling.tasks}: on, auto or off ({@link Profiling}). */
    public String profilingTasks = "auto";
    /** {@code tune.maxpollevents}: events taken per poll; 0 or less: Netty's own, sized to the load. */
    public int maxPollEvents;
    /** {@code noepoll} (or {@code -de}): the JDK's NIO selector instead of Netty's native epoll. */
    public boolean noEpoll;
    /**
     * {@code io-uring} (TRUE) or {@code no io-uring} (FALSE), Fulcrum's own keyword: the loops on io_uring or on epoll;
     * null lets {@link PollerChoice} choose. The JVM property {@code fulcrum.io-uring} (true or false) stands for the
     * keyword when the configuration has none (the test suite runs on either poller with it).
     */
    public Boolean ioUring = System.getProperty("fulcrum.io-uring") == null ? null : Boolean.getBoolean("fulcrum.io-uring");
    /**
     * {@code -m}: the megabytes the process may allocate, 0 for no limit (show info's Memmax_MB). HAProxy sets its
     * address-space limit; a JVM reserves far more address space than it uses, so Fulcrum caps Netty's direct memory
     * instead, where the data path's buffers are ({@link MemoryLimit}).
     */
    public long memmaxMb;
    public boolean zeroWarning;
    /** {@code cluster-secret} was given (a second one is reported, as by HAProxy). */
    public boolean clusterSecret;
    /** {@code tune.listener.multi-queue}: an accepted connection may go to a less busy loop than the accepting one. */
    public boolean multiQueue = true;
    /** {@code noreuseport} (or {@code -dR}): listening sockets without SO_REUSEPORT. */
    public boolean noReusePort;
    /** {@code tune.maxaccept}: connections a listener accepts per wake-up; 0: unset (4), negative: no limit. */
    public int maxaccept;
    /** {@code expose-experimental-directives}: experimental keywords (normalize-uri) are allowed. */
    public boolean experimental;
    /** {@code node}: the name {@code show info} and the stats page give the process (null: the host's name). */
    public String node;
    /** {@code description}: what the stats page says of the process ({@code stats show-desc}), or null. */
    public String description;
    /** How many old processes {@code -sf}/{@code -st} named: a reload, whose old process may teach the new one (peers). */
    public int oldProcesses;

    /** {@code chroot}: the directory the process locks itself in once its sockets are bound, or null. */
    public String chroot;
    /** {@code uid}/{@code user}, {@code gid}/{@code group}: the identity taken once the sockets are bound; 0: keep. */
    public int uid;
    public int gid;

    /** {@code nbthread}, else one thread per CPU, at most 64 as HAProxy's (and the loops' statistics cells). */
    public int effectiveNbthread() {
        return nbthread > 0 ? nbthread : Math.min(Runtime.getRuntime().availableProcessors(), 64);
    }
}
