package io.fulcrum.acl;

import io.fulcrum.acl.map.MapConverters;
import io.fulcrum.cfg.Module;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.cfg.Registry;
import io.fulcrum.proxy.Capability;
import io.fulcrum.rules.HttpActions;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.sample.SampleCatalog;

/**
 * The {@code acl} keyword of proxy sections, the map converters, which share its pattern files, and the
 * CLI commands and rule actions that show and change them.
 */
public final class AclModule implements Module {

    @Override
    public void register(Registry registry) {
        AclParser parser = AclParser.of(registry);
        PatternFiles files = PatternFiles.of(registry);
        MapConverters.register(SampleCatalog.of(registry), files, registry::parsing);
        registry.table(ProxyModule.KEYWORDS).add("acl", Capability.RULES,
                (p, l) -> parser.declare(p.part(AclTable.class, AclTable::new), l));
        PatternCommands.register(CliCommands.of(registry), files);
        PatternActions.register(HttpActions.of(registry), files);
    }
}
