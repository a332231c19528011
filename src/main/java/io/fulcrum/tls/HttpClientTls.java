package io.fulcrum.tls;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Registry;
import io.fulcrum.runtime.GlobalModule.GlobalContext;

/**
 * {@code httpclient.ssl.verify} and {@code httpclient.ssl.ca-file}: the TLS settings of HAProxy's internal HTTP
 * client (used by Lua, ACME and OCSP updates in later versions). Fulcrum has no such client; the settings are checked
 * as HAProxy 2.6 checks them, the CA file loaded once the configuration is read (its two alerts when it cannot be),
 * and have no other effect.
 */
final class HttpClientTls {
    /** The CA file, or null for HAProxy's default ({@code @system-ca}). */
    private String caFile;
    private boolean verify = true;

    private HttpClientTls() {
    }

    static void register(Registry registry, KeywordTable<GlobalContext> global) {
        HttpClientTls c = registry.component(HttpClientTls.class, HttpClientTls::new);
        global.add("httpclient.ssl.verify", (g, l) -> {
            Args.noMoreThan(l, 1, l.keyword());
            switch (l.arg(1)) {
                case "none" -> c.verify = false;
                case "required" -> c.verify = true;
                default -> throw Args.ownAlert(l, "'" + l.keyword() + "' expects 'none' or 'required' as argument.");
            }
        });
        global.add("httpclient.ssl.ca-file", (g, l) -> {
            Args.noMoreThan(l, 1, l.keyword());
            c.caFile = l.arg(1);
        });
        registry.check((model, diag) -> c.load(TlsGlobals.of(model), diag));
    }

    private void load(TlsGlobals globals, Diagnostics diag) {
        if (caFile == null || !verify) {
            return;
        }
        try {
            AuthorityFiles.authorities().load(globals, caFile);
        } catch (AuthorityFiles.Unloadable e) {
            diag.configAlert("Couldn't open the ca-file '" + caFile + "' (" + e.reason + ").");
            diag.configAlert("httpclient: cannot initialize: cannot initialize SSL verify with 'ca-file \"" + caFile + "\"'.");
        }
    }
}
