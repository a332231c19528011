package io.fulcrum.log;

import io.fulcrum.acl.AclParser;
import io.fulcrum.cfg.Args;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.sample.ArgResolution;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.Mode;
import io.fulcrum.proxy.ModeWarnings;
import io.fulcrum.proxy.OptionContext;
import io.fulcrum.proxy.ProxyKind;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.runtime.GlobalModule;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.Stage;
import io.fulcrum.sample.StageSet;
import io.fulcrum.runtime.GlobalModule.GlobalContext;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Logging keywords: {@code log}, {@code log-tag} and {@code log-send-hostname} in the global section; in
 * proxies {@code log} (and {@code no log}), {@code log-tag}, {@code log-format}, {@code error-log-format},
 * {@code log-format-sd}, {@code unique-id-format}, {@code unique-id-header}, {@code capture}, the options choosing a
 * format ({@code tcplog}, {@code httplog [clf]}, {@code httpslog}), those choosing what is logged and when
 * ({@code dontlognull}, {@code dontlog-normal}, {@code log-separate-errors}, {@code logasap}); the {@code unique-id}
 * fetch; {@code ring} and {@code log-forward} sections and {@code show events}.
 */
public final class LogModule implements Module {

    @Override
    public void register(Registry registry) {
        KeywordTable<GlobalContext> global = registry.table(GlobalModule.KEYWORDS);
        global.add("log", (g, l) -> {
            if (l.arg(1).equals("global")) {
                throw new ConfigException("log : 'global' is not supported for a global syslog server");
            }
            GlobalLog.of(g.model()).targets.add(target(l));
        });
        global.add("log-tag", (g, l) -> GlobalLog.of(g.model()).tag = tag(l));
        global.add("tune.http.logurilen", (g, l) -> GlobalLog.of(g.model()).uriLength = (int) tuneInteger(l));
        global.add("tune.http.cookielen", (g, l) -> GlobalLog.of(g.model()).cookieLength = (int) tuneInteger(l));
        global.add("log-send-hostname", (g, l) -> {
            Args.noMoreThan(l, 1, "log-send-hostname");
            GlobalLog.of(g.model()).sendHostname = l.has(1) ? l.arg(1) : Hostname.NAME;
        });

        KeywordTable<ProxySpec> proxy = registry.table(ProxyModule.KEYWORDS);
        proxy.add("log", Capability.ALL | Capability.NEGATABLE, LogModule::log);
        proxy.add("log-tag", Capability.ALL, (p, l) -> of(p).tag = tag(l));
        proxy.add("log-format", Capability.ALL, (p, l) -> {
            if (frontendOnly(p, l)) {
                of(p).format = new ProxyLog.Format(ProxyLog.Kind.CUSTOM, format(l), l.source());
            }
        });
        proxy.add("log-format-sd", Capability.ALL, (p, l) -> {
            if (frontendOnly(p, l)) {
                of(p).sdFormat = new ProxyLog.Format(ProxyLog.Kind.CUSTOM, format(l), l.source());
            }
        });
        proxy.add("error-log-format", Capability.ALL, (p, l) -> {
            if (frontendOnly(p, l)) {
                of(p).errorFormat = new ProxyLog.Format(ProxyLog.Kind.CUSTOM, format(l), l.source());
            }
        });
        proxy.add("unique-id-format", Capability.FE, (p, l) ->
                of(p).uniqueIdFormat = new ProxyLog.Format(ProxyLog.Kind.CUSTOM, format(l), l.source()));
        proxy.add("unique-id-header", Capability.FE, (p, l) -> {
            if (l.arg(1).isEmpty()) {
                throw new ConfigException("unique-id-header expects an argument.");
            }
            Args.noMoreThan(l, 1, "unique-id-header");
            of(p).uniqueIdHeader = l.arg(1);
        });
        proxy.add("capture", Capability.FE, CaptureKeyword::parse);
        proxy.add("declare", Capability.ALL, CaptureKeyword::declare);
        CaptureFetches.register(SampleCatalog.of(registry));

        KeywordTable<OptionContext> options = registry.table(ProxyModule.OPTIONS);
        options.add("tcplog", Capability.ALL | Capability.NO_NEGATION, (o, l) -> {
            Args.noMoreThan(l, 0, "option tcplog");
            choose(o, ProxyLog.Kind.TCPLOG, l);
        });
        options.add("httplog", Capability.ALL | Capability.NO_NEGATION, (o, l) -> {
            if (l.has(1) && !l.arg(1).equals("clf")) {
                throw new ConfigException("keyword 'httplog' only supports option 'clf'.");
            }
            if (frontendOnly(o.proxy(), l)) {
                choose(o, l.has(1) ? ProxyLog.Kind.CLF : ProxyLog.Kind.HTTPLOG, l);
            }
        });
        options.add("httpslog", Capability.ALL | Capability.NO_NEGATION, (o, l) -> {
            Args.noMoreThan(l, 0, "option httpslog");
            if (frontendOnly(o.proxy(), l)) {
                choose(o, ProxyLog.Kind.HTTPSLOG, l);
            }
        });
        flag(options, "dontlognull", (p, on) -> p.dontlognull = on);
        flag(options, "dontlog-normal", (p, on) -> p.dontlogNormal = on);
        flag(options, "log-separate-errors", (p, on) -> p.separateErrors = on);
        flag(options, "logasap", (p, on) -> p.logasap = on);
        flag(options, "contstats", (p, on) -> p.contstats = on);

        Set<String> rings = new HashSet<>();
        RingSection.register(registry, rings);
        DebugConverter.register(registry, rings);
        LogForwardSection.register(registry);
        EventsCommand.register(CliCommands.of(registry));

        LogFormatParser formats = new LogFormatParser(AclParser.of(registry).exprs());
        ArgResolution resolution = ArgResolution.of(registry);
        ModeWarnings warnings = ModeWarnings.of(registry);
        warnings.add(ModeWarnings.Step.LOG_FORMAT, (p, model, diag) -> compile(p, model, diag, formats, resolution));
        registry.check(warnings::run); // (here, where the formats are compiled: their fetches are known by now)
        registry.check(LogModule::checkCaptureSlots);
        registry.check(LogModule::cutCookieCaptures);
    }

