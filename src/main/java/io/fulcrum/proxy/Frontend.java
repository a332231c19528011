package io.fulcrum.proxy;

import io.fulcrum.acl.Condition;
import io.fulcrum.backend.Backend;
import io.fulcrum.compression.Compression;
import io.fulcrum.compression.CompressionModule;
import io.fulcrum.conn.SocketOptions;
import io.fulcrum.http.ErrorSet;
import io.fulcrum.http.HttpModule;
import io.fulcrum.http.HttpOptions;
import io.fulcrum.log.FrontendLogger;
import io.fulcrum.log.LogFormat;
import io.fulcrum.log.ProcessLog;
import io.fulcrum.rules.HttpRules;
import io.fulcrum.rules.TcpRules;
import io.fulcrum.runtime.ConnLimit;
import io.fulcrum.runtime.Fulcrum;
import io.fulcrum.runtime.SessionRateLimit;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.stats.Counters;
import io.fulcrum.stats.StatsPage;

import java.util.List;
import java.util.Map;

/** A frontend (or the frontend half of a listen section) at run time. */
public final class Frontend {
    private final String name;
    private final Timeouts timeouts;
    private final SocketOptions socket;
    /** {@code rate-limit sessions}: per second, 0 for none. */
    private final int sessionRateLimit;
    private final ConnLimit limit;
    private final List<SwitchingRule> switching;
    private final Backend backend;
    private final Backend self;
    private final Mode mode;
    private final HttpOptions http;
    private final Compression compression;
    private final ErrorSet errors;
    private final int id;
    private final String description;
    private final String defaultBackend;
    private final HttpRules rules;
    private final StatsPage statsPage;
    private final TcpRules tcpRules;
    private final FrontendLogger logger;
    private final Counters counters = new Counters();
    private Fulcrum process;
    /** {@code disable frontend}: its listeners are paused. */
    private volatile boolean paused;
    /** {@code shutdown frontend}: its listeners are closed for good. */
    private volatile boolean shutDown;

    /** A {@code use_backend} rule: its condition (null: always) and the backend it names. */
    /**
     * @param backend its backend, or null for a name built per transaction
     * @param dynamic what builds the name ({@code use_backend %[...]}), or null
     * @param byName  every backend by name, for the built names
     */
    public record SwitchingRule(Condition condition, Backend backend, LogFormat dynamic, Map<String, Backend> byName) {
    }

    /**
     * @param switching its {@code use_backend} rules, in order
     * @param backend   where its connections go when no rule applies: {@code default_backend}, else its
     *                  own backend half (listen), else none
     * @param logging   the process's logging, which builds this frontend's logger
     */
    public Frontend(ProxySpec spec, int maxconn, List<SwitchingRule> switching, Backend backend, ProcessLog logging) {
        this(spec, maxconn, switching, backend, null, logging);
    }

    /** @param self the proxy's own backend half (a listen section's), or null: see {@link #self()} */
    public Frontend(ProxySpec spec, int maxconn, List<SwitchingRule> switching, Backend backend, Backend self, ProcessLog logging) {
        this.name = spec.name();
        this.id = spec.id;
        this.description = spec.description;
        this.defaultBackend = spec.defaultBackend == null ? null : spec.defaultBackend.name();
        this.timeouts = spec.timeouts.copy();
        this.socket = spec.part(SocketOptions.class, SocketOptions::new);
        this.sessionRateLimit = SessionRateLimit.of(spec);
        this.limit = new ConnLimit(maxconn);
        this.switching = List.copyOf(switching);
        this.backend = backend;
        this.self = self;
        this.mode = spec.mode;
        this.http = HttpModule.of(spec);
        this.compression = CompressionModule.of(spec);
        this.errors = ErrorSet.of(spec);
        this.rules = HttpRules.of(spec);
        this.statsPage = StatsPage.of(spec);
        this.tcpRules = TcpRules.of(spec);
        this.logger = logging.frontend(spec, counters);
    }

    /** Its tcp-request rules. */
    public TcpRules tcpRules() {
        return tcpRules;
    }

