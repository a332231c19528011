package io.fulcrum.stats;

import java.util.Locale;

/**
 * The metrics of HAProxy 2.6's Prometheus exporter, in its order, with its names, types and help texts, each
 * read from the stats field (or {@code show info} field) it exports, so that dashboards and alert rules
 * written for HAProxy's exporter work unchanged. A metric's help is its field's description unless HAProxy's
 * exporter words it differently. The scope (process, frontend, backend, server) is the name's
 * first word.
 */
enum PromMetric {
    PROCESS_NBTHREAD("gauge", Kind.PLAIN, InfoField.NBTHREAD),
    PROCESS_NBPROC("gauge", Kind.PLAIN, InfoField.NBPROC),
    PROCESS_RELATIVE_PROCESS_ID("gauge", Kind.PLAIN, InfoField.PROCESS_NUM),
    PROCESS_UPTIME_SECONDS("gauge", Kind.PLAIN, InfoField.UPTIME_SEC),
    PROCESS_POOL_FAILURES_TOTAL("counter", Kind.PLAIN, InfoField.POOLFAILED),
    PROCESS_MAX_FDS("gauge", Kind.PLAIN, InfoField.ULIMIT_N),
    PROCESS_MAX_SOCKETS("gauge", Kind.PLAIN, InfoField.MAXSOCK),
    PROCESS_MAX_CONNECTIONS("gauge", Kind.PLAIN, InfoField.MAXCONN),
    PROCESS_HARD_MAX_CONNECTIONS("gauge", Kind.PLAIN, InfoField.HARD_MAXCONN),
    PROCESS_CURRENT_CONNECTIONS("gauge", Kind.PLAIN, InfoField.CURRCONNS),
    PROCESS_CONNECTIONS_TOTAL("counter", Kind.PLAIN, InfoField.CUMCONNS),
    PROCESS_REQUESTS_TOTAL("counter", Kind.PLAIN, InfoField.CUMREQ),
    PROCESS_MAX_SSL_CONNECTIONS("gauge", Kind.PLAIN, InfoField.MAXSSLCONNS),
    PROCESS_CURRENT_SSL_CONNECTIONS("gauge", Kind.PLAIN, InfoField.CURRSSLCONNS),
    PROCESS_SSL_CONNECTIONS_TOTAL("counter", Kind.PLAIN, InfoField.CUMSSLCONNS),
    PROCESS_MAX_PIPES("gauge", Kind.PLAIN, InfoField.MAXPIPES),
    PROCESS_PIPES_USED_TOTAL("counter", Kind.PLAIN, InfoField.PIPESUSED),
    PROCESS_PIPES_FREE_TOTAL("counter", Kind.PLAIN, InfoField.PIPESFREE),
    PROCESS_CURRENT_CONNECTION_RATE("gauge", Kind.PLAIN, InfoField.CONNRATE),
    PROCESS_LIMIT_CONNECTION_RATE("gauge", Kind.PLAIN, InfoField.CONNRATELIMIT),
    PROCESS_MAX_CONNECTION_RATE("gauge", Kind.PLAIN, InfoField.MAXCONNRATE),
    PROCESS_CURRENT_SESSION_RATE("gauge", Kind.PLAIN, InfoField.SESSRATE),
    PROCESS_LIMIT_SESSION_RATE("gauge", Kind.PLAIN, InfoField.SESSRATELIMIT),
    PROCESS_MAX_SESSION_RATE("gauge", Kind.PLAIN, InfoField.MAXSESSRATE),
    PROCESS_CURRENT_SSL_RATE("gauge", Kind.PLAIN, InfoField.SSLRATE),
    PROCESS_LIMIT_SSL_RATE("gauge", Kind.PLAIN, InfoField.SSLRATELIMIT),
    PROCESS_MAX_SSL_RATE("gauge", Kind.PLAIN, InfoField.MAXSSLRATE),
    PROCESS_CURRENT_FRONTEND_SSL_KEY_RATE("gauge", Kind.PLAIN, InfoField.SSLFRONTENDKEYRATE),
    PROCESS_MAX_FRONTEND_SSL_KEY_RATE("gauge", Kind.PLAIN, InfoField.SSLFRONTENDMAXKEYRATE),
    PROCESS_FRONTEND_SSL_REUSE("gauge", Kind.PLAIN, InfoField.SSLFRONTENDSESSIONREUSE_PCT),
    PROCESS_CURRENT_BACKEND_SSL_KEY_RATE("gauge", Kind.PLAIN, InfoField.SSLBACKENDKEYRATE),
    PROCESS_MAX_BACKEND_SSL_KEY_RATE("gauge", Kind.PLAIN, InfoField.SSLBACKENDMAXKEYRATE),
    PROCESS_SSL_CACHE_LOOKUPS_TOTAL("counter", Kind.PLAIN, InfoField.SSLCACHELOOKUPS),
    PROCESS_SSL_CACHE_MISSES_TOTAL("counter", Kind.PLAIN, InfoField.SSLCACHEMISSES),
    PROCESS_HTTP_COMP_BYTES_IN_TOTAL("counter", Kind.PLAIN, InfoField.COMPRESSBPSIN),
    PROCESS_HTTP_COMP_BYTES_OUT_TOTAL("counter", Kind.PLAIN, InfoField.COMPRESSBPSOUT),
    PROCESS_LIMIT_HTTP_COMP("gauge", Kind.PLAIN, InfoField.COMPRESSBPSRATELIM),
    PROCESS_CURRENT_ZLIB_MEMORY("gauge", Kind.NAN,
            "Amount of memory currently used by HTTP compression on the current worker process (in bytes)"),
    PROCESS_MAX_ZLIB_MEMORY("gauge", Kind.NAN,
            "Limit on the amount of memory used by HTTP compression above which it is automatically disabled (in bytes, see global.maxzlibmem)"),
    PROCESS_CURRENT_TASKS("gauge", Kind.PLAIN, InfoField.TASKS),
    PROCESS_CURRENT_RUN_QUEUE("gauge", Kind.PLAIN, InfoField.RUN_QUEUE),
    PROCESS_IDLE_TIME_PERCENT("gauge", Kind.PLAIN, InfoField.IDLE_PCT),
    PROCESS_STOPPING("gauge", Kind.PLAIN, InfoField.STOPPING),
    PROCESS_JOBS("gauge", Kind.PLAIN, InfoField.JOBS),
    PROCESS_UNSTOPPABLE_JOBS("gauge", Kind.PLAIN, InfoField.UNSTOPPABLE_JOBS),
    PROCESS_LISTENERS("gauge", Kind.PLAIN, InfoField.LISTENERS),
    PROCESS_ACTIVE_PEERS("gauge", Kind.PLAIN, InfoField.ACTIVEPEERS),
    PROCESS_CONNECTED_PEERS("gauge", Kind.PLAIN, InfoField.CONNECTEDPEERS),
    PROCESS_DROPPED_LOGS_TOTAL("counter", Kind.PLAIN, InfoField.DROPPEDLOGS),
    PROCESS_BUSY_POLLING_ENABLED("gauge", Kind.PLAIN, InfoField.BUSYPOLLING),
    PROCESS_FAILED_RESOLUTIONS("counter", Kind.PLAIN, InfoField.FAILEDRESOLUTIONS),
    PROCESS_BYTES_OUT_TOTAL("counter", Kind.PLAIN, InfoField.TOTALBYTESOUT),
    PROCESS_SPLICED_BYTES_OUT_TOTAL("counter", Kind.PLAIN, InfoField.TOTALSPLICDEDBYTESOUT),
    PROCESS_BYTES_OUT_RATE("gauge", Kind.PLAIN, InfoField.BYTESOUTRATE),
    PROCESS_RECV_LOGS_TOTAL("counter", Kind.PLAIN, InfoField.CUMRECVLOGS),
    PROCESS_BUILD_INFO("gauge", Kind.BUILD,
            "Build info"),
    PROCESS_MAX_MEMORY_BYTES("gauge", Kind.PLAIN, InfoField.MEMMAX_BYTES),
    PROCESS_POOL_ALLOCATED_BYTES("gauge", Kind.PLAIN, InfoField.POOLALLOC_BYTES),
    PROCESS_POOL_USED_BYTES("gauge", Kind.PLAIN, InfoField.POOLUSED_BYTES),
    PROCESS_START_TIME_SECONDS("gauge", Kind.PLAIN, InfoField.START_TIME_SEC),
    FRONTEND_CURRENT_SESSIONS("gauge", Kind.PLAIN, StatField.SCUR),
    FRONTEND_MAX_SESSIONS("gauge", Kind.PLAIN, StatField.SMAX),
    FRONTEND_LIMIT_SESSIONS("gauge", Kind.PLAIN, StatField.SLIM),
    FRONTEND_SESSIONS_TOTAL("counter", Kind.PLAIN, StatField.STOT),
    FRONTEND_BYTES_IN_TOTAL("counter", Kind.PLAIN, StatField.BIN),
    FRONTEND_BYTES_OUT_TOTAL("counter", Kind.PLAIN, StatField.BOUT),
    FRONTEND_REQUESTS_DENIED_TOTAL("counter", Kind.PLAIN, StatField.DREQ),
    FRONTEND_RESPONSES_DENIED_TOTAL("counter", Kind.PLAIN, StatField.DRESP),
    FRONTEND_REQUEST_ERRORS_TOTAL("counter", Kind.PLAIN, StatField.EREQ),
    FRONTEND_STATUS("gauge", Kind.STATE, StatField.STATUS,
            "Current status of the service, per state label value."),
    FRONTEND_LIMIT_SESSION_RATE("gauge", Kind.PLAIN, StatField.RATE_LIM),
    FRONTEND_MAX_SESSION_RATE("gauge", Kind.PLAIN, StatField.RATE_MAX),
    FRONTEND_HTTP_RESPONSES_TOTAL("counter", Kind.CODE,
            "Total number of HTTP responses with status 100-199 returned by this object since the worker process started"),
    FRONTEND_HTTP_REQUESTS_RATE_MAX("gauge", Kind.PLAIN, StatField.REQ_RATE_MAX),
    FRONTEND_HTTP_REQUESTS_TOTAL("counter", Kind.PLAIN, StatField.REQ_TOT),
    FRONTEND_HTTP_COMP_BYTES_IN_TOTAL("counter", Kind.PLAIN, StatField.COMP_IN),
    FRONTEND_HTTP_COMP_BYTES_OUT_TOTAL("counter", Kind.PLAIN, StatField.COMP_OUT),
    FRONTEND_HTTP_COMP_BYTES_BYPASSED_TOTAL("counter", Kind.PLAIN, StatField.COMP_BYP),
    FRONTEND_HTTP_COMP_RESPONSES_TOTAL("counter", Kind.PLAIN, StatField.COMP_RSP),
    FRONTEND_CONNECTIONS_RATE_MAX("gauge", Kind.PLAIN, StatField.CONN_RATE_MAX),
    FRONTEND_CONNECTIONS_TOTAL("counter", Kind.PLAIN, StatField.CONN_TOT),
    FRONTEND_INTERCEPTED_REQUESTS_TOTAL("counter", Kind.PLAIN, StatField.INTERCEPTED),
    FRONTEND_DENIED_CONNECTIONS_TOTAL("counter", Kind.PLAIN, StatField.DCON),
    FRONTEND_DENIED_SESSIONS_TOTAL("counter", Kind.PLAIN, StatField.DSES),
    FRONTEND_FAILED_HEADER_REWRITING_TOTAL("counter", Kind.PLAIN, StatField.WREW),
    FRONTEND_HTTP_CACHE_LOOKUPS_TOTAL("counter", Kind.PLAIN, StatField.CACHE_LOOKUPS),
    FRONTEND_HTTP_CACHE_HITS_TOTAL("counter", Kind.PLAIN, StatField.CACHE_HITS),
    FRONTEND_INTERNAL_ERRORS_TOTAL("counter", Kind.PLAIN, StatField.EINT),
    BACKEND_CURRENT_QUEUE("gauge", Kind.PLAIN, StatField.QCUR),
    BACKEND_MAX_QUEUE("gauge", Kind.PLAIN, StatField.QMAX),
    BACKEND_CURRENT_SESSIONS("gauge", Kind.PLAIN, StatField.SCUR),
    BACKEND_MAX_SESSIONS("gauge", Kind.PLAIN, StatField.SMAX),
    BACKEND_LIMIT_SESSIONS("gauge", Kind.PLAIN, StatField.SLIM),
    BACKEND_SESSIONS_TOTAL("counter", Kind.PLAIN, StatField.STOT),
    BACKEND_BYTES_IN_TOTAL("counter", Kind.PLAIN, StatField.BIN),
    BACKEND_BYTES_OUT_TOTAL("counter", Kind.PLAIN, StatField.BOUT),
    BACKEND_REQUESTS_DENIED_TOTAL("counter", Kind.PLAIN, StatField.DREQ),
    BACKEND_RESPONSES_DENIED_TOTAL("counter", Kind.PLAIN, StatField.DRESP),
    BACKEND_CONNECTION_ERRORS_TOTAL("counter", Kind.PLAIN, StatField.ECON),
    BACKEND_RESPONSE_ERRORS_TOTAL("counter", Kind.PLAIN, StatField.ERESP),
    BACKEND_RETRY_WARNINGS_TOTAL("counter", Kind.PLAIN, StatField.WRETR),
    BACKEND_REDISPATCH_WARNINGS_TOTAL("counter", Kind.PLAIN, StatField.WREDIS),
    BACKEND_STATUS("gauge", Kind.STATE, StatField.STATUS,
            "Current status of the service, per state label value."),
    BACKEND_WEIGHT("gauge", Kind.PLAIN, StatField.WEIGHT),
    BACKEND_ACTIVE_SERVERS("gauge", Kind.PLAIN, StatField.ACT),
    BACKEND_BACKUP_SERVERS("gauge", Kind.PLAIN, StatField.BCK),
    BACKEND_CHECK_UP_DOWN_TOTAL("counter", Kind.PLAIN, StatField.CHKDOWN),
    BACKEND_CHECK_LAST_CHANGE_SECONDS("gauge", Kind.PLAIN, StatField.LASTCHG),
    BACKEND_DOWNTIME_SECONDS_TOTAL("counter", Kind.PLAIN, StatField.DOWNTIME),
    BACKEND_LOADBALANCED_TOTAL("counter", Kind.PLAIN, StatField.LBTOT),
    BACKEND_MAX_SESSION_RATE("gauge", Kind.PLAIN, StatField.RATE_MAX),
    BACKEND_HTTP_RESPONSES_TOTAL("counter", Kind.CODE,
            "Total number of HTTP responses with status 100-199 returned by this object since the worker process started"),
    BACKEND_HTTP_REQUESTS_TOTAL("counter", Kind.PLAIN, StatField.REQ_TOT),
    BACKEND_CLIENT_ABORTS_TOTAL("counter", Kind.PLAIN, StatField.CLI_ABRT),
    BACKEND_SERVER_ABORTS_TOTAL("counter", Kind.PLAIN, StatField.SRV_ABRT),
    BACKEND_HTTP_COMP_BYTES_IN_TOTAL("counter", Kind.PLAIN, StatField.COMP_IN),
    BACKEND_HTTP_COMP_BYTES_OUT_TOTAL("counter", Kind.PLAIN, StatField.COMP_OUT),
    BACKEND_HTTP_COMP_BYTES_BYPASSED_TOTAL("counter", Kind.PLAIN, StatField.COMP_BYP),
    BACKEND_HTTP_COMP_RESPONSES_TOTAL("counter", Kind.PLAIN, StatField.COMP_RSP),
    BACKEND_LAST_SESSION_SECONDS("gauge", Kind.PLAIN, StatField.LASTSESS),
    BACKEND_QUEUE_TIME_AVERAGE_SECONDS("gauge", Kind.MILLIS, StatField.QTIME,
            "Avg. queue time for last 1024 successful connections."),
    BACKEND_CONNECT_TIME_AVERAGE_SECONDS("gauge", Kind.MILLIS, StatField.CTIME,
            "Avg. connect time for last 1024 successful connections."),
    BACKEND_RESPONSE_TIME_AVERAGE_SECONDS("gauge", Kind.MILLIS, StatField.RTIME,
            "Avg. response time for last 1024 successful connections."),
    BACKEND_TOTAL_TIME_AVERAGE_SECONDS("gauge", Kind.MILLIS, StatField.TTIME,
            "Avg. total time for last 1024 successful connections."),
    BACKEND_FAILED_HEADER_REWRITING_TOTAL("counter", Kind.PLAIN, StatField.WREW),
    BACKEND_CONNECTION_ATTEMPTS_TOTAL("counter", Kind.PLAIN, StatField.CONNECT),
    BACKEND_CONNECTION_REUSES_TOTAL("counter", Kind.PLAIN, StatField.REUSE),
    BACKEND_HTTP_CACHE_LOOKUPS_TOTAL("counter", Kind.PLAIN, StatField.CACHE_LOOKUPS),
    BACKEND_HTTP_CACHE_HITS_TOTAL("counter", Kind.PLAIN, StatField.CACHE_HITS),
    BACKEND_MAX_QUEUE_TIME_SECONDS("gauge", Kind.MILLIS, StatField.QTIME_MAX,
            "Maximum observed time spent in the queue"),
    BACKEND_MAX_CONNECT_TIME_SECONDS("gauge", Kind.MILLIS, StatField.CTIME_MAX,
            "Maximum observed time spent waiting for a connection to complete"),
    BACKEND_MAX_RESPONSE_TIME_SECONDS("gauge", Kind.MILLIS, StatField.RTIME_MAX,
            "Maximum observed time spent waiting for a server response"),
    BACKEND_MAX_TOTAL_TIME_SECONDS("gauge", Kind.MILLIS, StatField.TTIME_MAX,
            "Maximum observed total request+response time (request+queue+connect+response+processing)"),
    BACKEND_INTERNAL_ERRORS_TOTAL("counter", Kind.PLAIN, StatField.EINT),
    BACKEND_UWEIGHT("gauge", Kind.PLAIN, StatField.UWEIGHT),
    BACKEND_AGG_SERVER_STATUS("gauge", Kind.STATE, StatField.AGG_SERVER_STATUS),
    BACKEND_AGG_SERVER_CHECK_STATUS("gauge", Kind.STATE, StatField.AGG_CHECK_STATUS),
    BACKEND_AGG_CHECK_STATUS("gauge", Kind.STATE, StatField.AGG_CHECK_STATUS),
    SERVER_CURRENT_QUEUE("gauge", Kind.PLAIN, StatField.QCUR),
    SERVER_MAX_QUEUE("gauge", Kind.PLAIN, StatField.QMAX),
    SERVER_CURRENT_SESSIONS("gauge", Kind.PLAIN, StatField.SCUR),
    SERVER_MAX_SESSIONS("gauge", Kind.PLAIN, StatField.SMAX),
    SERVER_LIMIT_SESSIONS("gauge", Kind.PLAIN, StatField.SLIM),
    SERVER_SESSIONS_TOTAL("counter", Kind.PLAIN, StatField.STOT),
    SERVER_BYTES_IN_TOTAL("counter", Kind.PLAIN, StatField.BIN),
    SERVER_BYTES_OUT_TOTAL("counter", Kind.PLAIN, StatField.BOUT),
    SERVER_RESPONSES_DENIED_TOTAL("counter", Kind.PLAIN, StatField.DRESP),
    SERVER_CONNECTION_ERRORS_TOTAL("counter", Kind.PLAIN, StatField.ECON),
    SERVER_RESPONSE_ERRORS_TOTAL("counter", Kind.PLAIN, StatField.ERESP),
    SERVER_RETRY_WARNINGS_TOTAL("counter", Kind.PLAIN, StatField.WRETR),
    SERVER_REDISPATCH_WARNINGS_TOTAL("counter", Kind.PLAIN, StatField.WREDIS),
    SERVER_STATUS("gauge", Kind.STATE, StatField.STATUS,
            "Current status of the service, per state label value."),
    SERVER_WEIGHT("gauge", Kind.PLAIN, StatField.WEIGHT),
    SERVER_CHECK_FAILURES_TOTAL("counter", Kind.PLAIN, StatField.CHKFAIL),
    SERVER_CHECK_UP_DOWN_TOTAL("counter", Kind.PLAIN, StatField.CHKDOWN),
    SERVER_CHECK_LAST_CHANGE_SECONDS("gauge", Kind.PLAIN, StatField.LASTCHG),
    SERVER_DOWNTIME_SECONDS_TOTAL("counter", Kind.PLAIN, StatField.DOWNTIME),
    SERVER_QUEUE_LIMIT("gauge", Kind.PLAIN, StatField.QLIMIT),
    SERVER_CURRENT_THROTTLE("gauge", Kind.PLAIN, StatField.THROTTLE),
    SERVER_LOADBALANCED_TOTAL("counter", Kind.PLAIN, StatField.LBTOT),
    SERVER_MAX_SESSION_RATE("gauge", Kind.PLAIN, StatField.RATE_MAX),
    SERVER_CHECK_STATUS("gauge", Kind.STATE, StatField.CHECK_STATUS,
            "Status of last health check, per state label value."),
    SERVER_CHECK_CODE("gauge", Kind.PLAIN, StatField.CHECK_CODE,
            "layer5-7 code, if available of the last health check."),
    SERVER_CHECK_DURATION_SECONDS("gauge", Kind.MILLIS, StatField.CHECK_DURATION,
            "Total duration of the latest server health check, in seconds."),
    SERVER_HTTP_RESPONSES_TOTAL("counter", Kind.CODE,
            "Total number of HTTP responses with status 100-199 returned by this object since the worker process started"),
    SERVER_CLIENT_ABORTS_TOTAL("counter", Kind.PLAIN, StatField.CLI_ABRT),
    SERVER_SERVER_ABORTS_TOTAL("counter", Kind.PLAIN, StatField.SRV_ABRT),
    SERVER_LAST_SESSION_SECONDS("gauge", Kind.PLAIN, StatField.LASTSESS),
    SERVER_QUEUE_TIME_AVERAGE_SECONDS("gauge", Kind.MILLIS, StatField.QTIME,
            "Avg. queue time for last 1024 successful connections."),
    SERVER_CONNECT_TIME_AVERAGE_SECONDS("gauge", Kind.MILLIS, StatField.CTIME,
            "Avg. connect time for last 1024 successful connections."),
    SERVER_RESPONSE_TIME_AVERAGE_SECONDS("gauge", Kind.MILLIS, StatField.RTIME,
            "Avg. response time for last 1024 successful connections."),
    SERVER_TOTAL_TIME_AVERAGE_SECONDS("gauge", Kind.MILLIS, StatField.TTIME,
            "Avg. total time for last 1024 successful connections."),
    SERVER_FAILED_HEADER_REWRITING_TOTAL("counter", Kind.PLAIN, StatField.WREW),
    SERVER_CONNECTION_ATTEMPTS_TOTAL("counter", Kind.PLAIN, StatField.CONNECT),
    SERVER_CONNECTION_REUSES_TOTAL("counter", Kind.PLAIN, StatField.REUSE),
    SERVER_IDLE_CONNECTIONS_CURRENT("gauge", Kind.PLAIN, StatField.SRV_ICUR),
    SERVER_IDLE_CONNECTIONS_LIMIT("gauge", Kind.PLAIN, StatField.SRC_ILIM),
    SERVER_MAX_QUEUE_TIME_SECONDS("gauge", Kind.MILLIS, StatField.QTIME_MAX,
            "Maximum observed time spent in the queue"),
    SERVER_MAX_CONNECT_TIME_SECONDS("gauge", Kind.MILLIS, StatField.CTIME_MAX,
            "Maximum observed time spent waiting for a connection to complete"),
    SERVER_MAX_RESPONSE_TIME_SECONDS("gauge", Kind.MILLIS, StatField.RTIME_MAX,
            "Maximum observed time spent waiting for a server response"),
    SERVER_MAX_TOTAL_TIME_SECONDS("gauge", Kind.MILLIS, StatField.TTIME_MAX,
            "Maximum observed total request+response time (request+queue+connect+response+processing)"),
    SERVER_INTERNAL_ERRORS_TOTAL("counter", Kind.PLAIN, StatField.EINT),
    SERVER_UNSAFE_IDLE_CONNECTIONS_CURRENT("gauge", Kind.PLAIN, StatField.IDLE_CONN_CUR),
    SERVER_SAFE_IDLE_CONNECTIONS_CURRENT("gauge", Kind.PLAIN, StatField.SAFE_CONN_CUR),
    SERVER_USED_CONNECTIONS_CURRENT("gauge", Kind.PLAIN, StatField.USED_CONN_CUR),
    SERVER_NEED_CONNECTIONS_CURRENT("gauge", Kind.PLAIN, StatField.NEED_CONN_EST),
    SERVER_UWEIGHT("gauge", Kind.PLAIN, StatField.UWEIGHT);

