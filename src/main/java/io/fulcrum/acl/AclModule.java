package io.fulcrum.acl;

import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.ProxyModule;

/** The {@code acl} keyword of proxy sections. */
public final class AclModule implements Module {

    @Override
    public void register(Registry registry) {
        AclParser parser = AclParser.of(registry);
        registry.table(ProxyModule.KEYWORDS).add("acl", Capability.FRONTEND | Capability.BACKEND | Capability.STRICT,
                (p, l) -> parser.declare(p.part(AclTable.class, AclTable::new), l));
    }
}
