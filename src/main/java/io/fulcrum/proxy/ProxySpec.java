package io.fulcrum.proxy;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Source;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A proxy section ({@code defaults}, {@code frontend}, {@code backend}, {@code listen}) as parsed: the
 * settings every proxy has, and the parts other subsystems keep in it. Keyword parsers fill it; the
 * runtime objects are built from it once the whole configuration has been checked.
 */
public final class ProxySpec {
    private final String name;
    private final ProxyKind kind;
    private final Source source;
    private final Map<Class<?>, ProxyPart> parts = new LinkedHashMap<>();

    public Mode mode = Mode.TCP;
    /**
     * A {@code tcp-request content switch-mode http} rule: this TCP proxy may become HTTP, so its HTTP settings are
     * kept and said nothing about (HAProxy's PR_O_HTTP_UPG).
     */
    public boolean httpUpgrade;
    /** 0: the global maxconn. */
    public int maxconn;
    public Timeouts timeouts = new Timeouts();
    public BackendRef defaultBackend;
    public final List<BackendRef> useBackends = new ArrayList<>();
    public boolean disabled;
    /**
     * HAProxy's numeric id of the proxy ({@code fe_id}, {@code be_id}, the stats' {@code iid}): its {@code id},
     * else numbered once every proxy is read ({@link ProxyTable#number()}).
     */
    public int id;
    /** {@code id}: the id chosen in the configuration, or 0. */
    public int customId;
    public Source customIdSource;
    /** {@code description}: shown next to the proxy's name on the stats page; null when none. */
    public String description;
    /** For a defaults section holding rules: the kind of the proxies that inherit them (frontends or backends). */
    private ProxyKind rulesUser;
    /** For a defaults section: whether a section named it with 'from', and whether a proxy took it as the last one. */
    private boolean usedExplicitly;
    private boolean usedImplicitly;
    /** For a proxy: the defaults section whose TCP/HTTP rules it runs, or null. */
    ProxySpec rulesFrom;

    public ProxySpec(String name, ProxyKind kind, Source source) {
        this.name = name;
        this.kind = kind;
        this.source = source;
    }

    /** A proxy declared after {@code defaults}: it starts with a copy of the inheritable settings. */
    public ProxySpec(String name, ProxyKind kind, Source source, ProxySpec defaults) {
        this(name, kind, source);
        if (defaults != null) {
            mode = defaults.mode;
            maxconn = defaults.maxconn;
            timeouts = defaults.timeouts.copy();
            defaultBackend = kind.isFrontend() ? defaults.defaultBackend : null;
            defaults.parts.forEach((type, part) -> {
                ProxyPart copy = part.inherit();
                if (copy != null) {
                    parts.put(type, copy);
                }
            });
        }
    }

    /** Records a use of this defaults section: true when it mixes explicit and implicit uses, which HAProxy warns of. */
    boolean use(boolean explicit) {
        boolean mixed = explicit ? usedImplicitly : usedExplicitly;
        usedExplicitly |= explicit;
        usedImplicitly |= !explicit;
        return mixed;
    }

    /**
     * Checks that a new section of kind {@code kind} may inherit this defaults section's rules, with HAProxy 2.6's
     * messages: never a defaults or listen section, and only frontends or only backends. Returns whether it holds rules.
     */
    boolean lendRules(ProxyKind kind) throws ConfigException {
        if (parts.values().stream().noneMatch(ProxyPart::holdsRules)) {
            return false;
        }
        String at = " (defaults section at " + source + ").";
        if (kind == ProxyKind.DEFAULTS) {
            throw ConfigException.unspaced("a defaults section cannot inherit from a defaults section defining TCP/HTTP rules" + at);
        }
        if (kind == ProxyKind.LISTEN) {
            throw ConfigException.unspaced("a listen section cannot inherit from a defaults section defining TCP/HTTP rules.");
        }
        if (rulesUser != null && rulesUser != kind) {
            throw ConfigException.unspaced("frontends and backends cannot inherit from the same defaults section if it defines TCP/HTTP rules" + at);
        }
        for (ProxyPart part : parts.values()) {
            String whole = part.inheritanceRefusedTo(kind);
            if (whole != null) {
                throw ConfigException.unspaced(whole + at);
            }
            String refused = part.rulesRefusedTo(kind);
            if (refused != null) {
                throw ConfigException.unspaced("a " + kind.keyword() + " section cannot inherit from a defaults section defining " + refused
                        + " rules" + at);
            }
        }
        rulesUser = kind;
        return true;
    }

    /**
     * The defaults section whose TCP/HTTP rules this proxy runs, or null: HAProxy resolves that section's arguments
     * (and reports their errors in its name) before the proxy's own.
     */
    public ProxySpec rulesFrom() {
        return rulesFrom;
    }

    public String name() {
        return name;
    }

    public ProxyKind kind() {
        return kind;
    }

    public Source source() {
        return source;
    }

    /** "frontend 'NAME'", as HAProxy names a proxy in messages. */
    public String describe() {
        return kind.typeName() + " '" + name + "'";
    }

    /** The part of type {@code type}, created by {@code create} when absent. */
    public <T extends ProxyPart> T part(Class<T> type, Supplier<T> create) {
        return type.cast(parts.computeIfAbsent(type, t -> create.get()));
    }

    /** The part of type {@code type}, or null. */
    public <T extends ProxyPart> T partOrNull(Class<T> type) {
        return type.cast(parts.get(type));
    }
}
