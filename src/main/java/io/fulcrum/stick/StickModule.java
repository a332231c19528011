package io.fulcrum.stick;

import io.fulcrum.acl.AclParser;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.rules.HttpActions;
import io.fulcrum.rules.TcpActions;

/**
 * Stick tables: the {@code stick-table} keyword, the {@code stick} persistence rules, the stick-counter actions of tcp-request and HTTP rules, the
 * {@code sc_*}, {@code src_*} and {@code table_*} fetches and converters, and the table commands of the CLI.
 */
public final class StickModule implements Module {

    @Override
    public void register(Registry registry) {
        StickTables tables = StickTables.of(registry);
        registry.table(ProxyModule.KEYWORDS).add("stick-table", Capability.FRONTEND | Capability.BACKEND | Capability.STRICT,
                (p, l) -> TableParser.parse(p, l, tables));
        AclParser acls = AclParser.of(registry);
        registry.table(ProxyModule.KEYWORDS).add("stick", Capability.FRONTEND | Capability.BACKEND | Capability.STRICT,
                (p, l) -> StickRuleParser.parse(p, l, acls, tables));
        TrackActions.register(tables, TcpActions.of(registry), HttpActions.of(registry));
        StickFetches.register(registry, tables);
        TableCommands.register(CliCommands.of(registry), tables);
        registry.check(tables::resolve);
    }
}