    /** How a metric reads its field. */
    enum Kind {
        /** The field's value as it is. */
        PLAIN,
        /** A time in milliseconds, exported in seconds. */
        MILLIS,
        /** One sample per possible state, 1 for the current one (a count of servers for the agg_ ones). */
        STATE,
        /** One sample per class of HTTP status (hrsp_1xx ... hrsp_other). */
        CODE,
        /** The version, as a label. */
        BUILD,
        /** A feature Fulcrum does not have (zlib memory): NaN, as HAProxy built without it. */
        NAN
    }

    private final String type;
    private final Kind kind;
    /** The {@code show info} field a process metric reads, or null. */
    private final InfoField info;
    /** The {@code show stat} field a proxy or server metric reads, or null. */
    private final StatField stat;
    /** HAProxy's exporter's own help text, where it differs from the field's description; else null. */
    private final String help;

    PromMetric(String type, Kind kind, InfoField info) {
        this(type, kind, info, null, null);
    }

    PromMetric(String type, Kind kind, InfoField info, String help) {
        this(type, kind, info, null, help);
    }

    PromMetric(String type, Kind kind, StatField stat) {
        this(type, kind, null, stat, null);
    }

    PromMetric(String type, Kind kind, StatField stat, String help) {
        this(type, kind, null, stat, help);
    }

    /** A metric read from no single field (the version, the status classes, what Fulcrum lacks). */
    PromMetric(String type, Kind kind, String help) {
        this(type, kind, null, null, help);
    }

    PromMetric(String type, Kind kind, InfoField info, StatField stat, String help) {
        this.type = type;
        this.kind = kind;
        this.info = info;
        this.stat = stat;
        this.help = help;
    }

    String metricName() {
        return "haproxy_" + name().toLowerCase(Locale.ROOT);
    }

    String type() {
        return type;
    }

    Kind kind() {
        return kind;
    }

    String help() {
        return help != null ? help : info != null ? info.description() : stat.description();
    }

    /** The {@code show info} field a process metric exports. */
    InfoField info() {
        return info;
    }

    /** The {@code show stat} field a proxy or server metric exports. */
    StatField stat() {
        return stat;
    }

    /** "process", "frontend", "backend" or "server". */
    String scope() {
        String n = name();
        return n.substring(0, n.indexOf('_')).toLowerCase(Locale.ROOT);
    }
}
