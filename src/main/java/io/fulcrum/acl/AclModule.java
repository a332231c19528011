package io.fulcrum.acl;

import io.fulcrum.acl.map.MapConverters;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.sample.SampleCatalog;

/** The {@code acl} keyword of proxy sections, and the map converters, which share its pattern files. */
public final class AclModule implements Module {

    @Override
    public void register(Registry registry) {
        AclParser parser = AclParser.of(registry);
        MapConverters.register(SampleCatalog.of(registry), PatternFiles.of(registry));
        registry.table(ProxyModule.KEYWORDS).add("acl", Capability.FRONTEND | Capability.BACKEND | Capability.STRICT,
                (p, l) -> parser.declare(p.part(AclTable.class, AclTable::new), l));
    }
}
