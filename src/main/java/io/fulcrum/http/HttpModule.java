package io.fulcrum.http;

import io.fulcrum.acl.AclParser;
import io.fulcrum.acl.AclTable;
import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.OptionContext;
import io.fulcrum.proxy.Mode;
import io.fulcrum.proxy.ModeWarnings;
import io.fulcrum.proxy.ProxyKind;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.RuleOrder;
import io.fulcrum.sample.SampleCatalog;

import java.util.function.BiConsumer;

/**
 * The options of {@code mode http} (connection management, what is added to or checked in requests), the
 * monitor keywords, and the HTTP sample fetches.
 */
public final class HttpModule implements Module {

    @Override
    public void register(Registry registry) {
        HttpFetches.register(SampleCatalog.of(registry));
        KeywordTable<OptionContext> options = registry.table(ProxyModule.OPTIONS);
        monitor(registry.table(ProxyModule.KEYWORDS), AclParser.of(registry));
        mode(options, "http-keep-alive", HttpOptions.ConnectionMode.KEEP_ALIVE);
        mode(options, "http-server-close", HttpOptions.ConnectionMode.SERVER_CLOSE);
        mode(options, "httpclose", HttpOptions.ConnectionMode.CLOSE);
        flag(options, "accept-invalid-http-request", Capability.FE, (h, on) -> h.acceptInvalidRequest = on);
        flag(options, "accept-invalid-http-response", Capability.BE, (h, on) -> h.acceptInvalidResponse = on);
        flag(options, "http-ignore-probes", Capability.FE, (h, on) -> h.ignoreProbes = on);
        flag(options, "http-use-proxy-header", Capability.FE, (h, on) -> h.useProxyHeader = on);
        flag(options, "h1-case-adjust-bogus-client", Capability.FE, (h, on) -> h.caseAdjustClient = on);
        flag(options, "h1-case-adjust-bogus-server", Capability.BE, (h, on) -> h.caseAdjustServer = on);
        flag(options, "http-buffer-request", Capability.ALL, (h, on) -> h.bufferRequest = on);
        flag(options, "abortonclose", Capability.BE, (h, on) -> h.abortOnClose = on);
        flag(options, "checkcache", Capability.BE, (h, on) -> h.checkCache = on);
        flag(options, "http-pretend-keepalive", Capability.BE, (h, on) -> h.pretendKeepAlive = on);
        flag(options, "http-no-delay", Capability.ALL, (h, on) -> h.noDelay = on);
        flag(options, "idle-close-on-response", Capability.FE, (h, on) -> h.idleCloseOnResponse = on);
        flag(options, "disable-h2-upgrade", Capability.FE, (h, on) -> h.noH2Upgrade = on);
        options.add("forwardfor", Capability.ALL | Capability.NO_NEGATION,
                (o, l) -> of(o.proxy()).forwardFor = AddressHeader.parse(l, "X-Forwarded-For", true));
        options.add("originalto", Capability.ALL | Capability.NO_NEGATION,
                (o, l) -> of(o.proxy()).originalTo = AddressHeader.parse(l, "X-Original-To", false));
        options.add("http-restrict-req-hdr-names", Capability.ALL | Capability.NO_NEGATION,
                (o, l) -> of(o.proxy()).headerNames = HeaderNamePolicy.parse(l));
        ModeWarnings.of(registry).add(ModeWarnings.Step.MONITOR_URI, HttpModule::monitorUriInTcp);
        ModeWarnings.of(registry).add(ModeWarnings.Step.HTTP_OPTIONS, HttpModule::optionsInTcp);
    }

    /** HAProxy's warning for a monitor-uri in a TCP frontend. */
    private static void monitorUriInTcp(ProxySpec p, ConfigModel model, Diagnostics diag) {
        HttpOptions h = p.partOrNull(HttpOptions.class);
        if (p.mode == Mode.TCP && h != null && p.kind().isFrontend() && h.monitorUri != null) {
            diag.configWarning("monitor-uri will be ignored for " + p.describe() + " (needs 'mode http').");
        }
    }

