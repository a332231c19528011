package io.fulcrum.cache;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.proxy.ProxyPart;
import io.fulcrum.proxy.ProxySpec;

import java.util.ArrayList;
import java.util.List;

/**
 * A proxy's filters in their order, as far as the cache cares: its cache filters, declared by {@code filter cache}
 * or implicitly by the first {@code cache-use}/{@code cache-store} rule naming a cache, and where
 * {@code filter compression} stands (the compression must come after the cache). Not inherited: HAProxy refuses
 * filters in defaults sections.
 */
public final class CacheFilters implements ProxyPart {
    /** A cache filter: the cache it names, resolved once every section is read. */
    static final class Filter {
        final String name;
        boolean explicit;
        HttpCache cache;

        Filter(String name) {
            this.name = name;
        }
    }

    /** The filters in order: a {@link Filter}, or {@link #COMPRESSION}. */
    final List<Object> order = new ArrayList<>();
    private static final Object COMPRESSION = "compression";

    static CacheFilters of(ProxySpec p) {
        return p.part(CacheFilters.class, CacheFilters::new);
    }

    /** {@code filter compression}: it comes here among the filters. */
    public static void compression(ProxySpec p) {
        of(p).order.add(COMPRESSION);
    }

    /** The filter for the cache {@code name}: the one declared, else a new implicit one. */
    Filter implicit(String name) {
        for (Object o : order) {
            if (o instanceof Filter f && f.name.equals(name)) {
                return f;
            }
        }
        Filter f = new Filter(name);
        order.add(f);
        return f;
    }

    /** {@code filter cache <name>}: an implicit declaration moves here and becomes explicit. */
    void explicit(ProxySpec p, String name) throws ConfigException {
        Filter f = null;
        for (Object o : order) {
            if (o instanceof Filter x && x.name.equals(name)) {
                if (x.explicit) {
                    throw new ConfigException("'filter' : '" + p.name() + ": multiple explicit declarations of the cache filter '" + name + "''");
                }
                f = x;
            }
        }
        if (f == null) {
            f = new Filter(name);
        } else {
            order.remove(f);
        }
        f.explicit = true;
        order.add(f);
    }

    /** True when {@code filter compression} comes before {@code f}. */
    boolean compressionBefore(Filter f) {
        int at = order.indexOf(f);
        return order.subList(0, at).contains(COMPRESSION);
    }

    @Override
    public ProxyPart inherit() {
        return null;
    }
}
