package io.fulcrum.proxy;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every proxy section of a configuration, in declaration order, and the defaults sections by name. As in HAProxy,
 * names are unique per capability: a frontend and a backend may share one (a listen section counts as a frontend
 * when declared, so it only conflicts with an earlier frontend or listen), and several defaults sections may share
 * one as long as no proxy names it in {@code from}.
 */
public final class ProxyTable {
    private final List<ProxySpec> proxies = new ArrayList<>();
    private final Map<String, ProxySpec> frontends = new HashMap<>();
    private final Map<String, ProxySpec> backends = new HashMap<>();
    private final Map<String, ProxySpec> firstNamed = new HashMap<>();
    private final Map<String, List<ProxySpec>> namedDefaults = new HashMap<>();
    private ProxySpec lastDefaults;
    private boolean globalProxy;

    public static ProxyTable of(ConfigModel model) {
        return model.part(ProxyTable.class, ProxyTable::new);
    }

    /** Frontends, backends and listens, in declaration order. */
    public List<ProxySpec> proxies() {
        return Collections.unmodifiableList(proxies);
    }

    /** The first proxy declared under {@code name}, whatever its capabilities, or null. */
    public ProxySpec find(String name) {
        return firstNamed.get(name);
    }

    /** The frontend or listen section named {@code name} (the first declared), or null. */
    public ProxySpec frontend(String name) {
        return frontends.get(name);
    }

    /** The backend or listen section named {@code name} (the first declared), or null. */
    public ProxySpec backend(String name) {
        return backends.get(name);
    }

    /** The defaults section a new proxy inherits from: the named one, or the last one declared. */
    ProxySpec defaultsFor(String from, String user) throws ConfigException {
        if (from == null) {
            return lastDefaults;
        }
        List<ProxySpec> named = namedDefaults.get(from);
        if (named == null) {
            throw new ConfigException("defaults section '" + from + "' not found for " + user + ".");
        }
        if (named.size() > 1) {
            throw new ConfigException("ambiguous defaults section name '" + from + "' referenced by " + user + " exists at least at "
                    + named.get(0).source() + " and " + named.get(1).source() + ".");
        }
        return named.get(0);
    }

    void addDefaults(ProxySpec d) {
        if (!d.name().isEmpty()) {
            namedDefaults.computeIfAbsent(d.name(), n -> new ArrayList<>()).add(d);
        }
        lastDefaults = d;
    }

    /** Adds {@code p}, declared by {@code header}; a name already taken is an alert, and the section is parsed all the same. */
    void add(ProxySpec p, ConfigLine header) {
        ProxySpec prev = (p.kind().isFrontend() ? frontends : backends).get(p.name());
        if (prev != null && header.diag() != null) {
            header.diag().configAlert("Parsing [" + header.source() + "]: " + p.kind().typeName() + " '" + p.name() + "' has the same name as "
                    + prev.describe() + " declared at " + prev.source() + ".");
        }
        firstNamed.putIfAbsent(p.name(), p);
        if (p.kind().isFrontend()) {
            frontends.putIfAbsent(p.name(), p);
        }
        if (p.kind().isBackend()) {
            backends.putIfAbsent(p.name(), p);
        }
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
