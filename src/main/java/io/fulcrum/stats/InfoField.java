package io.fulcrum.stats;

/**
 * The fields of {@code show info}, as HAProxy 2.6 numbers, names, tags and types them (positions it leaves
 * empty without zlib or a description are left out). Defined once, rendered plain, typed and as JSON.
 */
public enum InfoField {
    NAME(0, "Name", "POS", "str",
            "Product name"),
    VERSION(1, "Version", "POS", "str",
            "Product version"),
    RELEASE_DATE(2, "Release_date", "POS", "str",
            "Date of latest source code update"),
    NBTHREAD(3, "Nbthread", "CGS", "u32",
            "Number of started threads (global.nbthread)"),
    NBPROC(4, "Nbproc", "CGS", "u32",
            "Number of started worker processes (historical, always 1)"),
    PROCESS_NUM(5, "Process_num", "KGP", "u32",
            "Relative worker process number (1)"),
    PID(6, "Pid", "SGP", "u32",
            "This worker process identifier for the system"),
    UPTIME(7, "Uptime", "MDP", "str",
            "How long ago this worker process was started (days+hours+minutes+seconds)"),
    UPTIME_SEC(8, "Uptime_sec", "MDP", "u32",
            "How long ago this worker process was started (seconds)"),
    MEMMAX_MB(9, "Memmax_MB", "CLP", "u32",
            "Worker process's hard limit on memory usage in MB (-m on command line)"),
    POOLALLOC_MB(10, "PoolAlloc_MB", "MGP", "u32",
            "Amount of memory allocated in pools (in MB)"),
    POOLUSED_MB(11, "PoolUsed_MB", "MGP", "u32",
            "Amount of pool memory currently used (in MB)"),
    POOLFAILED(12, "PoolFailed", "MCP", "u32",
            "Number of failed pool allocations since this worker was started"),
    ULIMIT_N(13, "Ulimit-n", "CLP", "u32",
            "Hard limit on the number of per-process file descriptors"),
    MAXSOCK(14, "Maxsock", "CLP", "u32",
            "Hard limit on the number of per-process sockets"),
    MAXCONN(15, "Maxconn", "CLP", "u32",
            "Hard limit on the number of per-process connections (configured or imposed by Ulimit-n)"),
    HARD_MAXCONN(16, "Hard_maxconn", "CLP", "u32",
            "Hard limit on the number of per-process connections (imposed by Memmax_MB or Ulimit-n)"),
    CURRCONNS(17, "CurrConns", "MGP", "u32",
            "Current number of connections on this worker process"),
    CUMCONNS(18, "CumConns", "MCP", "u32",
            "Total number of connections on this worker process since started"),
    CUMREQ(19, "CumReq", "MCP", "u32",
            "Total number of requests on this worker process since started"),
    MAXSSLCONNS(20, "MaxSslConns", "MMP", "u32",
            "Hard limit on the number of per-process SSL endpoints (front+back), 0=unlimited"),
    CURRSSLCONNS(21, "CurrSslConns", "MGP", "u32",
            "Current number of SSL endpoints on this worker process (front+back)"),
    CUMSSLCONNS(22, "CumSslConns", "MCP", "u32",
            "Total number of SSL endpoints on this worker process since started (front+back)"),
    MAXPIPES(23, "Maxpipes", "CLP", "u32",
            "Hard limit on the number of pipes for splicing, 0=unlimited"),
    PIPESUSED(24, "PipesUsed", "MGP", "u32",
            "Current number of pipes in use in this worker process"),
    PIPESFREE(25, "PipesFree", "MGP", "u32",
            "Current number of allocated and available pipes in this worker process"),
    CONNRATE(26, "ConnRate", "MRP", "u32",
            "Number of front connections created on this worker process over the last second"),
    CONNRATELIMIT(27, "ConnRateLimit", "CLP", "u32",
            "Hard limit for ConnRate (global.maxconnrate)"),
    MAXCONNRATE(28, "MaxConnRate", "MMP", "u32",
            "Highest ConnRate reached on this worker process since started (in connections per second)"),
    SESSRATE(29, "SessRate", "MRP", "u32",
            "Number of sessions created on this worker process over the last second"),
    SESSRATELIMIT(30, "SessRateLimit", "CLP", "u32",
            "Hard limit for SessRate (global.maxsessrate)"),
    MAXSESSRATE(31, "MaxSessRate", "MRP", "u32",
            "Highest SessRate reached on this worker process since started (in sessions per second)"),
    SSLRATE(32, "SslRate", "MRP", "u32",
            "Number of SSL connections created on this worker process over the last second"),
    SSLRATELIMIT(33, "SslRateLimit", "CLP", "u32",
            "Hard limit for SslRate (global.maxsslrate)"),
    MAXSSLRATE(34, "MaxSslRate", "MMP", "u32",
            "Highest SslRate reached on this worker process since started (in connections per second)"),
    SSLFRONTENDKEYRATE(35, "SslFrontendKeyRate", "MGP", "u32",
            "Number of SSL keys created on frontends in this worker process over the last second"),
    SSLFRONTENDMAXKEYRATE(36, "SslFrontendMaxKeyRate", "MMP", "u32",
            "Highest SslFrontendKeyRate reached on this worker process since started (in SSL keys per second)"),
    SSLFRONTENDSESSIONREUSE_PCT(37, "SslFrontendSessionReuse_pct", "MGP", "u32",
            "Percent of frontend SSL connections which did not require a new key"),
    SSLBACKENDKEYRATE(38, "SslBackendKeyRate", "MRP", "u32",
            "Number of SSL keys created on backends in this worker process over the last second"),
    SSLBACKENDMAXKEYRATE(39, "SslBackendMaxKeyRate", "MMP", "u32",
            "Highest SslBackendKeyRate reached on this worker process since started (in SSL keys per second)"),
    SSLCACHELOOKUPS(40, "SslCacheLookups", "MCP", "u32",
            "Total number of SSL session ID lookups in the SSL session cache on this worker since started"),
    SSLCACHEMISSES(41, "SslCacheMisses", "MCP", "u32",
            "Total number of SSL session ID lookups that didn't find a session in the SSL session cache on this worker since started"),
    COMPRESSBPSIN(42, "CompressBpsIn", "MRP", "u32",
            "Number of bytes submitted to the HTTP compressor in this worker process over the last second"),
    COMPRESSBPSOUT(43, "CompressBpsOut", "MRP", "u32",
            "Number of bytes emitted by the HTTP compressor in this worker process over the last second"),
    COMPRESSBPSRATELIM(44, "CompressBpsRateLim", "CLP", "u32",
            "Limit of CompressBpsOut beyond which HTTP compression is automatically disabled"),
    ZLIBMEMUSAGE(45, "ZlibMemUsage", "MGP", "u32",
            "Amount of memory currently used by HTTP compression on the current worker process (in bytes)"),
    MAXZLIBMEMUSAGE(46, "MaxZlibMemUsage", "CLP", "u32",
            "Limit on the amount of memory used by HTTP compression above which it is automatically disabled (in bytes, see global.maxzlibmem)"),
    TASKS(47, "Tasks", "MGP", "u32",
            "Total number of tasks in the current worker process (active + sleeping)"),
    RUN_QUEUE(48, "Run_queue", "MGP", "u32",
            "Total number of active tasks+tasklets in the current worker process"),
    IDLE_PCT(49, "Idle_pct", "MaP", "u32",
            "Percentage of last second spent waiting in the current worker thread"),
    NODE(50, "node", "COS", "str",
            "Node name (global.node)"),
    STOPPING(52, "Stopping", "MGP", "u32",
            "1 if the worker process is currently stopping, otherwise zero"),
    JOBS(53, "Jobs", "MGP", "u32",
            "Current number of active jobs on the current worker process (frontend connections, master connections, listeners)"),
    UNSTOPPABLE_JOBS(54, "Unstoppable Jobs", "MGP", "u32",
            "Current number of unstoppable jobs on the current worker process (master connections)"),
    LISTENERS(55, "Listeners", "MGP", "u32",
            "Current number of active listeners on the current worker process"),
    ACTIVEPEERS(56, "ActivePeers", "MGP", "u32",
            "Current number of verified active peers connections on the current worker process"),
    CONNECTEDPEERS(57, "ConnectedPeers", "MGP", "u32",
            "Current number of peers having passed the connection step on the current worker process"),
    DROPPEDLOGS(58, "DroppedLogs", "MGP", "u32",
            "Total number of dropped logs for current worker process since started"),
    BUSYPOLLING(59, "BusyPolling", "MGP", "u32",
            "1 if busy-polling is currently in use on the worker process, otherwise zero (config.busy-polling)"),
    FAILEDRESOLUTIONS(60, "FailedResolutions", "MGP", "u32",
            "Total number of failed DNS resolutions in current worker process since started"),
    TOTALBYTESOUT(61, "TotalBytesOut", "MGP", "u64",
            "Total number of bytes emitted by current worker process since started"),
    TOTALSPLICDEDBYTESOUT(62, "TotalSplicdedBytesOut", "MGP", "u64",
            "Total number of bytes emitted by current worker process through a kernel pipe since started"),
    BYTESOUTRATE(63, "BytesOutRate", "MRP", "u64",
            "Number of bytes emitted by current worker process over the last second"),
    DEBUGCOMMANDSISSUED(64, "DebugCommandsIssued", "MGP", "u32",
            "Number of debug commands issued on this process (anything > 0 is unsafe)"),
    CUMRECVLOGS(65, "CumRecvLogs", "MCP", "u32",
            "Total number of log messages received by log-forwarding listeners on this worker process since started"),
    BUILD_INFO(66, "Build info", "POS", "str",
            "Build info"),
    MEMMAX_BYTES(67, "Memmax_bytes", "CLP", "u32",
            "Worker process's hard limit on memory usage in byes (-m on command line)"),
    POOLALLOC_BYTES(68, "PoolAlloc_bytes", "MGP", "u64",
            "Amount of memory allocated in pools (in bytes)"),
    POOLUSED_BYTES(69, "PoolUsed_bytes", "MGP", "u64",
            "Amount of pool memory currently used (in bytes)"),
    START_TIME_SEC(70, "Start_time_sec", "MDP", "u32",
            "Start time in seconds"),
    TAINTED(71, "Tainted", "SGP", "str",
            "Experimental features used");

