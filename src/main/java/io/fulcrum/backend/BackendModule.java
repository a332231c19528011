package io.fulcrum.backend;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Units;
import io.fulcrum.acl.AclParser;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.Mode;
import io.fulcrum.proxy.ModeWarnings;
import io.fulcrum.proxy.OptionContext;
import io.fulcrum.proxy.ProxyKind;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.rules.HttpActions;
import io.fulcrum.rules.TcpActions;
import io.fulcrum.sample.ExprParser;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.server.ServerList;
import io.fulcrum.server.ServerSpec;

import java.util.function.BiConsumer;

/**
 * How a backend picks a server ({@code balance}, {@code hash-type}, {@code hash-balance-factor},
 * {@code fullconn}, {@code option allbackups}, {@code dispatch}, {@code option transparent}), and what it does when connecting fails ({@code retries},
 * {@code retry-on}, {@code option redispatch}, {@code option prefer-last-server}).
 */
public final class BackendModule implements Module {

    @Override
    public void register(Registry registry) {
        BackendFetches.register(SampleCatalog.of(registry));
        PriorityActions.register(TcpActions.of(registry), HttpActions.of(registry));
        KeywordTable<ProxySpec> keywords = registry.table(ProxyModule.KEYWORDS);
        ExprParser exprs = AclParser.of(registry).exprs();
        keywords.add("balance", Capability.BE, (p, l) -> balance(spec(p), l));
        keywords.add("hash-type", Capability.BE, (p, l) -> hashType(spec(p), l));
        keywords.add("dispatch", Capability.BE, (p, l) -> {
            if (p.kind() == ProxyKind.DEFAULTS) {
                throw new ConfigException("'dispatch' not allowed in 'defaults' section.");
            }
            Args.noMoreThan(l, 1, "dispatch");
            try {
                spec(p).dispatch = ServerSpec.fixedAddress("<NOSRV>", l.arg(1)); // HAProxy logs no server name for it
            } catch (ConfigException e) {
                throw new ConfigException("'dispatch' : " + e.getMessage());
            }
        });
        // HAProxy's deprecated form of option transparent, which it takes in any section without a word.
        keywords.add("transparent", Capability.ALL, (p, l) -> {
            Args.noMoreThan(l, 0, "transparent");
            spec(p).transparent = true;
        });
        keywords.add("hash-balance-factor", Capability.BE, (p, l) -> {
            Args.noMoreThan(l, 1, "hash-balance-factor");
            int f = (int) Units.integer(Args.required(l, 1, "hash-balance-factor", "an integer argument"), "hash-balance-factor",
                    Integer.MIN_VALUE, Integer.MAX_VALUE);
            if (f != 0 && f <= 100) { // (a negative one too, as HAProxy)
                throw new ConfigException("'hash-balance-factor' must be 0 or greater than 100.");
            }
            spec(p).balanceFactor = f;
        });
        keywords.add("fullconn", Capability.BE, (p, l) -> {
            Args.noMoreThan(l, 1, "fullconn");
            spec(p).fullconn = (int) Units.integer(Args.required(l, 1, "fullconn", "an integer argument"), "fullconn", 0,
                    Integer.MAX_VALUE);
        });
        keywords.add("max-keep-alive-queue", Capability.ALL, BackendModule::maxKeepAliveQueue);
        keywords.add("retries", Capability.BE, (p, l) -> {
            Args.noMoreThan(l, 1, "retries");
            spec(p).retries = (int) Units.integer(Args.required(l, 1, "retries", "an integer argument (dispatch counts for one)"),
                    "retries", 0, 100_000);
        });
        keywords.add("retry-on", Capability.ALL, (p, l) -> {
            if (p.kind() == ProxyKind.FRONTEND) {
                throw new ConfigException("'retry-on' only available in backend or listen section");
            }
            spec(p).retryOn = RetryOn.parse(l);
        });
        KeywordTable<OptionContext> options = registry.table(ProxyModule.OPTIONS);
        flag(options, "allbackups", (b, on) -> b.allBackups = on);
        flag(options, "prefer-last-server", (b, on) -> b.preferLastServer = on);
        flag(options, "transparent", (b, on) -> b.transparent = on);
        options.add("redispatch", Capability.BE, (o, l) -> {
            Args.noMoreThan(l, 1, "option redispatch");
            int interval = l.has(1) ? (int) Units.integer(l.arg(1), "option redispatch", Integer.MIN_VALUE, Integer.MAX_VALUE) : -1;
            spec(o.proxy()).redispatch = o.enabled() ? interval : 0;
        });
        ModeWarnings.of(registry).add(ModeWarnings.Step.LAYER7_HASH, BackendModule::layer7InTcp);
        registry.check(BackendModule::dispatchInBalanceMode);
        registry.check((model, diag) -> parseHashExpressions(model, diag, exprs));
        registry.check(BackendModule::checkFastOpenRetries);
    }

