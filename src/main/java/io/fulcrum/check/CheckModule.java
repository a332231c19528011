package io.fulcrum.check;

import io.fulcrum.acl.AclParser;
import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Units;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.OptionContext;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.runtime.GlobalModule;
import io.fulcrum.server.DynamicServers;
import io.fulcrum.server.ServerList;
import io.fulcrum.server.ServerModule;
import io.fulcrum.server.ServerSpec;
import io.fulcrum.server.ServerTransport;
import io.fulcrum.server.SetServer;
import io.fulcrum.tls.CheckTls;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Health checks (configuration.txt 5.2 {@code check} and its options, 4.2 {@code option httpchk},
 * {@code http-check}, {@code tcp-check} and the protocol checks): their keywords, and the whole-configuration
 * check of {@code track} and agent settings. {@link HealthChecks} runs them.
 */
public final class CheckModule implements Module {

    /** The global settings of checks. */
    static final class Settings {
        int spreadPercent;
        long maxSpread;
        /** Global {@code external-check}: without it, {@code option external-check} is refused. */
        boolean externalCheck;
        /** Global {@code insecure-fork-wanted}: HAProxy warns about external checks without it. */
        boolean insecureFork;
        /** {@code pp2-never-send-local}: a check's PROXY v2 header is a PROXY command with its addresses, not LOCAL. */
        boolean pp2NeverSendLocal;
    }

    static Settings settings(ConfigModel model) {
        return model.part(Settings.class, Settings::new);
    }

    static ProxyChecks of(ProxySpec p) {
        return p.part(ProxyChecks.class, ProxyChecks::new);
    }

    static ServerCheckSpec of(ServerSpec s) {
        return s.part(ServerCheckSpec.class, ServerCheckSpec::new);
    }

    @Override
    public void register(Registry registry) {
        serverOptions(registry.table(ServerModule.OPTIONS));
        DynamicServers.hook(registry, new DynamicChecks());
        KeywordTable<OptionContext> options = registry.table(ProxyModule.OPTIONS);
        KeywordTable<ProxySpec> keywords = registry.table(ProxyModule.KEYWORDS);
        CheckRules.register(options, keywords, AclParser.of(registry).exprs());
        options.add("log-health-checks", Capability.BE, (o, l) -> {
            Args.noMoreThan(l, 0, "option log-health-checks");
            of(o.proxy()).logHealthChecks = o.enabled();
        });
        registry.table(ProxyModule.TIMEOUTS).add("check", Capability.BE, (p, l) -> {
            if (!l.has(1)) {
                throw new ConfigException("'timeout check' expects an integer value (in milliseconds)");
            }
            Args.noMoreThan(l, 1, "timeout check");
            of(p).timeout = Units.time(l.arg(1), "timeout check");
        });
        KeywordTable<GlobalModule.GlobalContext> global = registry.table(GlobalModule.KEYWORDS);
        global.add("pp2-never-send-local", (g, l) -> {
            Args.noMoreThan(l, 0, "pp2-never-send-local");
            settings(g.model()).pp2NeverSendLocal = true;
        });
        global.add("spread-checks", (g, l) -> {
            if (!l.has(1)) {
                throw ConfigException.unspaced("'spread-checks' expects an integer argument (0..50).");
            }
            int v = (int) Args.atol(l.arg(1)); // HAProxy's atol in an int: a word is 0
            if (v < 0 || v > 50) {
                throw ConfigException.unspaced("'spread-checks' needs a positive value in range 0..50.");
            }
            settings(g.model()).spreadPercent = v;
        });
        global.add("max-spread-checks", (g, l) -> settings(g.model()).maxSpread = maxSpread(l));
        ExternalCheckConfig.register(global, options, keywords);
        registry.check(CheckModule::checkServers);
        registry.check(CheckModule::checkRuleKinds);
        registry.check(ExternalCheckConfig::check);
        ServerStateFile.register(registry);
        CheckCommands.register(CliCommands.of(registry), SetServer.of(registry));
    }

