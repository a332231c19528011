package io.fulcrum.listener;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Units;
import io.fulcrum.cfg.Registry.TableKey;
import io.fulcrum.conn.AddressParser;
import io.fulcrum.conn.NetNamespace;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.ProxyKind;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.runtime.CpuMap;
import io.fulcrum.runtime.GlobalModule;
import io.fulcrum.sample.SampleCatalog;

/** The {@code bind} keyword and its options (configuration.txt section 5.1). */
public final class ListenerModule implements Module {

    /**
     * Bind options: each parser gets the line shifted so that the option name is word 0. An entry's
     * flags are the number of value words the option takes.
     */
    public static final TableKey<BindSpec> OPTIONS = new TableKey<>("bind");

    @Override
    public void register(Registry registry) {
        ListenerFetches.register(SampleCatalog.of(registry));
        KeywordTable<BindSpec> options = registry.table(OPTIONS);
        registry.table(ProxyModule.KEYWORDS).add("bind", Capability.FRONTEND | Capability.PARSED_WHEN_IGNORED,
                (p, l) -> bind(p, l, options));

        options.add("name", 1, (b, l) -> b.name = value(l));
        options.add("id", 1, ListenerModule::id);
        options.add("maxconn", 1, (b, l) -> b.maxconn = (int) Units.integer(value(l), "maxconn", 0, Integer.MAX_VALUE));
        options.add("backlog", 1, (b, l) -> b.backlog = (int) Units.integer(value(l), "backlog", 1, Integer.MAX_VALUE));
        options.add("shards", 1, ListenerModule::shards);
        options.add("defer-accept", (b, l) -> b.deferAccept = true);
        options.add("tfo", (b, l) -> b.tfo = true);
        options.add("mss", 1, ListenerModule::mss);
        options.add("tcp-ut", 1, (b, l) -> b.tcpUserTimeout = tcpUserTimeout(l.arg(1)));
        options.add("transparent", (b, l) -> b.transparent = true);
        options.add("namespace", 1, (b, l) -> {
            b.namespace = NetNamespace.open(value(l));
            if (b.namespace == null) { // HAProxy's two messages: the namespace's, then the line's
                l.diag().configAlert("Cannot open namespace '" + value(l) + "'.");
                throw new BindOptionException("error encountered while processing 'namespace'.");
            }
        });
        options.add("nice", 1, ListenerModule::nice);
        options.add("proto", 1, ListenerModule::proto);
        options.add("process", 1, ListenerModule::process);
        options.add("thread", 1, ListenerModule::thread);
        options.add("v4v6", (b, l) -> b.v4v6 = true);
        options.add("v6only", (b, l) -> b.v6only = true);
        options.add("interface", 1, (b, l) -> b.iface = value(l));
        options.add("accept-proxy", (b, l) -> b.acceptProxy = true);
        options.add("accept-netscaler-cip", 1, (b, l) -> {
            // As HAProxy: C's atol kept as an unsigned 32-bit number, which must not be 0.
            b.netscalerCipMagic = (int) Args.atol(value(l));
            if (b.netscalerCipMagic == 0) {
                throw new ConfigException("'accept-netscaler-cip' : invalid value 0, must be >= 0");
            }
        });
        options.add("mode", 1, (b, l) -> b.unixMode = octal(value(l)));
        options.add("uid", 1, (b, l) -> b.uid = (int) Units.integer(value(l), "uid", 0, Integer.MAX_VALUE));
        options.add("gid", 1, (b, l) -> b.gid = (int) Units.integer(value(l), "gid", 0, Integer.MAX_VALUE));
        options.add("user", 1, (b, l) -> b.uid = Accounts.uid(value(l)));
        options.add("group", 1, (b, l) -> b.gid = Accounts.gid(value(l)));

        registry.table(ProxyModule.KEYWORDS).add("backlog", Capability.FE, (p, l) -> {
            Args.noMoreThan(l, 1, "backlog");
            // As HAProxy's atol: "x" is 0 (the default), and so is a negative value here.
            p.part(ProxyBacklog.class, ProxyBacklog::new).value = (int) Math.max(0, Args.atol(Args.required(l, 1, "backlog", "an integer argument")));
        });
        registry.check(ListenerModule::proxyBacklogs);
        registry.table(ProxyModule.KEYWORDS).add("bind-process", Capability.ALL, (p, l) -> {
            if (l.has(1)) {
                ProcessSet.check(l.arg(1), "bind-process");
            }
            throw ConfigException.unspacedWarning("'bind-process' has no effect, is deprecated, and will be removed in version 2.7.");
        });
        registry.table(GlobalModule.KEYWORDS).add("unix-bind", (g, l) -> UnixBind.of(g.model()).parse(l));
        registry.table(GlobalModule.KEYWORDS).add("tune.maxaccept", ListenerModule::maxaccept);
        registry.check((model, diag) -> ProxyTable.of(model).proxies().stream().map(p -> p.partOrNull(BindList.class))
                .filter(java.util.Objects::nonNull).forEach(binds -> binds.binds.forEach(b -> {
                    UnixBind.of(model).apply(b);
                    int maxaccept = GlobalModule.settings(model).maxaccept;
                    b.maxaccept = maxaccept != 0 ? maxaccept : DEFAULT_MAXACCEPT;
                })));
        registry.check(ListenerModule::checkFrontendsHaveBinds);
        registry.check(ListenerModule::checkProtos);
        registry.check(ListenerModule::checkThreads);
        registry.check((model, diag) -> ProxyTable.of(model).proxies().stream().map(p -> p.partOrNull(BindList.class))
                .filter(java.util.Objects::nonNull).forEach(BindList::number));
    }

