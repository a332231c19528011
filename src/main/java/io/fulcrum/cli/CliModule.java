package io.fulcrum.cli;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Units;
import io.fulcrum.conn.AddressParser;
import io.fulcrum.listener.BindSpec;
import io.fulcrum.listener.ListenerModule;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.runtime.GlobalModule;
import io.fulcrum.runtime.GlobalModule.GlobalContext;

/**
 * The runtime CLI: the global {@code stats socket|timeout|maxconn} keywords, the {@code level} and
 * {@code severity-output} bind options, and the commands that act on the session itself.
 */
public final class CliModule implements Module {

    @Override
    public void register(Registry registry) {
        KeywordTable<BindSpec> bindOptions = registry.table(ListenerModule.OPTIONS);
        registry.table(GlobalModule.KEYWORDS).add("stats", (g, l) -> stats(g, l, bindOptions));
        bindOptions.add("level", 1, (b, l) -> {
            CliLevel level = CliLevel.of(l.arg(1));
            if (level == null) {
                throw new ConfigException(l.arg(1).isEmpty() ? "'level' : missing level"
                        : "'level' only supports 'user', 'operator', and 'admin' (got '" + l.arg(1) + "')");
            }
            CliSocketOptions.of(b).level = level;
        });
        bindOptions.add("severity-output", 1, (b, l) -> {
            Severity.Output s = Severity.Output.of(l.arg(1));
            if (s == null) {
                throw new ConfigException(l.arg(1).isEmpty() ? "'severity-output' : missing severity format"
                        : "'severity-output' only supports 'none', 'number', and 'string' (got '" + l.arg(1) + "')");
            }
            CliSocketOptions.of(b).severity = s;
        });
        bindOptions.add("expose-fd", 1, (b, l) -> {
            if (!l.arg(1).equals("listeners")) {
                throw new ConfigException("'expose-fd' only supports 'listeners' (got '" + l.arg(1) + "')");
            }
            l.warn("'expose-fd listeners' is ignored: Fulcrum does not hand its listening sockets over on reload yet.");
        });
        CliCommands commands = CliCommands.of(registry);
        registry.check((model, diag) -> {
            CliSettings cli = CliSettings.of(model);
            cli.commands = commands;
        });
        SessionCommands.register(commands);
    }

    private static void stats(GlobalContext g, ConfigLine l, KeywordTable<BindSpec> bindOptions) throws ConfigException {
        CliSettings cli = CliSettings.of(g.model());
        switch (l.arg(1)) {
            case "socket" -> {
                cli.sockets.add(socket(l, bindOptions));
                ProxyTable.of(g.model()).addGlobalProxy();
            }
            case "timeout" -> cli.timeoutMs = Units.time(l.arg(2), "stats timeout");
            case "maxconn" -> {
                long n = l.arg(2).isEmpty() ? 0 : Units.integer(l.arg(2), "stats maxconn", 0, Integer.MAX_VALUE);
                if (n <= 0) {
                    throw new ConfigException("'stats maxconn' expects a positive value");
                }
                cli.maxconn = (int) n;
            }
            case "bind-process" -> l.warn("'stats bind-process' is ignored: Fulcrum runs one process.");
            default -> throw new ConfigException("'stats' only supports 'socket', 'maxconn', 'bind-process' and 'timeout' (got '"
                    + l.arg(1) + "')");
        }
    }

    private static BindSpec socket(ConfigLine l, KeywordTable<BindSpec> bindOptions) throws ConfigException {
        if (l.arg(2).isEmpty()) {
            throw new ConfigException("'stats socket' in global section expects an address or a path to a UNIX socket");
        }
        BindSpec bind;
        try {
            bind = new BindSpec(l.source(), l.arg(2), AddressParser.listeners(l.arg(2)));
        } catch (ConfigException e) {
            throw new ConfigException("'stats socket' : " + e.getMessage());
        }
        ListenerModule.options(bind, l, 3, bindOptions, new ListenerModule.OptionErrors() {
            @Override
            public String unknown(String opt, String suggestion) {
                if (suggestion == null) {
                    return "'stats socket' : unknown keyword '" + opt + "'.";
                }
                // HAProxy words it "... 'X'. Did you mean 'Y' maybe ?" here.
                return "'stats socket' : " + suggestion.replace("'; did you mean", "'. Did you mean");
            }

            @Override
            public String invalid(String message) {
                return "'stats socket' : '" + message + "'";
            }
        });
        bind.number(1);
        return bind;
    }
}