    private final int pos;
    private final String fieldName;
    private final String tags;
    private final String type;
    private final String description;

    InfoField(int pos, String fieldName, String tags, String type, String description) {
        this.pos = pos;
        this.fieldName = fieldName;
        this.tags = tags;
        this.type = type;
        this.description = description;
    }

    public int pos() {
        return pos;
    }

    public String fieldName() {
        return fieldName;
    }

    public String description() {
        return description;
    }

    /**
     * Given as a float by {@code show info float}, as HAProxy 2.6 fills these fields with mkf_flt(): the uptime and
     * start date (to the microsecond there) and the rates.
     */
    boolean floats() {
        return switch (this) {
            case UPTIME_SEC, START_TIME_SEC, CONNRATE, SESSRATE, SSLRATE, SSLFRONTENDKEYRATE, SSLFRONTENDSESSIONREUSE_PCT,
                    SSLBACKENDKEYRATE, COMPRESSBPSIN, COMPRESSBPSOUT -> true;
            default -> false;
        };
    }

    /**
     * The tags, with {@code show info float} or not: a field given as a float is a rate there (HAProxy's FN_RATE)
     * where its integer form may say gauge.
     */
    String tags(boolean asFloat) {
        return asFloat && floats() && tags.charAt(1) == 'G' ? tags.charAt(0) + "R" + tags.substring(2) : tags;
    }

    /** The type, with {@code show info float} or not. */
    String type(boolean asFloat) {
        return asFloat && floats() ? "flt" : type;
    }
}
