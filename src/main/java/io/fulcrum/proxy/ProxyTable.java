package io.fulcrum.proxy;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;

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
    private boolean globalProxy;

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
    }

    /** The stats sockets need HAProxy's GLOBAL proxy, which comes before the others and takes an id of the numbering. */
    public void addGlobalProxy() {
        globalProxy = true;
    }

    /**
     * Gives each proxy its numeric id as HAProxy does once the configuration is read: its {@code id}, else the
     * first id not taken at or after its place in the declaration order (counted from 1, the GLOBAL proxy first).
     */
    void number(Diagnostics diag) {
        Map<Integer, ProxySpec> taken = new HashMap<>();
        for (ProxySpec p : proxies) {
            ProxySpec other = p.customId > 0 ? taken.putIfAbsent(p.customId, p) : null;
            if (other != null) {
                diag.configAlert("parsing [" + p.customIdSource + "]: " + p.kind().keyword() + " " + p.name()
                        + " reuses same custom id as " + other.kind().keyword() + " " + other.name() + " (declared at " + other.source() + ").");
            }
        }
        int next = globalProxy ? 2 : 1;
        for (ProxySpec p : proxies) {
            if (p.customId > 0) {
                p.id = p.customId;
            } else {
                while (taken.containsKey(next)) {
                    next++;
                }
                p.id = next;
                taken.put(next, p);
            }
            next++;
        }
    }
}
