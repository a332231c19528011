package io.fulcrum.http;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.OptionContext;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.proxy.ProxySpec;

/** The options of {@code mode http}: connection management, what is added to or checked in messages. */
public final class HttpModule implements Module {

    @Override
    public void register(Registry registry) {
        KeywordTable<OptionContext> options = registry.table(ProxyModule.OPTIONS);
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
        options.add("forwardfor", Capability.ALL | Capability.NO_NEGATION,
                (o, l) -> of(o.proxy()).forwardFor = AddressHeader.parse(l, "X-Forwarded-For", true));
        options.add("originalto", Capability.ALL | Capability.NO_NEGATION,
                (o, l) -> of(o.proxy()).originalTo = AddressHeader.parse(l, "X-Original-To", false));
        options.add("http-restrict-req-hdr-names", Capability.ALL | Capability.NO_NEGATION,
                (o, l) -> of(o.proxy()).headerNames = HeaderNamePolicy.parse(l));
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
