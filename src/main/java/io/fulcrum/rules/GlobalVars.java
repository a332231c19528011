package io.fulcrum.rules;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.log.LogFormatParser;
import io.fulcrum.runtime.GlobalModule.GlobalContext;
import io.fulcrum.sample.Expr;
import io.fulcrum.sample.ExprParser;
import io.fulcrum.sample.ProcessContext;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.Stage;
import io.fulcrum.sample.VarRef;
import io.fulcrum.sample.VarScope;

/**
 * {@code set-var} and {@code set-var-fmt} in the global section: a process-wide variable set while the configuration
 * is read, from internal data only (the next lines may use it), as HAProxy does.
 */
final class GlobalVars {
    private GlobalVars() {
    }

    static void register(KeywordTable<GlobalContext> global, ExprParser exprs, LogFormatParser formats) {
        global.add("set-var", (g, l) -> {
            VarRef var = var(l, "set-var", "a sample expression");
            Expr e = exprs.parse(l.arg(2));
            if ((e.stages() & Stage.CFG_PARSER.bit()) == 0) {
                // HAProxy names the action, not the fetch, in this message.
                throw new ConfigException("fetch method 'set-var(" + l.arg(1) + ")' extracts information from '"
                        + e.fetch().source() + "', none of which is available here");
            }
            Sample value = new Sample();
            if (e.eval(ProcessContext.INSTANCE, value)) {
                var.set(ProcessContext.INSTANCE, value.copy());
            }
        });
        global.add("set-var-fmt", (g, l) -> {
            VarRef var = var(l, "set-var-fmt", "a format string");
            Sample value = new Sample();
            value.setStr(formats.parse(l.arg(2), Stage.CFG_PARSER, false, false).format(ProcessContext.INSTANCE));
            var.set(ProcessContext.INSTANCE, value);
        });
    }

    private static VarRef var(ConfigLine l, String keyword, String what) throws ConfigException {
        if (l.arg(1).isEmpty() || l.arg(2).isEmpty()) {
            throw new ConfigException("'" + keyword + "' requires a process-wide variable name ('proc.<name>') and " + what + ".");
        }
        VarRef var = VarRef.parse(l.arg(1));
        if (var.scope() != VarScope.PROC) {
            throw new ConfigException("'" + keyword + "': cannot set variable '" + l.arg(1)
                    + "', only scope 'proc' is permitted in the global section.");
        }
        return var;
    }
}
