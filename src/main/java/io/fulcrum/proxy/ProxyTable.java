package io.fulcrum.proxy;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigModel;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Every proxy section of a configuration, in declaration order, and the defaults sections by name. */
public final class ProxyTable {
    private final List<ProxySpec> proxies = new ArrayList<>();
    private final Map<String, ProxySpec> byName = new HashMap<>();
    private final Map<String, ProxySpec> namedDefaults = new HashMap<>();
    private ProxySpec lastDefaults;

    public static ProxyTable of(ConfigModel model) {
        return model.part(ProxyTable.class, ProxyTable::new);
    }

    /** Frontends, backends and listens, in declaration order. */
    public List<ProxySpec> proxies() {
        return Collections.unmodifiableList(proxies);
    }

    public ProxySpec find(String name) {
        return byName.get(name);
    }

    /** The defaults section a new proxy inherits from: the named one, or the last one declared. */
    ProxySpec defaultsFor(String from, String user) throws ConfigException {
        if (from == null) {
            return lastDefaults;
        }
        ProxySpec d = namedDefaults.get(from);
        if (d == null) {
            throw new ConfigException("defaults section '" + from + "' not found for " + user + ".");
        }
        return d;
    }

    void addDefaults(ProxySpec d) throws ConfigException {
        if (!d.name().isEmpty()) {
            ProxySpec prev = namedDefaults.get(d.name());
            if (prev != null) {
                throw new ConfigException("defaults section '" + d.name() + "' has the same name as another defaults section declared at " + prev.source() + ".");
            }
            namedDefaults.put(d.name(), d);
        }
        lastDefaults = d;
    }

    void add(ProxySpec p) throws ConfigException {
        ProxySpec prev = byName.get(p.name());
        if (prev != null) {
            throw new ConfigException(p.kind().keyword() + " '" + p.name() + "' has the same name as " + prev.describe()
                    + " declared at " + prev.source() + ".");
        }
        ProxySpec d = namedDefaults.get(p.name());
        if (d != null) {
            throw new ConfigException(p.kind().keyword() + " '" + p.name() + "' has the same name as defaults section declared at " + d.source() + ".");
        }
        byName.put(p.name(), p);
        proxies.add(p);
        p.id = proxies.size();
    }
}
