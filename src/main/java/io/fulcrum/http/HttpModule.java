package io.fulcrum.http;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.OptionContext;
import io.fulcrum.proxy.ProxyKind;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.sample.SampleCatalog;

/**
 * The options of {@code mode http} (connection management, what is added to or checked in requests), the
 * monitor keywords, and the HTTP sample fetches.
 */
public final class HttpModule implements Module {

    @Override
    public void register(Registry registry) {
        HttpFetches.register(SampleCatalog.of(registry));
        KeywordTable<OptionContext> options = registry.table(ProxyModule.OPTIONS);
        monitor(registry.table(ProxyModule.KEYWORDS));
        mode(options, "http-keep-alive", HttpOptions.ConnectionMode.KEEP_ALIVE);
        mode(options, "http-server-close", HttpOptions.ConnectionMode.SERVER_CLOSE);
        mode(options, "httpclose", HttpOptions.ConnectionMode.CLOSE);
        options.add("accept-invalid-http-request", Capability.FE, (o, l) -> {
            Args.noMoreThan(l, 0, "option accept-invalid-http-request");
            of(o.proxy()).acceptInvalidRequest = o.enabled();
        });
        options.add("accept-invalid-http-response", Capability.BE, (o, l) -> {
            Args.noMoreThan(l, 0, "option accept-invalid-http-response");
            of(o.proxy()).acceptInvalidResponse = o.enabled();
        });
        options.add("http-ignore-probes", Capability.FE, (o, l) -> {
            Args.noMoreThan(l, 0, "option http-ignore-probes");
            of(o.proxy()).ignoreProbes = o.enabled();
        });
        options.add("forwardfor", Capability.ALL | Capability.NO_NEGATION,
                (o, l) -> of(o.proxy()).forwardFor = AddressHeader.parse(l, "X-Forwarded-For", true));
        options.add("originalto", Capability.ALL | Capability.NO_NEGATION,
                (o, l) -> of(o.proxy()).originalTo = AddressHeader.parse(l, "X-Original-To", false));
        options.add("http-restrict-req-hdr-names", Capability.ALL | Capability.NO_NEGATION,
                (o, l) -> of(o.proxy()).headerNames = HeaderNamePolicy.parse(l));
    }

    private static void monitor(KeywordTable<ProxySpec> keywords) {
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
            throw new ConfigException("'monitor fail' is not supported by Fulcrum yet (ACLs are not implemented).");
        });
    }

    /** "option X" selects mode X; "no option X" goes back to the default (keep-alive). */
    private static void mode(KeywordTable<OptionContext> options, String name, HttpOptions.ConnectionMode mode) {
        options.add(name, Capability.ALL, (o, l) -> {
            Args.noMoreThan(l, 0, "option " + name);
            of(o.proxy()).connectionMode = o.enabled() ? mode : HttpOptions.ConnectionMode.KEEP_ALIVE;
        });
    }

    public static HttpOptions of(ProxySpec p) {
        return p.part(HttpOptions.class, HttpOptions::new);
    }
}