    /** {@code max-spread-checks <delay>} in milliseconds, with HAProxy's (unspaced) messages. */
    private static long maxSpread(ConfigLine l) throws ConfigException {
        String v = l.arg(1);
        if (v.isEmpty()) {
            throw ConfigException.unspaced("'max-spread-checks' expects an integer argument (0..50).");
        }
        if (!Character.isDigit(v.charAt(0))) {
            throw ConfigException.unspaced("unsupported character '" + v.charAt(0) + "' in 'max-spread-checks' (wants an integer delay).");
        }
        try {
            return Units.time(v, "max-spread-checks");
        } catch (ConfigException e) {
            if (e.getMessage().startsWith("timer overflow")) {
                throw ConfigException.unspaced("timer overflow in argument <" + v + "> to <max-spread-checks>, maximum value is "
                        + "2147483647 ms (~24.8 days).");
            }
            throw ConfigException.unspaced(e.getMessage().replace("unexpected character", "unsupported character")
                    .replaceFirst("'max-spread-checks'$", "'max-spread-checks' (wants an integer delay)."));
        }
    }

    private static void serverOptions(KeywordTable<ServerSpec> o) {
        o.add("check", (s, l) -> of(s).check = true);
        o.add("no-check", (s, l) -> of(s).check = false);
        o.add("inter", 1, (s, l) -> of(s).inter = delay(s, l, "inter"));
        o.add("fastinter", 1, (s, l) -> of(s).fastinter = delay(s, l, "fastinter"));
        o.add("downinter", 1, (s, l) -> of(s).downinter = delay(s, l, "downinter"));
        o.add("agent-inter", 1, (s, l) -> of(s).agentInter = delay(s, l, "agent-inter"));
        o.add("rise", 1, (s, l) -> of(s).rise = positive(l, "rise"));
        o.add("fall", 1, (s, l) -> of(s).fall = positive(l, "fall"));
        o.add("port", 1, (s, l) -> {
            ServerCheckSpec c = of(s);
            c.port = port(l.arg(1), "port");
            if (!c.agentPortSet) {
                c.agentPort = c.port; // HAProxy: the agent's port too, unless agent-port was given
            }
        });
        o.add("agent-port", 1, (s, l) -> {
            ServerCheckSpec c = of(s);
            c.agentPort = port(l.arg(1), "agent-port");
            c.agentPortSet = true;
        });
        o.add("addr", 1, (s, l) -> of(s).addr = address(l.arg(1), "addr"));
        o.add("agent-addr", 1, (s, l) -> {
            try {
                of(s).agentAddr = address(l.arg(1), "agent-addr");
            } catch (ConfigException e) {
                throw new ConfigException("parsing agent-addr failed. Check if '" + l.arg(1) + "' is correct address..");
            }
        });
        o.add("agent-send", 1, (s, l) -> of(s).agentSend = l.arg(1));
        o.add("agent-check", (s, l) -> of(s).agent = true);
        o.add("no-agent-check", (s, l) -> of(s).agent = false);
        o.add("check-send-proxy", (s, l) -> of(s).sendProxy = true);
        o.add("no-check-send-proxy", (s, l) -> of(s).sendProxy = false);
        o.add("check-via-socks4", (s, l) -> of(s).viaSocks4 = true);
        o.add("track", 1, (s, l) -> of(s).track = l.arg(1));
        o.add("init-state", 1, (s, l) -> of(s).initState = switch (l.arg(1)) {
            case "fully-up" -> ServerCheckSpec.InitState.FULLY_UP;
            case "up" -> ServerCheckSpec.InitState.UP;
            case "down" -> ServerCheckSpec.InitState.DOWN;
            case "fully-down" -> ServerCheckSpec.InitState.FULLY_DOWN;
            default -> throw new ConfigException("'init-state' expects one of 'fully-up', 'up', 'down' or 'fully-down' but got '" + l.arg(1) + "'.");
        });
        o.add("check-ssl", (s, l) -> of(s).ssl = true);
        o.add("no-check-ssl", (s, l) -> of(s).ssl = false);
        o.add("check-sni", 1, (s, l) -> of(s).sni = l.arg(1));
        o.add("check-alpn", 1, (s, l) -> of(s).alpn = alpn(l.arg(1), "'check-alpn'"));
        o.add("check-proto", 1, (s, l) -> {
            proto(l.arg(1), "'check-proto'");
            of(s).proto = l.arg(1);
        });
        o.add("observe", 1, (s, l) -> of(s).observe = switch (l.arg(1)) {
            case "none" -> ServerCheckSpec.Observe.NONE;
            case "layer4" -> ServerCheckSpec.Observe.LAYER4;
            case "layer7" -> ServerCheckSpec.Observe.LAYER7;
            default -> throw new ConfigException("'observe' expects one of 'none', 'layer4', 'layer7' but got '" + l.arg(1) + "'.");
        });
        o.add("error-limit", 1, (s, l) -> {
            int limit = (int) Args.atol(l.arg(1));
            if (limit <= 0) {
                throw new ConfigException("error-limit has to be > 0..");
            }
            of(s).errorLimit = limit;
        });
        o.add("on-error", 1, (s, l) -> of(s).onError = switch (l.arg(1)) {
            case "fastinter" -> ServerCheckSpec.OnError.FASTINTER;
            case "fail-check" -> ServerCheckSpec.OnError.FAIL_CHECK;
            case "sudden-death" -> ServerCheckSpec.OnError.SUDDEN_DEATH;
            case "mark-down" -> ServerCheckSpec.OnError.MARK_DOWN;
            default -> throw new ConfigException("'on-error' expects one of 'fastinter', 'fail-check', 'sudden-death' or 'mark-down' but got '"
                    + l.arg(1) + "'.");
        });
        o.add("on-marked-down", 1, (s, l) -> of(s).shutdownOnDown = action(l, "on-marked-down", "shutdown-sessions"));
        o.add("on-marked-up", 1, (s, l) -> of(s).shutdownBackupsOnUp = action(l, "on-marked-up", "shutdown-backup-sessions"));
    }

