package io.fulcrum.server;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Registry.TableKey;
import io.fulcrum.cfg.Units;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.conn.NetNamespace;
import io.fulcrum.conn.ProxyHeader;
import io.fulcrum.listener.ListenerModule;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.sample.SampleCatalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/** The {@code server} and {@code default-server} keywords and the server options (configuration.txt 5.2). */
public final class ServerModule implements Module {

    /**
     * Server options: each parser gets the line shifted so that the option name is word 0. An entry's
     * flags are the number of value words the option takes.
     */
    public static final TableKey<ServerSpec> OPTIONS = new TableKey<>("server");

    @Override
    public void register(Registry registry) {
        ServerFetches.register(SampleCatalog.of(registry));
        ServerCommands.register(CliCommands.of(registry), SetServer.of(registry));
        KeywordTable<ServerSpec> options = registry.table(OPTIONS);
        DynamicServers.register(registry, options);
        KeywordTable<ProxySpec> keywords = registry.table(ProxyModule.KEYWORDS);
        Resolution resolution = registry.component(Resolution.class, Resolution::new);
        keywords.add("server", Capability.BACKEND | Capability.STRICT, (p, l) -> server(p, l, options, resolution));
        keywords.add("server-template", Capability.BACKEND | Capability.STRICT, (p, l) -> template(p, l, options, resolution));
        keywords.add("default-server", Capability.BE | Capability.STRICT, (p, l) -> {
            ServerList list = p.part(ServerList.class, ServerList::new);
            ServerSpec defaults = list.defaults;
            defaults.name = DEFAULTS_NAME;
            try {
                parseOptions(defaults, l, 1, null, options);
            } catch (ConfigException e) {
                // HAProxy's hint, as its unknown keywords of a default-server line are first tried as an address
                throw e.getMessage().startsWith("unknown keyword ")
                        ? ConfigException.located(e.getMessage() + " Hint: no address was expected for this server.") : e;
            } finally {
                defaults.name = null;
            }
        });

        options.add("weight", 1, (s, l) -> {
            int w = atol(l.arg(1), "weight");
            if (w < 0 || w > 256) {
                throw new ConfigException("weight of server " + s.name + " is not within 0 and 256 (" + w + ")..");
            }
            s.weight = w;
        });
        options.add("maxconn", 1, (s, l) -> s.maxconn = count(l, "maxconn"));
        options.add("minconn", 1, (s, l) -> s.minconn = count(l, "minconn"));
        options.add("maxqueue", 1, (s, l) -> s.maxqueue = count(l, "maxqueue"));
        options.add("slowstart", 1, (s, l) -> {
            try {
                s.slowstart = Units.time(l.arg(1), "slowstart");
            } catch (ConfigException e) {
                throw new ConfigException(e.getMessage().startsWith("timer overflow")
                        ? "overflow in argument <" + l.arg(1) + "> to <slowstart> of server " + s.name + ", maximum value is 2147483647 ms (~24.8 days).."
                        : e.getMessage() + " argument of server " + s.name + "..");
            }
        });
        options.add("id", 1, (s, l) -> {
            int id = (int) Args.atol(l.arg(1));
            if (id <= 0) {
                throw new ConfigException("'id' : custom id has to be > 0.");
            }
            s.id = id;
        });
        options.add("backup", (s, l) -> s.backup = true);
        options.add("no-backup", (s, l) -> s.backup = false);
        options.add("cookie", 1, (s, l) -> s.cookie = l.arg(1));
        options.add("disabled", (s, l) -> {
            s.disabled = true;
            s.enabled = false;
        });
        options.add("enabled", (s, l) -> {
            s.disabled = false;
            s.enabled = true;
        });
        options.add("send-proxy", (s, l) -> s.sendProxy = 1);
        options.add("send-proxy-v2", (s, l) -> s.sendProxy = 2);
        options.add("no-send-proxy", (s, l) -> s.sendProxy = 0);
        options.add("no-send-proxy-v2", (s, l) -> s.sendProxy = 0);
        options.add("send-proxy-v2-ssl", (s, l) -> sendProxyV2(s, ProxyHeader.TLV_SSL));
        options.add("send-proxy-v2-ssl-cn", (s, l) -> sendProxyV2(s, ProxyHeader.TLV_SSL | ProxyHeader.TLV_CERT_CN));
        // As HAProxy, these also end send-proxy-v2 (v1 stays).
        options.add("no-send-proxy-v2-ssl", (s, l) -> noSendProxyV2(s, ProxyHeader.TLV_SSL));
        options.add("no-send-proxy-v2-ssl-cn", (s, l) -> noSendProxyV2(s, ProxyHeader.TLV_SSL | ProxyHeader.TLV_CERT_CN));
        options.add("proxy-v2-options", 1, (s, l) -> s.proxyV2Options |= ProxyHeader.options(l.arg(1)));
        options.add("redir", 1, (s, l) -> s.redirect = l.arg(1));
        options.add("non-stick", (s, l) -> s.nonStick = true);
        options.add("stick", (s, l) -> s.nonStick = false);
        options.add("tfo", (s, l) -> s.tfo = true);
        options.add("namespace", 1, (s, l) -> {
            if (l.arg(1).equals("*")) {
                throw new ConfigException("'namespace *' (the namespace a PROXY protocol header names) is not supported by Fulcrum.");
            }
            s.namespace = NetNamespace.open(l.arg(1));
            if (s.namespace == null) {
                throw new ConfigException("Cannot open namespace '" + l.arg(1) + "'.");
            }
        });
        options.add("no-tfo", (s, l) -> s.tfo = false);
        options.add("tcp-ut", 1, (s, l) -> {
            try {
                s.tcpUserTimeout = ListenerModule.tcpUserTimeout(l.arg(1));
            } catch (ConfigException e) {
                throw new ConfigException(e.getMessage() + "."); // (as HAProxy's server messages)
            }
        });
        options.add("proto", 1, ServerModule::proto);
        options.add("ws", 1, ServerModule::ws);
        options.add("init-addr", 1, (s, l) -> {
            if (l.arg(1).isEmpty()) {
                return; // as HAProxy: no method named, the default ones stay
            }
            for (String method : l.arg(1).split(",", -1)) {
                if (!method.equals("last") && !method.equals("libc") && !method.equals("none") && !ServerAddress.isStrictIp(method)) {
                    throw new ConfigException("'init-addr' : unknown init-addr method '" + method
                            + "', supported methods are 'libc', 'last', 'none'..");
                }
            }
            s.initAddr = l.arg(1);
            s.initAddrSet = true;
        });

        registry.check(ServerModule::checkTimeouts);
        registry.check(ServerModule::checkProtos);
        registry.check(ServerModule::settleMinconn);
    }

