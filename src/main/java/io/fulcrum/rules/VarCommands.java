package io.fulcrum.rules;

import io.fulcrum.backend.Backend;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cli.CliCommand;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;
import io.fulcrum.log.LogFormatParser;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.runtime.Fulcrum;
import io.fulcrum.sample.Expr;
import io.fulcrum.sample.ExprParser;
import io.fulcrum.sample.ProcessContext;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.Stage;
import io.fulcrum.sample.VarRef;
import io.fulcrum.sample.VarScope;

/** {@code get var} and {@code set var} on the CLI: the process-wide variables the rules' set-var actions share. */
final class VarCommands {
    private VarCommands() {
    }

    static void register(CliCommands c, ExprParser exprs, LogFormatParser formats) {
        c.add("get var", "get var <name>", "retrieve contents of a process-wide variable", CliLevel.OPERATOR, r -> {
            if (r.arg(2).isEmpty()) {
                throw new CliException("Missing process-wide variable identifier.\n");
            }
            Sample s = proc(r.arg(2));
            if (s == null) {
                throw new CliException("Variable not found.\n");
            }
            // As HAProxy, the line has no end of line of its own: the command's closing one ends it.
            r.print(r.arg(2) + ": type=" + s.type() + " value=<" + s.asText() + ">");
        });
        c.add("set var", "set var <name> [fmt|expr] {<fmt>|<expr>}", "set variable from an expression or a format", CliLevel.OPERATOR,
                CliCommand.Mode.EXPERIMENTAL, r -> set(r, exprs, formats));
    }

    private static Sample proc(String name) {
        try {
            VarRef v = VarRef.parse(name);
            return v.scope() == VarScope.PROC ? v.get(ProcessContext.INSTANCE) : null;
        } catch (ConfigException e) {
            return null;
        }
    }

    private static void set(CliRequest r, ExprParser exprs, LogFormatParser formats) throws CliException {
        String name = r.arg(2);
        VarRef var;
        try {
            var = VarRef.parse(name);
        } catch (ConfigException e) {
            throw new CliException(e.getMessage()); // HAProxy's text has no end of line: the closing one ends it
        }
        if (var.scope() != VarScope.PROC) {
            throw new CliException("'set var': cannot set variable '" + name + "', only scope 'proc' is permitted here.");
        }
        String kind = r.arg(3);
        String text = kind.equals("expr") || kind.equals("fmt") ? r.arg(4) : kind;
        if (text.isEmpty()) {
            throw new CliException("Missing either 'expr', 'fmt' or expression.\n");
        }
        Sample value = new Sample();
        try {
            if (kind.equals("fmt")) {
                value.setStr(formats.parse(text, Stage.CLI_PARSER, false, false).format(context(r.process())));
            } else {
                Expr e = exprs.parse(text);
                if ((e.stages() & Stage.CLI_PARSER.bit()) == 0) {
                    // HAProxy names the variable's action, not the fetch, in this message.
                    throw new CliException("fetch method 'set-var(" + name + ")' extracts information from '" + e.fetch().source()
                            + "', none of which is available here");
                }
                if (!e.eval(context(r.process()), value)) {
                    return; // no sample: the variable is left as it was, as a set-var action does
                }
            }
        } catch (ConfigException e) {
            throw new CliException(e.getMessage());
        }
        var.set(ProcessContext.INSTANCE, value.copy());
    }

    /**
     * What the CLI's expressions see: no connection, the process-wide variables, and the process's proxies for the
     * fetches that name one ({@code srv_weight(b/s)}, {@code fe_conn(f)}...), as HAProxy's.
     */
    private static ProcessContext context(Fulcrum process) {
        return new ProcessContext() {
            @Override
            public Backend backend(String name) {
                return process.backends().get(name);
            }

            @Override
            public Frontend frontend(String name) {
                return process.frontends().stream().filter(f -> f.name().equals(name)).findFirst().orElse(null);
            }
        };
    }
}
