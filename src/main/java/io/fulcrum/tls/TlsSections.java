package io.fulcrum.tls;

import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;

import java.util.ArrayList;
import java.util.List;

/**
 * Proxies that are not in the proxy table but whose bind and server lines take TLS as a proxy's do (a peers section's,
 * as HAProxy gives each peers section a proxy): their certificates are loaded and their transports set with the others.
 */
public final class TlsSections {
    private final List<ProxySpec> proxies = new ArrayList<>();

    public static TlsSections of(ConfigModel model) {
        return model.part(TlsSections.class, TlsSections::new);
    }

    public void add(ProxySpec p) {
        proxies.add(p);
    }

    /** The section keyword messages name {@code p} by: "peers" for these, else the proxy's kind. */
    String section(ProxySpec p) {
        return proxies.contains(p) ? "peers" : p.kind().keyword();
    }

    /** The proxy table's proxies, then these. */
    static List<ProxySpec> withProxies(ConfigModel model) {
        List<ProxySpec> all = new ArrayList<>(ProxyTable.of(model).proxies());
        all.addAll(of(model).proxies);
        return all;
    }
}