    /** An option that sets ({@code option X}) or clears ({@code no option X}) a flag. */
    private static void flag(KeywordTable<OptionContext> options, String name, BiConsumer<ProxyLog, Boolean> set) {
        options.add(name, Capability.FE, (o, l) -> {
            Args.noMoreThan(l, 0, "option " + name);
            set.accept(of(o.proxy()), o.enabled());
        });
    }

    static ProxyLog of(ProxySpec p) {
        return p.part(ProxyLog.class, ProxyLog::new);
    }

    private static LogTarget target(ConfigLine l) throws ConfigException {
        try {
            return LogTarget.parse(l, 1);
        } catch (ConfigException e) {
            throw new ConfigException("log : " + e.getMessage());
        }
    }

    /** {@code log global}, {@code log <target...>}, or {@code no log} (the inherited targets are forgotten). */
    private static void log(ProxySpec p, ConfigLine l) throws ConfigException {
        logLine(of(p).targets, l);
    }

    /**
     * Checks a {@code log} line where HAProxy accepts one that sends nothing (a peers section): as a proxy's, with its
     * errors.
     */
    public static void checkLogLine(ConfigLine l) throws ConfigException {
        logLine(new ArrayList<>(), l);
    }

    /** A {@code log} line of a proxy ({@code log global}, {@code log <target> ...}, {@code no log}) applied to {@code targets}. */
    private static void logLine(List<LogTarget> targets, ConfigLine l) throws ConfigException {
        if (l.keyword().equals("no")) {
            if (l.has(2)) {
                throw new ConfigException("log : 'no log' does not expect arguments");
            }
            targets.clear();
        } else if (l.arg(1).equals("global")) {
            if (l.has(2)) {
                throw new ConfigException("log : 'log global' does not expect arguments");
            }
            targets.add(ProxyLog.GLOBAL);
        } else {
            try {
                targets.add(target(l));
            } catch (ConfigException e) {
                throw orGlobal(e);
            }
        }
    }

    /** A target's error where {@code log global} may be written instead: HAProxy's message says so. */
    static ConfigException orGlobal(ConfigException e) {
        return new ConfigException(e.getMessage().replace("<facility>  as", "<facility> or global as"));
    }

    private static String tag(ConfigLine l) throws ConfigException {
        Args.noMoreThan(l, 1, l.keyword());
        if (l.arg(1).isEmpty()) {
            throw new ConfigException("'log-tag' expects a tag for use in syslog.");
        }
        return l.arg(1);
    }

    /** The one argument of a format keyword. */
    private static String format(ConfigLine l) throws ConfigException {
        if (!l.has(1)) {
            throw new ConfigException(l.keyword() + " expects an argument.");
        }
        if (l.has(2)) {
            throw new ConfigException(l.keyword() + " expects only one argument, don't forget to escape spaces!");
        }
        return l.arg(1);
    }

    /** False, with HAProxy's warning, for a backend: traffic logs are the frontend's. */
    private static boolean frontendOnly(ProxySpec p, ConfigLine l) {
        if (p.kind().isFrontend() || p.kind() == ProxyKind.DEFAULTS) {
            return true;
        }
        String what = l.keyword().equals("httplog") || l.keyword().equals("httpslog") ? "option " + l.keyword() : l.keyword();
        l.warn(p.describe() + " : '" + what + "' directive is ignored in backends.");
        return false;
    }