    /** What logs its transactions. */
    public FrontendLogger logger() {
        return logger;
    }

    /** Its http-request, http-response and http-after-response rules. */
    public HttpRules rules() {
        return rules;
    }

    /** Its statistics page ({@code stats enable}...), or null (a listen section's is its frontend's). */
    public StatsPage statsPage() {
        return statsPage;
    }

    public Mode mode() {
        return mode;
    }

    /** Its {@code compression} settings, or null. */
    public Compression compression() {
        return compression;
    }

    public HttpOptions httpOptions() {
        return http;
    }

    /** The responses it sends for errors found before a backend is chosen. */
    public ErrorSet errors() {
        return errors;
    }

    private HttpOptions.ConnectionMode connectionMode(Backend be) {
        return be == null ? http.connectionMode : HttpOptions.combine(http.connectionMode, be.httpOptions().connectionMode);
    }

    /**
     * Client connections may carry several transactions: the frontend has no {@code option httpclose}. As HAProxy
     * documents it, only the frontend counts for client connections; a backend's option closes its server side.
     */
    public boolean keepAlive() {
        return http.connectionMode != HttpOptions.ConnectionMode.CLOSE;
    }

    /** Server connections of {@code be} may carry several transactions (neither httpclose nor http-server-close). */
    public boolean keepAliveServer(Backend be) {
        return connectionMode(be) == HttpOptions.ConnectionMode.KEEP_ALIVE;
    }

    public String name() {
        return name;
    }

    /** HAProxy's numeric id of the proxy ({@link ProxySpec#id}). */
    public int numericId() {
        return id;
    }

    /** Its {@code description}, or null. */
    public String description() {
        return description;
    }

    /** The backend named by {@code default_backend}, or null. */
    public String defaultBackendName() {
        return defaultBackend;
    }

    /**
     * A listen section's own backend half, or null. It is a stream's backend from its start until the switching rules
     * chose one (HAProxy's stream starts with its frontend as backend), so that the frontend-side rules and the log of
     * a listen read their backend ({@code be_name}, {@code be_server_timeout}...) as the config check allows them to.
     */
    public Backend self() {
        return self;
    }

    /** The backend its connections go to when no {@code use_backend} rule applies, or null. */
    public Backend defaultBackend() {
        return backend;
    }

    public Timeouts timeouts() {
        return timeouts;
    }

    /** {@code rate-limit sessions}: new sessions accepted per second, 0 for no limit. */
    public int sessionRateLimit() {
        return sessionRateLimit;
    }

    public SocketOptions socketOptions() {
        return socket;
    }

    /** The process it runs in: what services and fetches naming other proxies look at. */
    public Fulcrum process() {
        return process;
    }

    /** Joins {@code p}, once, before any connection is accepted. */
    public void process(Fulcrum p) {
        this.process = p;
    }

    public boolean paused() {
        return paused;
    }

    void paused(boolean p) {
        paused = p;
    }

    public boolean shutDown() {
        return shutDown;
    }

    void shutDown(boolean s) {
        shutDown = s;
    }

    /** What {@code show stat} reports of it. */
    public Counters counters() {
        return counters;
    }

    /** A connection was accepted: counted for conn_rate and rate. */
    public void accepted() {
        counters.connectionAccepted();
        counters.sessionStarted();
    }

    public ConnLimit limit() {
        return limit;
    }

    /**
     * The backend of the first {@code use_backend} rule whose condition holds (for a built name, the
     * backend of that name, else the default), else the default, or null.
     */
    public Backend backend(SampleContext ctx) {
        for (int i = 0, n = switching.size(); i < n; i++) { // (no iterator per transaction)
            SwitchingRule r = switching.get(i);
            if (Condition.passes(r.condition(), ctx)) {
                if (r.dynamic() == null) {
                    return r.backend();
                }
                StringBuilder name = new StringBuilder();
                r.dynamic().append(ctx, name);
                Backend be = r.byName().get(name.toString());
                // As in HAProxy, a name that is no backend ends the rules: the default applies.
                return be != null ? be : backend;
            }
        }
        return backend;
    }
}
