package io.fulcrum.check;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.OptionContext;
import io.fulcrum.proxy.ProxyKind;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.runtime.GlobalModule;


/**
 * The keywords of external checks (configuration.txt 3.1 {@code external-check} and {@code insecure-fork-wanted},
 * 4.2 {@code option external-check}, {@code external-check command|path}) and HAProxy's checks of them once the
 * configuration is read. {@link ExternalCheck} runs the command.
 */
final class ExternalCheckConfig {
    private ExternalCheckConfig() {
    }

    static void register(KeywordTable<GlobalModule.GlobalContext> global, KeywordTable<OptionContext> options, KeywordTable<ProxySpec> keywords) {
        global.add("external-check", (g, l) -> {
            Args.noMoreThan(l, 0, "external-check");
            CheckModule.settings(g.model()).externalCheck = true;
        });
        global.add("insecure-fork-wanted", GlobalModule.NEGATABLE, (g, l) -> {
            boolean negated = l.keyword().equals("no");
            Args.noMoreThan(negated ? l.shift(1) : l, 0, "insecure-fork-wanted");
            CheckModule.settings(g.model()).insecureFork = !negated;
        });
        options.add("external-check", Capability.BE | Capability.NO_NEGATION, (o, l) -> {
            Args.noMoreThan(l, 0, "option external-check");
            ProxyChecks c = CheckModule.of(o.proxy());
            c.type = ProxyChecks.Type.EXTERNAL; // HAProxy leaves the rules in use: a later option tcp-check finds them
        });
        keywords.add("external-check", Capability.BE, (p, l) -> {
            String what = l.arg(1);
            if (what.isEmpty()) {
                throw new ConfigException("missing argument after 'external-check'.");
            }
            if (!what.equals("command") && !what.equals("path")) {
                throw new ConfigException("'external-check' only supports 'command' and 'path'. but got '" + what + "'.");
            }
            if (!l.has(2)) {
                throw new ConfigException("missing argument after '" + what + "'.");
            }
            Args.noMoreThan(l, 2, "external-check");
            ProxyChecks c = CheckModule.of(p);
            if (what.equals("command")) {
                c.externalCommand = l.arg(2);
            } else {
                c.externalPath = l.arg(2);
            }
        });
    }

    /** HAProxy's checks: the global keyword and a command are required, forking unguarded is warned about. */
    static void check(ConfigModel model, Diagnostics diag) {
        CheckModule.Settings settings = CheckModule.settings(model);
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            ProxyChecks c = p.partOrNull(ProxyChecks.class);
            if (c == null || p.kind() == ProxyKind.DEFAULTS) {
                continue;
            }
            if (c.type != ProxyChecks.Type.EXTERNAL) {
                ignored(diag, p, c.externalCommand, "command");
                ignored(diag, p, c.externalPath, "path");
                continue;
            }
            String where = "Proxy '" + p.name() + "' : 'option external-check' ";
            if (!settings.externalCheck) {
                diag.configAlert(where + "unable to find required 'global.external-check'.");
            } else if (c.externalCommand == null) {
                diag.configAlert(where + "unable to find required 'external-check command'.");
            }
            if (!settings.insecureFork) {
                diag.configWarning("Proxy '" + p.name() + "' : 'insecure-fork-wanted' not enabled in the global section, "
                        + "'option external-check' will likely fail.");
            }
        }
    }

    private static void ignored(Diagnostics diag, ProxySpec p, String value, String setting) {
        if (value != null) {
            diag.configWarning("'external-check " + setting + "' will be ignored for " + p.describe() + " (requires 'option external-check').");
        }
    }
}