    /** HAProxy's MAX_ACCEPT: what a proxy's listener accepts per wake-up without {@code tune.maxaccept}. */
    private static final int DEFAULT_MAXACCEPT = 4;

    /** {@code tune.maxaccept <number>}: -1 (any negative number) for no limit; read as C's atol. */
    private static void maxaccept(GlobalModule.GlobalContext g, ConfigLine l) throws ConfigException {
        if (!GlobalModule.once(l, g.settings().maxaccept)) {
            return;
        }
        long max = Args.atol(l.arg(1));
        if (max > Integer.MAX_VALUE) {
            throw new ConfigException("'" + l.keyword() + "' expects -1 or an integer from 0 to INT_MAX.");
        }
        g.settings().maxaccept = (int) max;
    }

    /** A proxy's {@code backlog} is that of its bind lines without one of their own. */
    private static void proxyBacklogs(ConfigModel model, Diagnostics diag) {
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            ProxyBacklog backlog = p.partOrNull(ProxyBacklog.class);
            BindList binds = p.partOrNull(BindList.class);
            if (backlog != null && binds != null) {
                binds.binds.stream().filter(b -> b.backlog == 0).forEach(b -> b.backlog = backlog.value);
            }
        }
    }

    private static void bind(ProxySpec p, ConfigLine l, KeywordTable<BindSpec> options) throws ConfigException {
        if (p.kind() == ProxyKind.DEFAULTS) {
            throw new ConfigException("'bind' not allowed in 'defaults' section.");
        }
        if (!l.has(1)) {
            throw new ConfigException("'bind' expects {<path>|[addr1]:port1[-end1]}{,[addr]:port[-end]}... as arguments.");
        }
        BindSpec bind;
        try {
            bind = new BindSpec(l.source(), l.arg(1), AddressParser.listeners(l.arg(1)));
        } catch (ConfigException e) {
            throw new ConfigException("'bind' : " + e.getMessage());
        }
        String where = "'bind " + l.arg(1) + "' in section '" + p.kind().keyword() + "'";
        options(bind, l, 2, options, new OptionErrors() {
            @Override
            public String unknown(String opt, String suggestion) {
                // HAProxy: "...: unknown keyword 'X'." or "...: unknown keyword 'X'; did you mean 'Y' maybe ?"
                if (suggestion == null) {
                    return where + ": unknown keyword '" + opt + "'.";
                }
                return suggestion.startsWith("unknown") ? where + ": " + suggestion : where + " : " + suggestion;
            }

            @Override
            public String invalid(String message) {
                return where + " : " + message;
            }
        });
        BindList list = p.part(BindList.class, BindList::new);
        if (bind.id > 0) {
            if (bind.endpoints().size() > 1) {
                throw new ConfigException(where + " : 'id' can only be used with a single socket");
            }
            for (BindSpec other : list.binds) {
                if (other.id == bind.id) {
                    throw new ConfigException(where + " : 'id' : custom id " + bind.id + " already used at " + other.source()
                            + " ('bind " + other.text() + "')");
                }
            }
        }
        list.binds.add(bind);
    }

    /** {@code id <n>}: the numeric id of the line's socket ({@code so_id}, the stats' {@code sid}). */
    private static void id(BindSpec b, ConfigLine l) throws ConfigException {
        String v = value(l);
        long id;
        try {
            id = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new ConfigException("'id' : expects an integer argument, found '" + v + "'");
        }
        if (id <= 0 || id > Integer.MAX_VALUE) {
            throw new ConfigException("'id' : custom id has to be > 0");
        }
        b.id = (int) id;
    }

    /**
     * {@code shards <number>|by-thread}: HAProxy reads the number as C's atol does (a word without leading digits
     * is 0) and allows 1 to 64.
     */
    private static void shards(BindSpec b, ConfigLine l) throws ConfigException {
        String v = value(l);
        if (v.equals("by-thread")) {
            b.shards = BindSpec.BY_THREAD;
            return;
        }
        int digits = 0;
        while (digits < v.length() && digits < 10 && Character.isDigit(v.charAt(digits))) {
            digits++;
        }
        long n = digits == 0 ? 0 : Long.parseLong(v, 0, digits, 10);
        if (n < 1 || n > 64) {
            throw new ConfigException("'shards' : invalid value " + n + ", allowed range is 1..64 or 'by-thread'");
        }
        b.shards = (int) n;
    }

    /** {@code mss <maxseg>}: as HAProxy's strtol, an absolute value from 1 to 65535 (negative: a reduction). */
    private static void mss(BindSpec b, ConfigLine l) throws ConfigException {
        long mss = Args.atol(value(l));
        if (mss == 0 || Math.abs(mss) > 65535) {
            throw new ConfigException("'mss' : expects an MSS with and absolute value between 1 and 65535");
        }
        b.mss = (int) mss;
    }

    /**
     * {@code process <process-set>[/<thread-set>]}: deprecated in 2.6, where only process 1 exists; a warning says
     * so, as HAProxy's. The thread set is the {@code thread} option's.
     */
    private static void process(BindSpec b, ConfigLine l) throws ConfigException {
        String v = value(l);
        int slash = v.indexOf('/');
        ProcessSet.check(slash < 0 ? v : v.substring(0, slash), "'process'");
        if (slash < 0) {
            b.warn(l, "'process " + v + "' on 'bind' lines is deprecated and will be removed in 2.7.");
            return;
        }
        String threads = v.substring(slash + 1);
        b.threads |= threadSet(threads);
        b.warn(l, "'process " + v + "' on 'bind' lines is deprecated and will be removed in 2.7. Please use 'thread " + threads
                + "' instead.");
    }

    /**
     * {@code thread [<group>/]<set>}: the threads (event loops) that accept and serve the line's connections;
     * repeated, the sets add up. One thread group here, as HAProxy 2.6 without {@code thread-groups}.
     */
    private static void thread(BindSpec b, ConfigLine l) throws ConfigException {
        String v = value(l);
        int slash = v.indexOf('/');
        if (slash >= 0) {
            long group = Args.atol(v.substring(0, slash));
            if (group != 1) {
                throw new BindOptionException("'" + v + "' thread-group number must be between 1 and 1 (was " + group + ")");
            }
        }
        b.threads |= threadSet(v.substring(slash + 1));
    }

    /** A thread set ({@code all | odd | even | number[-[number]]}) as a mask, worded as HAProxy's errors. */
    private static long threadSet(String set) throws ConfigException {
        try {
            return CpuMap.ids(set, "'" + set + "' : ");
        } catch (ConfigException e) {
            throw new BindOptionException(e.getMessage());
        }
    }

    /** {@code tcp-ut <delay>} of a bind or server line: milliseconds by default; 0 leaves the system's. */
    public static int tcpUserTimeout(String text) throws ConfigException {
        try {
            return (int) Units.time(text, "tcp-ut");
        } catch (ConfigException e) {
            if (e.getMessage().startsWith("timer overflow")) {
                throw new BindOptionException(e.getMessage()); // HAProxy's words, without the option's name
            }
            throw new ConfigException("'tcp-ut' : expects a positive delay in milliseconds");
        }
    }

    /**
     * {@code nice <n>}: HAProxy's scheduling priority of the line's connections. Checked as HAProxy (C's atol, -1024
     * to 1024); Fulcrum's loops run their tasks in order, with no priorities, so the value has no effect: a warning
     * says so.
     */
    private static void nice(BindSpec b, ConfigLine l) throws ConfigException {
        int nice = (int) Args.atol(value(l)); // an int in HAProxy: 99999999999 is 1215752191
        if (nice < -1024 || nice > 1024) {
            throw new ConfigException("'nice' : invalid value " + nice + ", allowed range is -1024..1024");
        }
        if (nice != 0) {
            b.warn(l, "'nice' has no effect: Fulcrum's event loops have no task priorities.");
        }
    }

    /**
     * {@code proto <name>}: the multiplexer of the line's connections. Only {@code h1} exists here, what HTTP
     * frontends use anyway; {@code h2} waits for HTTP/2; {@code none} is a TCP mux, which HAProxy refuses on HTTP
     * and TCP frontends alike once the mode is known (checked with the proxy, see {@link BindSpec#proto}).
     */
    private static void proto(BindSpec b, ConfigLine l) throws ConfigException {
        switch (value(l)) {
            case "h1", "none" -> b.proto = value(l);
            case "h2" -> throw new ConfigException("'proto' : 'h2' is not supported: Fulcrum has no HTTP/2 yet");
            default -> throw new ConfigException("'proto' :  unknown MUX protocol '" + value(l) + "'");
        }
    }

    /** How a caller words the errors of {@link #options}: a bind line and a stats socket differ. */
    public interface OptionErrors {
        /**
         * @param suggestion "unknown keyword 'X'; did you mean 'Y' maybe ?", or "'X' is an HAProxy keyword that
         *                   Fulcrum does not support yet.", or null when nothing comes close
         */
        String unknown(String opt, String suggestion);

        /** @param message "'opt' : what is wrong", or the option's own complete message */
        String invalid(String message);
    }

    /** Parses the bind options of {@code l} from word {@code from} into {@code bind}. */
    public static void options(BindSpec bind, ConfigLine l, int from, KeywordTable<BindSpec> options, OptionErrors errors)
            throws ConfigException {
        int i = from;
        while (i < l.size()) {
            String opt = l.arg(i);
            KeywordTable.Entry<BindSpec> e = options.find(opt);
            if (e == null) {
                String plain = "unknown keyword '" + opt + "'";
                String m = options.unknown(opt, plain).getMessage();
                throw new ConfigException(errors.unknown(opt, m.equals(plain) ? null : m));
            }
            if (e.flags() > 0 && !l.has(i + 1)) {
                throw new ConfigException(errors.invalid("'" + opt + "' : " + MISSING.getOrDefault(opt, "missing value")));
            }
            bind.wording = errors;
            try {
                e.parser().parse(bind, l.shift(i));
            } catch (BindOptionException ex) {
                throw new ConfigException(errors.invalid(ex.getMessage()));
            } catch (ConfigException ex) {
                String m = ex.getMessage();
                throw new ConfigException(errors.invalid(m.startsWith("'" + opt + "'") ? m : "'" + opt + "' : " + m));
            }
            i += 1 + e.flags();
        }
    }

    /** HAProxy's words for some options' missing value, "missing value" for the others. */
    private static final java.util.Map<String, String> MISSING = java.util.Map.ofEntries(
            java.util.Map.entry("alpn", "missing the comma-delimited ALPN protocol suite"),
            java.util.Map.entry("ca-file", "missing CAfile path"),
            java.util.Map.entry("ca-ignore-err", "missing error IDs list"),
            java.util.Map.entry("ca-sign-file", "missing CAfile path"),
            java.util.Map.entry("ca-sign-pass", "missing CAkey password"),
            java.util.Map.entry("ca-verify-file", "missing CAfile path"),
            java.util.Map.entry("ciphers", "missing cipher suite"),
            java.util.Map.entry("ciphersuites", "missing cipher suite"),
            java.util.Map.entry("crl-file", "missing CRLfile path"),
            java.util.Map.entry("crt", "missing certificate location"),
            java.util.Map.entry("crt-ignore-err", "missing error IDs list"),
            java.util.Map.entry("crt-list", "missing certificate location"),
            java.util.Map.entry("curves", "missing curve suite"),
            java.util.Map.entry("ecdhe", "missing named curve"),
            java.util.Map.entry("expose-fd", "missing fd type"),
            java.util.Map.entry("group", "missing group name"),
            java.util.Map.entry("id", "expects an integer argument"),
            java.util.Map.entry("interface", "missing interface name"),
            java.util.Map.entry("level", "missing level"),
            java.util.Map.entry("mode", "missing or invalid mode '' (octal integer expected)"),
            java.util.Map.entry("mss", "missing MSS value"),
            java.util.Map.entry("name", "missing name"),
            java.util.Map.entry("namespace", "missing namespace id"),
            java.util.Map.entry("npn", "missing the comma-delimited NPN protocol suite"),
            java.util.Map.entry("severity-output", "missing severity format"),
            java.util.Map.entry("ssl-max-ver", "missing the ssl/tls version"),
            java.util.Map.entry("ssl-min-ver", "missing the ssl/tls version"),
            java.util.Map.entry("tcp-ut", "missing TCP User Timeout value"),
            java.util.Map.entry("tls-ticket-keys", "missing TLS ticket keys file path"),
            java.util.Map.entry("user", "missing user name"),
            java.util.Map.entry("verify", "missing verify method"));

    private static String value(ConfigLine l) {
        return l.arg(1);
    }

    private static int octal(String s) throws ConfigException {
        try {
            return Integer.parseInt(s, 8);
        } catch (NumberFormatException e) {
            throw new ConfigException("missing or invalid mode '" + s + "' (octal integer expected)");
        }
    }

    /** As HAProxy once the modes are known: a bind line's {@code proto} must be the mux of its frontend's mode. */
    private static void checkProtos(ConfigModel model, Diagnostics diag) {
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            BindList binds = p.partOrNull(BindList.class);
            if (binds == null) {
                continue;
            }
            String usable = p.mode.mux();
            binds.binds.stream().filter(b -> b.proto != null && !b.proto.equals(usable)).forEach(b -> diag.configAlert(
                    p.describe() + " : MUX protocol '" + b.proto + "' is not usable for 'bind " + b.text() + "' at [" + b.source() + "]."));
        }
    }

    /** As HAProxy: a bind line's {@code thread} set must name one thread at least of the {@code nbthread}. */
    private static void checkThreads(ConfigModel model, Diagnostics diag) {
        int nbthread = GlobalModule.settings(model).effectiveNbthread();
        long existing = nbthread >= 64 ? ~0L : (1L << nbthread) - 1;
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            BindList binds = p.partOrNull(BindList.class);
            if (binds == null) {
                continue;
            }
            for (BindSpec b : binds.binds) {
                if (b.threads != 0 && (b.threads & existing) == 0) {
                    diag.configAlert("Proxy '" + p.name() + "': 'thread' directive contains threads that belong to no group in 'bind "
                            + b.text() + "' at [" + b.source() + "].");
                }
                b.threads &= existing;
            }
        }
    }

    private static void checkFrontendsHaveBinds(ConfigModel model, Diagnostics diag) {
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            BindList binds = p.partOrNull(BindList.class);
            if (p.kind().isFrontend() && !p.disabled && (binds == null || binds.binds.isEmpty())) {
                diag.configWarning(p.describe() + " has no 'bind' directive. Please declare it as a backend if this was intended.");
            }
        }
    }
}