    /** The one action {@code on-marked-down} / {@code on-marked-up} know (HAProxy's words when it is another). */
    private static boolean action(ConfigLine l, String keyword, String only) throws ConfigException {
        if (!l.arg(1).equals(only)) {
            throw new ConfigException("'" + keyword + "' expects '" + only + "' but got '" + l.arg(1) + "'.");
        }
        return true;
    }

    private static long delay(ServerSpec s, ConfigLine l, String name) throws ConfigException {
        String v = l.arg(1);
        long ms;
        try {
            ms = Units.time(v, name);
        } catch (ConfigException e) {
            if (e.getMessage().startsWith("timer overflow")) {
                throw new ConfigException("timer overflow in argument <" + v + "> to <" + name + "> of server " + s.name
                        + ", maximum value is 2147483647 ms (~24.8 days)..");
            }
            // HAProxy 2.6 names 'agent-inter' here, whichever delay it was.
            throw new ConfigException("unexpected character '" + firstBad(v) + "' in 'agent-inter' argument of server " + s.name + "..");
        }
        if (ms <= 0) {
            throw new ConfigException("invalid value " + v + " for argument '" + name + "' of server " + s.name + "..");
        }
        return ms;
    }

    private static char firstBad(String v) {
        for (char c : v.toCharArray()) {
            if (!Character.isDigit(c)) {
                return c;
            }
        }
        return '?';
    }

    /** {@code rise}, {@code fall}: read as HAProxy's atol() (a word that is no number is 0, so refused). */
    private static int positive(ConfigLine l, String name) throws ConfigException {
        int v = (int) Args.atol(l.arg(1));
        if (v <= 0) {
            throw new ConfigException("'" + name + "' has to be > 0..");
        }
        return v;
    }

    static int port(String v, String name) throws ConfigException {
        if (!v.matches("\\d{1,5}") || Integer.parseInt(v) == 0 || Integer.parseInt(v) > 65535) {
            throw new ConfigException("'" + name + "' expects a valid port number but got '" + v + "'.");
        }
        return Integer.parseInt(v);
    }