    /**
     * HAProxy's warning for a {@code tfo} server in a backend whose {@code retry-on} lacks empty-response or
     * response-timeout (those HAProxy checks; its message names conn-failure too): the data sent with the SYN
     * could not be sent again.
     */
    private static void checkFastOpenRetries(ConfigModel model, Diagnostics diag) {
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            ServerList list = p.partOrNull(ServerList.class);
            if (list == null || (spec(p).retryOn & FAST_OPEN_RETRIES) == FAST_OPEN_RETRIES) {
                continue;
            }
            list.servers.stream().filter(s -> s.tfo).forEach(s -> diag.configWarning("[" + s.source + "] : 'server " + p.name() + "/"
                    + s.name + "' : server has tfo activated, the backend should be configured with at least 'conn-failure',"
                    + " 'empty-response' and 'response-timeout' or we wouldn't be able to retry the connection on failure."));
        }
    }

    private static final int FAST_OPEN_RETRIES = RetryOn.EMPTY_RESPONSE | RetryOn.RESPONSE_TIMEOUT;

    /**
     * A backend with a {@code balance} algorithm (its own or its defaults') balances among its servers: HAProxy refuses
     * {@code option transparent} there, and ignores a {@code dispatch} address. A dispatch address overrides the option.
     */
    private static void dispatchInBalanceMode(ConfigModel model, Diagnostics diag) {
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            BalanceSpec b = p.partOrNull(BalanceSpec.class);
            if (b == null || !p.kind().isBackend()) {
                continue;
            }
            if (b.algorithmSet && b.transparent) {
                diag.configAlert(p.describe() + " cannot use both transparent and balance mode.");
            } else if (b.algorithmSet && b.dispatch != null) {
                diag.configWarning("dispatch address of " + p.describe() + " will be ignored in balance mode.");
                b.dispatch = null;
            }
            b.transparent &= b.dispatch == null;
        }
    }

    /**
     * Parses the expression of each backend's final {@code balance hash} (its own or its defaults'), as HAProxy: an
     * error names the backend where it is declared, an expression a later {@code balance} replaced is never parsed.
     */
    private static void parseHashExpressions(ConfigModel model, Diagnostics diag, ExprParser exprs) {
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            BalanceSpec b = p.partOrNull(BalanceSpec.class);
            if (b == null || b.algorithm != Algorithm.HASH || !p.kind().isBackend()) {
                continue;
            }
            try {
                b.hashExpr = exprs.parse(b.hashText);
            } catch (ConfigException e) {
                diag.configAlert(p.describe() + " [" + p.source() + "]: failed to parse 'balance hash' expression '" + b.hashText
                        + "' in : " + e.getMessage() + ".");
            }
        }
    }

    private static void flag(KeywordTable<OptionContext> options, String name, BiConsumer<BalanceSpec, Boolean> set) {
        options.add(name, Capability.BE, (o, l) -> {
            Args.noMoreThan(l, 0, "option " + name);
            set.accept(spec(o.proxy()), o.enabled());
        });
    }

    /** {@code balance <algorithm> [<arguments>]}, with the wording of HAProxy's backend_parse_balance(). */
    private static void balance(BalanceSpec b, ConfigLine l) throws ConfigException {
        b.algorithmSet = true;
        if (!l.has(1)) { // HAProxy: "balance" alone is round robin
            b.algorithm = Algorithm.ROUNDROBIN;
            return;
        }
        String name = l.arg(1);
        if (!name.equals("uri") && !name.equals("url_param") && !name.startsWith("hdr(") && !name.startsWith("rdp-cookie")
                && !name.equals("hash")) {
            Args.noMoreThan(l, 1, "balance " + name);
        }
        switch (name) {
            case "roundrobin" -> b.algorithm = Algorithm.ROUNDROBIN;
            case "static-rr" -> b.algorithm = Algorithm.STATIC_RR;
            case "leastconn" -> b.algorithm = Algorithm.LEASTCONN;
            case "first" -> b.algorithm = Algorithm.FIRST;
            case "source" -> b.algorithm = Algorithm.SOURCE;
            case "uri" -> uri(b, l);
            case "url_param" -> {
                if (!l.has(2)) {
                    throw new ConfigException("balance url_param requires an URL parameter name.");
                }
                if (l.has(3) && !l.arg(3).equals("check_post")) {
                    throw new ConfigException("balance url_param only accepts 'check_post' modifier (got '" + l.arg(3) + "').");
                }
                b.algorithm = Algorithm.URL_PARAM;
                b.param = l.arg(2);
                b.checkPost = l.has(3); // a <max_wait> after it is ignored, as in HAProxy
            }
            case "hash" -> hash(b, l);
            default -> {
                if (name.startsWith("random")) {
                    random(b, name);
                } else if (name.startsWith("hdr(")) {
                    hdr(b, l, name);
                } else if (name.startsWith("rdp-cookie")) {
                    rdpCookie(b, name);
                } else {
                    throw new ConfigException("balance only supports 'roundrobin', 'static-rr', 'leastconn', 'source', 'uri', "
                            + "'url_param', 'hdr(name)' and 'rdp-cookie(name)' options.");
                }
            }
        }
    }

    /** {@code rdp-cookie[(name)]}: the cookie "mstshash" by default; words after it are ignored, as by HAProxy. */
    private static void rdpCookie(BalanceSpec b, String name) throws ConfigException {
        String cookie = "mstshash";
        if (!name.equals("rdp-cookie")) {
            int end = name.indexOf(')');
            if (name.charAt(10) != '(' || end <= 11) {
                throw new ConfigException("balance rdp-cookie : missing cookie name.");
            }
            cookie = name.substring(11, end);
        }
        b.algorithm = Algorithm.RDP_COOKIE;
        b.param = cookie;
    }

    /** {@code hash <expr>}: a sample expression, whose binary form is hashed. */
    private static void hash(BalanceSpec b, ConfigLine l) throws ConfigException {
        if (!l.has(2)) {
            throw new ConfigException("balance hash requires a sample expression.");
        }
        if (l.has(3)) {
            throw new ConfigException("balance hash takes no other argument (got '" + l.arg(3) + "').");
        }
        b.hashText = l.arg(2);
        b.algorithm = Algorithm.HASH;
    }

    private static void uri(BalanceSpec b, ConfigLine l) throws ConfigException {
        b.algorithm = Algorithm.URI;
        b.uriLength = 0;
        b.uriDepth = 0;
        b.uriWhole = false;
        b.uriPathOnly = false;
        for (int i = 2; l.has(i); i++) {
            switch (l.arg(i)) {
                case "len" -> b.uriLength = positive(l, ++i);
                case "depth" -> b.uriDepth = positive(l, ++i);
                case "whole" -> b.uriWhole = true;
                case "path-only" -> b.uriPathOnly = true;
                default -> throw new ConfigException("balance uri only accepts parameters 'len', 'depth', 'path-only', and 'whole' (got '"
                        + l.arg(i) + "').");
            }
        }
    }

    private static int positive(ConfigLine l, int i) throws ConfigException {
        String v = l.arg(i);
        if (!v.matches("\\+?[0-9]{1,9}") || Integer.parseInt(v) <= 0) {
            throw new ConfigException("balance uri : '" + l.arg(i - 1) + "' expects a positive integer (got '" + v + "').");
        }
        return Integer.parseInt(v);
    }

    private static void random(BalanceSpec b, String name) throws ConfigException {
        b.algorithm = Algorithm.RANDOM;
        b.draws = 2;
        if (name.length() > 6 && name.charAt(6) == '(' && !name.startsWith("random()")) {
            int end = 7;
            while (end < name.length() && Character.isDigit(name.charAt(end))) {
                end++;
            }
            if (end == name.length()) {
                throw new ConfigException("balance random : missing closing parenthesis.");
            }
            if (name.charAt(end) != ')') {
                throw new ConfigException("balance random : unexpected character '" + name.charAt(end) + "' after argument.");
            }
            b.draws = end == 7 ? 0 : (int) Math.min(Integer.MAX_VALUE, Long.parseLong(name.substring(7, Math.min(end, 17))));
            if (b.draws < 1) {
                throw new ConfigException("balance random : number of draws must be at least 1.");
            }
        }
    }

    private static void hdr(BalanceSpec b, ConfigLine l, String name) throws ConfigException {
        int end = name.indexOf(')');
        if (end <= 4) {
            throw new ConfigException("balance hdr requires an http header field name.");
        }
        if (l.has(3) || l.has(2) && !l.arg(2).equals("use_domain_only")) {
            throw new ConfigException("balance " + name + " only accepts 'use_domain_only' modifier (got '" + l.arg(2) + "').");
        }
        b.algorithm = Algorithm.HDR;
        b.param = name.substring(4, end);
        b.domainOnly = l.has(2);
    }

    /** {@code hash-type <method> [<function> [<modifier>]]}, as HAProxy parses it. */
    private static void hashType(BalanceSpec b, ConfigLine l) throws ConfigException {
        switch (l.arg(1)) {
            case "consistent" -> b.consistent = true;
            case "map-based" -> b.consistent = false;
            case "avalanche" -> throw new ConfigException("experimental feature 'hash-type avalanche' is not supported anymore, "
                    + "please use 'hash-type map-based sdbm avalanche' instead.");
            default -> throw new ConfigException("'hash-type' only supports 'consistent' and 'map-based'.");
        }
        if (!l.has(2)) {
            b.function = BalanceSpec.HashFunction.SDBM;
            b.avalanche = b.consistent; // consistent without a function is sdbm with avalanche
            return;
        }
        b.function = switch (l.arg(2)) {
            case "sdbm" -> BalanceSpec.HashFunction.SDBM;
            case "djb2" -> BalanceSpec.HashFunction.DJB2;
            case "wt6" -> BalanceSpec.HashFunction.WT6;
            case "crc32" -> BalanceSpec.HashFunction.CRC32;
            default -> throw new ConfigException("'hash-type' only supports 'sdbm', 'djb2', 'crc32', or 'wt6' hash functions.");
        };
        if (l.has(3) && !l.arg(3).equals("avalanche")) {
            throw new ConfigException("'hash-type' only supports 'avalanche' as a modifier for hash functions.");
        }
        b.avalanche = l.has(3);
    }

    /**
     * HAProxy's warning for an HTTP-keyed algorithm in a TCP backend, which then uses roundrobin (dynamic, whatever
     * its hash-type).
     */
    private static void layer7InTcp(ProxySpec p, ConfigModel model, Diagnostics diag) {
        BalanceSpec b = p.partOrNull(BalanceSpec.class);
        if (b != null && p.kind().isBackend() && !p.disabled && p.mode == Mode.TCP && b.algorithm.layer7()) {
            diag.configWarning("Layer 7 hash not possible for " + p.describe() + " (needs 'mode http'). Falling back to round robin.");
            b.algorithm = Algorithm.ROUNDROBIN;
        }
    }

    static BalanceSpec spec(ProxySpec p) {
        return p.part(BalanceSpec.class, BalanceSpec::new);
    }

    /**
     * {@code max-keep-alive-queue <value>}, read as C's strtol in base 0 ("0x10" is 16); words after it are ignored,
     * as by HAProxy. -1 is no limit; a lower value is as 0 (HAProxy's comparison can never be true then).
     */
    private static void maxKeepAliveQueue(ProxySpec p, ConfigLine l) throws ConfigException {
        String v = l.arg(1);
        if (v.isEmpty()) {
            throw new ConfigException("'max-keep-alive-queue' expects expects an integer value (or -1 to disable)");
        }
        long n = Args.strtol(v, "'max-keep-alive-queue'");
        if (p.kind() == ProxyKind.FRONTEND) {
            throw ConfigException.warning("max-keep-alive-queue will be ignored because " + p.describe() + " has no backend capability");
        }
        spec(p).maxKeepAliveQueue = n == -1 ? -1 : (int) Math.max(0, Math.min(n, Integer.MAX_VALUE));
    }
}