    /** {@code option X} makes X the format; {@code no option X} forgets it if it is the current one. */
    private static void choose(OptionContext o, ProxyLog.Kind kind, ConfigLine l) {
        // (never negated: "negation/default is not supported for option 'httplog'.", as HAProxy)
        of(o.proxy()).format = new ProxyLog.Format(kind, null, l.source());
    }

    /**
     * A frontend's log formats, in HAProxy's order: an HTTP format in a TCP frontend becomes tcplog (with HAProxy's
     * warning), the formats are compiled now that the mode is known (log-format, its structured data, unique-id,
     * error-log-format), then a log format without a log target is said to be ignored.
     */
    private static void compile(ProxySpec p, ConfigModel model, Diagnostics diag, LogFormatParser formats, ArgResolution resolution) {
        ProxyLog log = p.partOrNull(ProxyLog.class);
        if (log == null || !p.kind().isFrontend()) {
            return;
        }
        boolean http = p.mode == Mode.HTTP;
        ProxyLog.Format f = log.format;
        if (f != null && f.kind() != ProxyLog.Kind.CUSTOM && f.kind() != ProxyLog.Kind.TCPLOG && !http) {
            diag.parseWarning(f.source(), "'option " + f.kind().option + "' not usable with " + p.describe()
                    + " (needs 'mode http'). Falling back to 'option tcplog'.");
            f = new ProxyLog.Format(ProxyLog.Kind.TCPLOG, null, f.source());
        }
        log.compiled = compile(formats, f, "log-format", http, diag, resolution, p);
        log.compiledSd = compile(formats, log.sdFormat, "log-format-sd", http, diag, resolution, p);
        log.compiledUniqueId = compile(formats, log.uniqueIdFormat, "unique-id", http, diag, resolution, p);
        log.compiledError = compile(formats, log.errorFormat, "error-log-format", http, diag, resolution, p);
        if ((f != null || log.sdFormat != null) && noTarget(log, model)) {
            diag.configWarning("log format ignored for " + p.describe() + " since it has no log address.");
        }
    }

    /** The capture slots that frontends' rules name exist (in a backend, a missing one is skipped at run time). */
    private static void checkCaptureSlots(ConfigModel model, Diagnostics diag) {
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            HeaderCaptures c = p.partOrNull(HeaderCaptures.class);
            String error = c == null || !p.kind().isFrontend() ? null : c.check(p);
            if (error != null) {
                diag.configAlert(error);
            }
        }
    }

    /** A {@code capture cookie} longer than {@code tune.http.cookielen} is cut to it, with HAProxy's warning. */
    private static void cutCookieCaptures(ConfigModel model, Diagnostics diag) {
        int most = GlobalLog.of(model).cookieLength;
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            HeaderCaptures c = p.partOrNull(HeaderCaptures.class);
            if (c != null && c.cookieName != null && c.cookieLength > most) {
                diag.configWarning("truncating capture length to " + most + " bytes for " + p.describe() + ".");
                c.cookieLength = Math.max(0, most);
            }
        }
    }

    /** A {@code tune.http.*} integer, read as C's atol reads it ("x" is 0). */
    private static long tuneInteger(ConfigLine l) throws ConfigException {
        Args.noMoreThan(l, 1, l.keyword());
        return Args.atol(Args.required(l, 1, l.keyword(), "an integer argument"));
    }

    /** True when the proxy's log lines name no target, {@code log global} without global targets included. */
    private static boolean noTarget(ProxyLog log, ConfigModel model) {
        boolean global = GlobalLog.of(model).targets.isEmpty();
        return log.targets.stream().allMatch(t -> t == ProxyLog.GLOBAL && global);
    }

    private static LogFormat compile(LogFormatParser formats, ProxyLog.Format f, String what, boolean http, Diagnostics diag,
                                     ArgResolution resolution, ProxySpec p) {
        if (f == null) {
            return null;
        }
        String text = f.kind() == ProxyLog.Kind.CUSTOM ? f.text() : BuiltinFormats.of(f.kind());
        resolution.locate(f.source(), p, what.equals("unique-id") ? "unique-id-format string" : "log-format string");
        try {
            // HAProxy builds the unique ID when the request's headers are in: its fetches are checked there.
            return formats.parseLogLine(text, http, what.equals("unique-id") ? p.kind().stages(Stage.FE_HRQ_HDR, Stage.BE_HRQ_HDR)
                    : StageSet.of(Stage.FE_LOG_END));
        } catch (ConfigException e) {
            diag.configAlert("Parsing [" + f.source() + "]: failed to parse " + what + " : " + e.getMessage() + ".");
            return null;
        } finally {
            resolution.unlocate();
        }
    }
}