    /**
     * As HAProxy's check_config_validity(): a {@code minconn} above {@code maxconn} (or without it) becomes the
     * server's maxconn, a static limit; a maxconn without minconn is its own minconn.
     */
    private static void settleMinconn(ConfigModel model, Diagnostics diag) {
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            ServerList list = p.partOrNull(ServerList.class);
            if (list == null) {
                continue;
            }
            list.servers.forEach(ServerModule::settleMinconn);
        }
    }

    /** The connection limits of one server, settled as HAProxy's check_config_validity() does (dynamic servers too). */
    static void settleMinconn(ServerSpec s) {
        if (s.minconn > s.maxconn) {
            s.maxconn = s.minconn;
        } else if (s.minconn == 0) {
            s.minconn = s.maxconn;
        }
    }

    /** {@code proto <name>}: h1 (HTTP backends) or none (TCP ones) only; h2 and fcgi wait for those muxes. */
    private static void proto(ServerSpec s, ConfigLine l) throws ConfigException {
        switch (l.arg(1)) {
            case "h1", "none" -> s.proto = l.arg(1);
            case "h2", "fcgi" -> throw new ConfigException("'proto' : '" + l.arg(1) + "' is not supported: Fulcrum has no "
                    + (l.arg(1).equals("h2") ? "HTTP/2" : "FastCGI") + " yet.");
            default -> throw new ConfigException("'proto' :  unknown MUX protocol '" + l.arg(1) + "'.");
        }
    }

    /** {@code ws auto|h1|h2}: websockets go over HTTP/1.1 here whatever the choice, which is what auto and h1 mean. */
    private static void ws(ServerSpec s, ConfigLine l) throws ConfigException {
        switch (l.arg(1)) {
            case "auto", "h1" -> { }
            case "h2" -> throw new ConfigException("'ws' : 'h2' is not supported: Fulcrum has no HTTP/2 yet.");
            default -> throw new ConfigException("'ws' has to be 'auto', 'h1' or 'h2'.");
        }
    }

    /** As HAProxy once the modes are known: a server's {@code proto} must be the mux of its backend's mode. */
    private static void checkProtos(ConfigModel model, Diagnostics diag) {
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            ServerList list = p.partOrNull(ServerList.class);
            if (list == null) {
                continue;
            }
            String usable = p.mode.mux();
            list.servers.stream().filter(s -> s.proto != null && !s.proto.equals(usable)).forEach(s -> diag.configAlert(
                    p.describe() + " : MUX protocol '" + s.proto + "' is not usable for server '" + s.name + "' at [" + s.source + "]."));
        }
    }

    private static void sendProxyV2(ServerSpec s, int tlvs) {
        s.sendProxy = 2;
        s.proxyV2Options |= tlvs;
    }

    private static void noSendProxyV2(ServerSpec s, int tlvs) {
        if (s.sendProxy == 2) {
            s.sendProxy = 0;
        }
        s.proxyV2Options &= ~tlvs;
    }

    /** A non-negative count ({@code maxconn}, {@code minconn}, {@code maxqueue}); an empty one is 0, as HAProxy's atol(). */
    private static int count(ConfigLine l, String keyword) throws ConfigException {
        return l.arg(1).isEmpty() ? 0 : (int) Units.integer(l.arg(1), keyword, 0, Integer.MAX_VALUE);
    }

    /** A weight as HAProxy's atol() reads a number (none is 0, a huge one wraps); a word that is no number stays an error. */
    private static int atol(String text, String keyword) throws ConfigException {
        return text.isEmpty() || text.matches("[-+]?[0-9]+") ? (int) Args.atol(text) : (int) Units.integer(text, keyword);
    }

    /**
     * HAProxy's "missing timeouts" warning, on its conditions: a frontend needs {@code timeout client}; a
     * backend that has servers needs {@code timeout connect}, and {@code timeout server} unless
     * {@code timeout tunnel} is set (TCP mode). Lives here because only the server list tells whether a
     * backend has servers.
     */
    private static void checkTimeouts(ConfigModel model, Diagnostics diag) {
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            if (p.disabled) {
                continue;
            }
            ServerList list = p.partOrNull(ServerList.class);
            boolean hasServers = p.kind().isBackend() && list != null && !list.servers.isEmpty();
            List<String> missing = new ArrayList<>();
            if (p.kind().isFrontend() && p.timeouts.client == 0) {
                missing.add("'client'");
            }
            if (hasServers && p.timeouts.connect == 0) {
                missing.add("'connect'");
            }
            if (hasServers && p.timeouts.server == 0 && p.timeouts.tunnel == 0) {
                missing.add("'server'");
            }
            if (missing.isEmpty()) {
                continue;
            }
            diag.configWarning("missing timeouts for " + p.describe() + ".\n"
                    + "   | While not properly invalid, you will certainly encounter various problems\n"
                    + "   | with such a configuration. To fix this, please ensure that all following\n"
                    + "   | timeouts are set to a non-zero value: " + String.join(", ", missing) + ".");
        }
    }

    /** How the servers' addresses are resolved at start: {@code -dr} ends every server's init-addr methods with "none". */
    private static final class Resolution {
        boolean dontFail;
    }

    /**
     * The command line's {@code -dr}, set before the configuration is read: a server whose address cannot be resolved
     * starts in maintenance (with HAProxy's warning) instead of failing the start.
     */
    public static void resolutionNeverFails(Registry registry) {
        registry.component(Resolution.class, Resolution::new).dontFail = true;
    }

    private static void server(ProxySpec p, ConfigLine l, KeywordTable<ServerSpec> options, Resolution resolution)
            throws ConfigException {
        if (!l.has(2)) {
            throw ConfigException.located("'server' expects <name> and <addr>[:<port>] as arguments.");
        }
        add(p, l.arg(1), l.arg(2), l, 3, options, resolution);
    }

    /** {@code server-template <prefix> <num | low-high> <addr> [params]}: the servers prefix1..prefixN (or low..high). */
    private static void template(ProxySpec p, ConfigLine l, KeywordTable<ServerSpec> options, Resolution resolution)
            throws ConfigException {
        if (!l.has(3)) {
            throw ConfigException.located("'server-template' expects <prefix> <nb | range> <addr>[:<port>] as arguments.");
        }
        String range = l.arg(2);
        int dash = range.indexOf('-');
        long low = dash < 0 ? 1 : templateNumber(range.substring(0, dash), range);
        long high = templateNumber(dash < 0 ? range : range.substring(dash + 1), range);
        if (low < 1 || high < low) {
            throw ConfigException.located("Wrong server-template number or range arg '" + range + "'.");
        }
        for (long n = low; n <= high; n++) {
            add(p, l.arg(1) + n, l.arg(3), l, 4, options, resolution);
        }
    }

    private static long templateNumber(String digits, String range) throws ConfigException {
        if (digits.isEmpty() || digits.length() > 9 || !digits.chars().allMatch(Character::isDigit)) {
            throw ConfigException.located("Wrong server-template number or range arg '" + range + "'.");
        }
        return Long.parseLong(digits);
    }

    /** Adds the server {@code name} at {@code address}, its options from word {@code from} of {@code l}. */
    private static void add(ProxySpec p, String name, String address, ConfigLine l, int from, KeywordTable<ServerSpec> options,
                            Resolution resolution) throws ConfigException {
        ServerList list = p.part(ServerList.class, ServerList::new);
        ServerSpec s = list.defaults.copy();
        s.name = name;
        s.source = l.source();
        for (ServerSpec other : list.servers) {
            if (other.name.equals(s.name)) {
                throw new ConfigException(p.describe() + ", another server named '" + s.name + "' was already defined at line "
                        + other.source.line() + ", please use distinct names.");
            }
        }
        // HAProxy parses a template's options before it names its servers: its messages say "(null)"
        boolean template = l.keyword().equals("server-template");
        String parsedAs = template ? "(null)" : s.name;
        s.name = parsedAs;
        parseOptions(s, l, from, "'server " + p.name() + "/" + parsedAs + "'", options);
        s.name = name;
        String where = "'server " + p.name() + "/" + s.name + "'";
        for (ServerSpec other : list.servers) {
            if (s.id != 0 && other.id == s.id) {
                throw ConfigException.located(where + " : 'id' : custom id " + s.id + " already used at " + other.source
                        + " ('server " + other.name + "').");
            }
        }
        boolean resolvedLater = s.resolvedAtRunTime && !s.initAddrSet; // (HAProxy's default methods then: last,libc,none)
        if ((resolution.dontFail || resolvedLater) && !List.of(s.initAddr.split(",")).contains("none")) {
            s.initAddr += ",none"; // appended to the server's methods (with -dr, whichever they are), as HAProxy
        }
        try {
            ServerAddress.parse(s, address);
        } catch (ConfigException e) {
            throw ConfigException.located(where + " : " + e.getMessage());
        }
        String tried = s.initAddr.split("(^|,)none(,|$)", 2)[0];
        if (s.endpoint == null && s.fqdn != null && List.of(tried.split(",")).contains("libc") && l.diag() != null) {
            // A resolution before "none" failed (HAProxy says nothing when none was tried: "last" without a state).
            l.diag().configWarning("[" + l.source().file() + ":" + l.source().line() + "] : " + where + " : could not resolve address '"
                    + s.fqdn + "', disabling server.");
        }
        list.servers.add(s);
    }

    /** What a {@code default-server} line's messages call the server, as HAProxy's. */
    private static final String DEFAULTS_NAME = "default-server";

    /**
     * HAProxy's message for an option given no value (or an empty one), where it is not the one the option's parser
     * says of a bad value. The options that are not here take the empty value: the ones HAProxy reads with atol()
     * ({@code weight}, {@code maxconn}...) then count it as 0.
     */
    private static final Map<String, String> MISSING = Map.ofEntries(
            Map.entry("addr", "'addr' expects <ipv4|ipv6> as argument.."),
            Map.entry("agent-addr", "'agent-addr' expects an address as argument.."),
            Map.entry("agent-inter", "'agent-inter' expects a delay as argument.."),
            Map.entry("agent-port", "'agent-port' expects a port number as argument.."),
            Map.entry("agent-send", "'agent-send' expects a string as argument.."),
            Map.entry("alpn", "'alpn' : missing the comma-delimited ALPN protocol suite."),
            Map.entry("ca-file", "'ca-file' : missing CAfile path."),
            Map.entry("check-alpn", "'check-alpn' : missing the comma-delimited ALPN protocol suite."),
            Map.entry("check-proto", "'check-proto' : missing value."),
            Map.entry("check-sni", "'check-sni' : missing SNI."),
            Map.entry("ciphers", "'ciphers' : missing cipher suite."),
            Map.entry("ciphersuites", "'ciphersuites' : missing cipher suite."),
            Map.entry("cookie", "'cookie' expects <value> as argument.."),
            Map.entry("crl-file", "'crl-file' : missing CRLfile path."),
            Map.entry("crt", "'crt' : missing certificate file path."),
            Map.entry("downinter", "'downinter' expects a delay as argument.."),
            Map.entry("error-limit", "'error-limit' expects an integer argument.."),
            Map.entry("fall", "'fall' expects an integer argument.."),
            Map.entry("fastinter", "'fastinter' expects a delay as argument.."),
            Map.entry("id", "'id' : expects an integer argument."),
            Map.entry("inter", "'inter' expects a delay as argument.."),
            Map.entry("max-reuse", "'max-reuse' expects <value> as argument.."),
            Map.entry("namespace", "'namespace' : expects <name> as argument."),
            Map.entry("npn", "'npn' : missing the comma-delimited NPN protocol suite."),
            Map.entry("observe", "'observe' expects <mode> as argument.."),
            Map.entry("pool-low-conn", "'pool-low-conn' expects <value> as argument.."),
            Map.entry("pool-max-conn", "'pool-max-conn' expects <value> as argument.."),
            Map.entry("pool-purge-delay", "'pool-purge-delay' expects <value> as argument.."),
            Map.entry("port", "'port' expects a port number as argument.."),
            Map.entry("proto", "'proto' : missing value."),
            Map.entry("redir", "'redir' expects <prefix> as argument.."),
            Map.entry("resolve-net", "'resolve-net' expects a list of networks.."),
            Map.entry("resolve-prefer", "'resolve-prefer' expects either ipv4 or ipv6 as argument.."),
            Map.entry("rise", "'rise' expects an integer argument.."),
            // HAProxy's message quotes the NUL character that ends the empty word, which cuts it there
            Map.entry("slowstart", "unexpected character '."),
            Map.entry("sni", "'sni' : missing sni expression."),
            Map.entry("socks4", "'socks4' expects <addr>:<port> as argument.."),
            Map.entry("source", "'source' expects <addr>[:<port>[-<port>]], and optionally 'usesrc' <addr>, and 'interface' <name> "
                    + "as argument.."),
            Map.entry("ssl-max-ver", "'ssl-max-ver' : missing the ssl/tls version."),
            Map.entry("ssl-min-ver", "'ssl-min-ver' : missing the ssl/tls version."),
            Map.entry("tcp-ut", "'tcp-ut' : missing TCP User Timeout value."),
            Map.entry("track", "'track' expects [<proxy>/]<server> as argument.."),
            Map.entry("verify", "'verify' : missing verify method."),
            Map.entry("verifyhost", "'verifyhost' : missing hostname to verify against."),
            Map.entry("ws", "'ws' has to be 'auto', 'h1' or 'h2'."));

    /** The options HAProxy refuses on a default-server line: they make sense for one server only, or not at all there. */
    private static final Set<String> NOT_IN_DEFAULTS = Set.of("id", "no-sslv3", "no-tlsv10", "no-tlsv11", "no-tlsv12", "no-tlsv13");

    /**
     * Parses the server options of {@code l} from word {@code from} into {@code s}; errors start with {@code where}
     * (none on a default-server line) and are located as HAProxy's server parser reports them ({@code [FILE:LINE] :}).
     */
    public static void parseOptions(ServerSpec s, ConfigLine l, int from, String where, KeywordTable<ServerSpec> options)
            throws ConfigException {
        parseOptions(s, l, from, where == null ? "" : where + " : ", where == null, options, k -> null);
    }

    /**
     * As {@link #parseOptions(ServerSpec, ConfigLine, int, String, KeywordTable)} for {@code add server}: no prefix, and
     * a known keyword that {@code refusal} gives a message for is refused with it.
     */
    static void parseOptions(ServerSpec s, ConfigLine l, int from, KeywordTable<ServerSpec> options,
                             Function<String, String> refusal) throws ConfigException {
        parseOptions(s, l, from, "", false, options, refusal);
    }

    private static void parseOptions(ServerSpec s, ConfigLine l, int from, String prefix, boolean defaults,
                                     KeywordTable<ServerSpec> options, Function<String, String> refusal)
            throws ConfigException {
        int i = from;
        while (i < l.size()) {
            String opt = l.arg(i);
            KeywordTable.Entry<ServerSpec> e = options.find(opt);
            if (e == null) {
                String plain = "unknown keyword '" + opt + "'";
                String m = options.unknown(opt, plain).getMessage();
                throw ConfigException.located(prefix + (m.equals(plain) ? plain + "." : m));
            }
            if (defaults && NOT_IN_DEFAULTS.contains(opt)) {
                throw ConfigException.located("'" + opt + "' option is not accepted in default-server sections");
            }
            String refused = refusal.apply(opt);
            if (refused != null) {
                throw ConfigException.located(refused);
            }
            if (e.flags() > 0 && l.arg(i + 1).isEmpty() && MISSING.containsKey(opt)) {
                throw ConfigException.located(prefix + MISSING.get(opt));
            }
            try {
                e.parser().parse(s, l.shift(i));
            } catch (ConfigException ex) {
                throw ConfigException.located(prefix + ex.getMessage());
            }
            i += 1 + e.flags();
        }
    }
}