    /** A comma-delimited ALPN list ({@code check-alpn}, {@code connect ... alpn}); {@code where} names it in errors. */
    static List<String> alpn(String v, String where) throws ConfigException {
        List<String> protocols = List.of(v.split(",", -1));
        if (v.isEmpty() || protocols.contains("")) {
            throw new ConfigException(where + " : missing the comma-delimited ALPN protocol suite.");
        }
        return protocols;
    }

    /**
     * A check's MUX protocol ({@code check-proto}; {@code connect ... proto} once its kind is known): "none" for TCP
     * checks, "h1" for HTTP ones; HAProxy's others (h2, fcgi) wait for their check clients.
     */
    static void proto(String v, String where) throws ConfigException {
        switch (v) {
            case "none", "h1" -> { }
            case "h2", "fcgi" -> throw new ConfigException(where + " : '" + v + "' is not supported by Fulcrum's checks yet.");
            default -> throw new ConfigException(where + " :  unknown MUX protocol '" + v + "'.");
        }
    }

    static InetAddress address(String v, String name) throws ConfigException {
        try {
            return InetAddress.getByName(v);
        } catch (UnknownHostException e) {
            throw new ConfigException("'" + name + "' : invalid address: '" + v + "' in '" + v + "'.");
        }
    }

    /**
     * tcp-check rules in a backend its check option does not run, http-check rules likewise: ignored with HAProxy's
     * warnings (rules written before a check option that took their place are ignored without one, as by HAProxy).
     */
    private static void checkRuleKinds(ConfigModel model, Diagnostics diag) {
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            ProxyChecks c = p.partOrNull(ProxyChecks.class);
            if (c == null || !p.kind().isBackend()) {
                continue;
            }
            if (c.unusedHttp) {
                diag.configWarning(p.describe() + " uses http-check rules without 'option httpchk', so the rules are ignored.");
            }
            if (c.unusedTcp) {
                diag.configWarning(p.describe() + " uses tcp-check rules without 'option tcp-check', so the rules are ignored.");
            }
        }
    }

    /** {@code track} targets, checks with tracking, agents without a port, checks without a port to use. */
    private static void checkServers(ConfigModel model, Diagnostics diag) {
        ProxyTable table = ProxyTable.of(model);
        for (ProxySpec p : table.proxies()) {
            ServerList list = p.partOrNull(ServerList.class);
            if (list == null || !p.kind().isBackend()) {
                continue;
            }
            for (ServerSpec s : list.servers) {
                ServerCheckSpec c = s.partOrNull(ServerCheckSpec.class);
                if (c == null) {
                    continue;
                }
                String where = "[" + s.source + "] : 'server " + p.name() + "/" + s.name + "' : ";
                if (c.check && c.track != null) {
                    diag.configAlert(where + "unable to enable checks and tracking at the same time!");
                }
                if (c.agent && c.agentPort == 0) {
                    diag.configAlert(where + "server " + s.name + " does not have agent port. Agent check has been disabled.");
                    c.agent = false;
                }
                if (c.check && c.port == 0 && s.portMode != ServerSpec.PortMode.FIXED) {
                    // HAProxy's init_srv_check: a first 'connect' rule may give the port; else it is named in the message
                    // (HTTP checks start with an implicit one)
                    List<CheckRule> rules = of(p).rules;
                    CheckRule.Connect first = !rules.isEmpty() && rules.get(0) instanceof CheckRule.Connect k ? k : null;
                    if (first == null || first.port() == 0 && first.portExpr() == null) {
                        boolean connect = first != null || of(p).type == ProxyChecks.Type.HTTP;
                        diag.configAlert("config: " + p.describe() + ": server '" + s.name + "' has neither service port nor check port"
                                + (connect ? " nor tcp_check rule 'connect' with port information" : "") + ".");
                    }
                }
                if (c.track != null) {
                    checkTrack(table, p, s, c, where, diag);
                }
                if (c.check) {
                    checkTls(model, p, s, c, where, diag);
                }
                if (c.observe == ServerCheckSpec.Observe.LAYER7 && p.mode != io.fulcrum.proxy.Mode.HTTP) {
                    diag.configAlert(where + "'layer7' can only be used in http proxies.");
                }
            }
        }
    }

    /**
     * Builds the TLS layers of a server's checks: its default one ({@code check-ssl}, or the line's {@code ssl} when
     * the checks have no port or address of their own) and those of {@code connect ... ssl} rules.
     */
    private static void checkTls(ConfigModel model, ProxySpec p, ServerSpec s, ServerCheckSpec c, String where, Diagnostics diag) {
        ProxyChecks checks = p.partOrNull(ProxyChecks.class);
        boolean http = checks != null && checks.type == ProxyChecks.Type.HTTP;
        if (c.proto != null && c.proto.equals("h1") != http) {
            diag.configAlert("config: backend '" + p.name() + "': server '" + s.name + "' uses an incompatible MUX protocol for the selected check type");
        }
        boolean serverTls = CheckTls.serverUsesTls(s);
        boolean tls = c.ssl != null ? c.ssl : c.port == 0 && c.addr == null && serverTls;
        try {
            c.tls = tls ? CheckTls.transport(model, p, s, c.sni, c.alpn) : null;
            Map<CheckRule.Connect, ServerTransport> rules = new HashMap<>();
            for (CheckRule r : checks == null ? List.<CheckRule>of() : checks.rules) {
                if (r instanceof CheckRule.Connect k && k.ssl()) {
                    rules.put(k, CheckTls.transport(model, p, s, k.sni() != null || !k.byDefault() ? k.sni() : c.sni,
                            k.alpn() != null || !k.byDefault() ? k.alpn() : c.alpn));
                }
            }
            c.ruleTls = rules;
        } catch (ConfigException e) {
            if (!serverTls) { // else the line's own ssl reported it
                for (String line : e.getMessage().split("\n")) {
                    diag.configAlert(where + line);
                }
            }
        }
    }

    private static void checkTrack(ProxyTable table, ProxySpec p, ServerSpec s, ServerCheckSpec c, String where, Diagnostics diag) {
        int slash = c.track.indexOf('/');
        String backend = slash < 0 ? p.name() : c.track.substring(0, slash);
        String name = slash < 0 ? c.track : c.track.substring(slash + 1);
        ProxySpec target = table.proxies().stream().filter(x -> x.name().equals(backend) && x.kind().isBackend()).findFirst().orElse(null);
        if (target == null) {
            diag.configAlert(where + "unable to find required proxy '" + backend + "' for tracking.");
            return;
        }
        ServerList tl = target.partOrNull(ServerList.class);
        ServerSpec t = tl == null ? null : tl.named(name);
        if (t == null) {
            diag.configAlert(where + "unable to find required server '" + name + "' for tracking.");
            return;
        }
        ServerSpec end = t;
        for (int hops = 0; hops < 100 && end != null; hops++) {
            ServerCheckSpec tc = end.partOrNull(ServerCheckSpec.class);
            if (tc != null && (tc.check || tc.agent)) {
                return;
            }
            end = tc == null || tc.track == null ? null : find(table, target, tc.track);
        }
        diag.configAlert(where + "unable to use " + backend + "/" + name + " for tracking as it does not have any check nor agent enabled.");
    }

    /** The server a {@code track} value names, or null. */
    static ServerSpec find(ProxyTable table, ProxySpec from, String track) {
        int slash = track.indexOf('/');
        String backend = slash < 0 ? from.name() : track.substring(0, slash);
        String name = slash < 0 ? track : track.substring(slash + 1);
        for (ProxySpec x : table.proxies()) {
            ServerList l = x.partOrNull(ServerList.class);
            if (x.name().equals(backend) && x.kind().isBackend() && l != null) {
                return l.named(name);
            }
        }
        return null;
    }
}