    /**
     * HAProxy's warnings, in its order, for the HTTP options a proxy in mode tcp has but cannot use, which are then
     * off: a TCP frontend that becomes HTTP by its backend's mode does not apply them, unless its own rules may switch
     * it to HTTP ({@code switch-mode http}).
     */
    private static void optionsInTcp(ProxySpec p, ConfigModel model, Diagnostics diag) {
        HttpOptions h = p.partOrNull(HttpOptions.class);
        if (p.mode != Mode.TCP || p.httpUpgrade || h == null) {
            return;
        }
        boolean fe = p.kind().isFrontend();
        boolean be = p.kind().isBackend();
        unused(diag, p, "forwardfor", h.forwardFor != null);
        unused(diag, p, "originalto", h.originalTo != null);
        unused(diag, p, "http-buffer-request", h.bufferRequest);
        unused(diag, p, "http-ignore-probes", fe && h.ignoreProbes);
        unused(diag, p, "accept-invalid-http-request", fe && h.acceptInvalidRequest);
        unused(diag, p, "accept-invalid-http-response", be && h.acceptInvalidResponse);
        unused(diag, p, "checkcache", be && h.checkCache);
        unused(diag, p, "idle-close-on-response", fe && h.idleCloseOnResponse);
        unused(diag, p, "http-pretend-keepalive", be && h.pretendKeepAlive);
        unused(diag, p, "http-no-delay", h.noDelay);
        unused(diag, p, "disable-h2-upgrade", fe && h.noH2Upgrade);
        h.dropHttpOnly();
    }

    private static void unused(Diagnostics diag, ProxySpec p, String option, boolean set) {
        if (set) {
            diag.configWarning("'option " + option + "' ignored for " + p.describe() + " as it requires HTTP mode.");
        }
    }

    private static void monitor(KeywordTable<ProxySpec> keywords, AclParser acls) {
        keywords.add("http-send-name-header", Capability.BE, (p, l) -> {
            Args.noMoreThan(l, 1, "http-send-name-header");
            if (!l.has(1)) {
                throw new ConfigException("'http-send-name-header' requires a header string.");
            }
            of(p).sendNameHeader = l.arg(1).toLowerCase(java.util.Locale.ROOT); // HAProxy sends names in lower case
        });
        keywords.add("monitor-uri", Capability.FE, (p, l) -> {
            Args.noMoreThan(l, 1, "monitor-uri");
            of(p).monitorUri = Args.required(l, 1, "monitor-uri", "an URI");
        });
        keywords.add("monitor", Capability.FE, (p, l) -> {
            if (p.kind() == ProxyKind.DEFAULTS) {
                throw new ConfigException("'monitor' not allowed in 'defaults' section.");
            }
            if (!l.arg(1).equals("fail")) {
                throw new ConfigException("'monitor' only supports 'fail'.");
            }
            if (!l.arg(2).equals("if") && !l.arg(2).equals("unless")) {
                throw new ConfigException("'monitor fail' requires either 'if' or 'unless' followed by a condition.");
            }
            try {
                // No stage: HAProxy does not warn about monitor-fail ACLs that cannot match.
                of(p).monitorFail.add(acls.condition(l, 2, p.partOrNull(AclTable.class), null));
                RuleOrder.placed(p, RuleOrder.Kind.MONITOR_FAIL, "monitor fail", l);
            } catch (ConfigException e) {
                throw new ConfigException("error detected while parsing a 'monitor fail' condition : " + e.getMessage() + ".");
            }
        });
    }

    /** An option without argument: "option X" sets it, "no option X" clears it. */
    private static void flag(KeywordTable<OptionContext> options, String name, int caps, BiConsumer<HttpOptions, Boolean> set) {
        options.add(name, caps, (o, l) -> {
            Args.noMoreThan(l, 0, "option " + name);
            set.accept(of(o.proxy()), o.enabled());
        });
    }

    /** "option X" selects mode X; "no option X" goes back to the default (keep-alive). */
    private static void mode(KeywordTable<OptionContext> options, String name, HttpOptions.ConnectionMode mode) {
        flag(options, name, Capability.ALL, (h, on) -> h.connectionMode = on ? mode : HttpOptions.ConnectionMode.KEEP_ALIVE);
    }

    public static HttpOptions of(ProxySpec p) {
        return p.part(HttpOptions.class, HttpOptions::new);
    }
}
