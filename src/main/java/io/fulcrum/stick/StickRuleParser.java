package io.fulcrum.stick;

import io.fulcrum.acl.AclParser;
import io.fulcrum.acl.AclTable;
import io.fulcrum.acl.Condition;
import io.fulcrum.backend.Affinity;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.sample.Expr;
import io.fulcrum.sample.Stage;

/** {@code stick on|match|store-request|store-response <pattern> [table <t>] [{if|unless} <condition>]}, with HAProxy's errors. */
final class StickRuleParser {
    private StickRuleParser() {
    }

    static void parse(ProxySpec p, ConfigLine l, AclParser acls, StickTables tables) throws ConfigException {
        if (!p.kind().isBackend()) {
            l.warn("'stick' ignored because " + p.describe() + " has no backend capability.");
            return;
        }
        StickRules.Kind kind = switch (l.arg(1)) {
            case "on" -> StickRules.Kind.ON;
            case "match" -> StickRules.Kind.MATCH;
            case "store-request" -> StickRules.Kind.STORE_REQUEST;
            case "store-response" -> StickRules.Kind.STORE_RESPONSE;
            default -> throw new ConfigException("'stick' expects 'on', 'match', or 'store'.");
        };
        if (!l.has(2)) {
            throw new ConfigException("'stick' expects a fetch method.");
        }
        Stage stage = kind == StickRules.Kind.STORE_RESPONSE ? Stage.BE_STO_RUL : Stage.BE_SET_SRV;
        Expr key;
        try {
            key = acls.exprs().parse(l.arg(2));
        } catch (ConfigException e) {
            throw new ConfigException("'stick': " + e.getMessage() + ".");
        }
        if ((key.stages() & stage.bit()) == 0) { // (HAProxy names the fetch keyword there, without its arguments)
            throw new ConfigException("'stick': fetch method '" + key.fetch().name() + "' extracts information from '" + key.fetch().source()
                    + "', none of which is available " + (stage == Stage.BE_STO_RUL ? "for 'store-response'." : "during request."));
        }
        int pos = 3;
        String table = null;
        if (l.arg(pos).equals("table")) {
            table = l.arg(pos + 1);
            pos += 2;
        }
        if (l.has(pos) && !l.arg(pos).equals("if") && !l.arg(pos).equals("unless")) {
            throw new ConfigException("'stick': unknown keyword '" + l.arg(pos) + "'.");
        }
        Condition cond;
        try {
            cond = acls.condition(l, pos, p.partOrNull(AclTable.class), stage);
        } catch (ConfigException e) {
            throw new ConfigException("error detected in " + p.describe() + " while parsing 'stick' condition : " + e.getMessage() + ".");
        }
        TableRef ref = tables.ref(table, null, null, p.name());
        StickRules rules = (StickRules) p.part(Affinity.class, StickRules::new);
        rules.rules.add(new StickRules.Rule(kind, key, ref, cond));
    }
}
