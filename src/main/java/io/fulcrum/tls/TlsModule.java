package io.fulcrum.tls;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.HaproxyKeywords;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.listener.BindOptionException;
import io.fulcrum.listener.BindSpec;
import io.fulcrum.listener.ListenerModule;
import io.fulcrum.runtime.GlobalModule;
import io.fulcrum.runtime.GlobalModule.GlobalContext;
import io.fulcrum.runtime.Services;
import io.fulcrum.sample.ArgResolution;
import io.fulcrum.sample.ExprParser;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.server.ServerModule;
import io.fulcrum.server.ServerSpec;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * TLS: the {@code ssl} options of bind lines (configuration.txt 5.1), the {@code ssl-default-*} and base directory
 * globals (3.1), the {@code ssl_fc*} fetches; the certificates are loaded and the contexts built once the whole
 * configuration is read ({@link FrontendSetup}).
 */
public final class TlsModule implements Module {

    /** {@code -dV}: the servers verify nothing unless their line, or a later {@code ssl-server-verify}, says so. */
    public static void noServerVerify(ConfigModel model) {
        TlsGlobals.of(model).serverVerify = "none";
    }

    @Override
    public void register(Registry registry) {
        TlsFetches.register(SampleCatalog.of(registry));
        CertFetches.register(SampleCatalog.of(registry));
        KeyLogFetches.register(SampleCatalog.of(registry));
        HelloFetches.register(SampleCatalog.of(registry));
        CaptureFetches.register(SampleCatalog.of(registry));
        KeywordTable<BindSpec> bind = registry.table(ListenerModule.OPTIONS);
        bind.add("ssl", (b, l) -> tls(b).ssl = true);
        bind.add("crt", 1, (b, l) -> tls(b).crts.add(new BindTls.CertSource(false, l.arg(1))));
        bind.add("crt-list", 1, (b, l) -> tls(b).crts.add(new BindTls.CertSource(true, l.arg(1))));
        bind.add("strict-sni", (b, l) -> tls(b).strictSni = true);
        bind.add("ca-ignore-err", 1, (b, l) -> tls(b).caIgnoreErr = errorIds(l.arg(1)));
        TicketKeyFiles tickets = TicketKeyFiles.of(registry);
        bind.add("tls-ticket-keys", 1, (b, l) -> tls(b).ticketKeys = tickets.load(l.arg(1), l.source().path(l.arg(1))));
        bind.add("crt-ignore-err", 1, (b, l) -> tls(b).crtIgnoreErr = errorIds(l.arg(1)));
        CertStore store = CertStore.of(registry);
        certificateOptions(bind, TlsModule::tls, store);
        versionSwitches(bind, TlsModule::tls);
        bind.add("prefer-client-ciphers", (b, l) -> tls(b).preferClientCiphers = true);
        bind.add("generate-certificates", (b, l) -> tls(b).generateCertificates = true);
        bind.add("ca-sign-file", 1, (b, l) -> tls(b).caSignFile = l.arg(1));
        bind.add("ca-sign-pass", 1, (b, l) -> tls(b).caSignPass = l.arg(1));
        // What a crt-list line may set between brackets.
        KeywordTable<BindOptions> crtListLine = new KeywordTable<>("crt-list", "");
        certificateOptions(crtListLine, o -> o, store);

        KeywordTable<ServerSpec> server = registry.table(ServerModule.OPTIONS);
        ExprParser exprs = new ExprParser(SampleCatalog.of(registry), ArgResolution.of(registry).sink(false));
        server.add("ssl", (s, l) -> tls(s).ssl = true);
        server.add("no-ssl", (s, l) -> tls(s).ssl = false);
        server.add("verify", 1, (s, l) -> {
            if (!l.arg(1).equals("none") && !l.arg(1).equals("required")) {
                throw new ConfigException("'verify' : unknown verify method '" + l.arg(1) + "', only 'none' and 'required' are supported.");
            }
            tls(s).verify = l.arg(1);
        });
        server.add("ca-file", 1, (s, l) -> authorityFiles(s, store).caFile = store.authorities.named(l));
        server.add("crl-file", 1, (s, l) -> authorityFiles(s, store).crlFile = store.revocations.named(l));
        server.add("crt", 1, (s, l) -> authorityFiles(s, store).crt = l.arg(1)); // the store lists it for the CLI
        server.add("sni", 1, (s, l) -> {
            try {
                tls(s).sni = exprs.parse(l.arg(1));
            } catch (ConfigException e) {
                throw new ConfigException("error detected while parsing sni expression : " + e.getMessage());
            }
            tls(s).sniText = l.arg(1);
        });
        server.add("verifyhost", 1, (s, l) -> tls(s).verifyHost = l.arg(1));
        server.add("no-verifyhost", (s, l) -> tls(s).verifyHost = null);
        server.add("no-ssl-reuse", (s, l) -> tls(s).noReuse = true);
        server.add("ssl-reuse", (s, l) -> tls(s).noReuse = false);
        server.add("allow-0rtt", (s, l) -> tls(s).allow0rtt = true); // accepted: no early data is ever sent
        cipherOptions(server, TlsModule::tls);
        versionRange(server, TlsModule::tls, "."); // HAProxy's server lines end its message with a period, its bind lines do not
        versionSwitches(server, TlsModule::tls);
        // The reset of a default-server's no-tls-tickets (a global ssl-default-server-options one still applies).
        server.add("tls-tickets", (s, l) -> tls(s).noTickets = false);

        KeywordTable<GlobalContext> global = registry.table(GlobalModule.KEYWORDS);
        base(global, "crt-base", t -> t.crtBase, (t, dir) -> t.crtBase = dir);
        base(global, "ca-base", t -> t.caBase, (t, dir) -> t.caBase = dir);
        defaults(global, "ssl-default-bind-", t -> t.bindDefaults);
        defaults(global, "ssl-default-server-", t -> t.serverDefaults);
        global.add("ssl-server-verify", (g, l) -> {
            Args.noMoreThan(l, 1, l.keyword());
            String v = Args.required(l, 1, "ssl-server-verify", "an integer argument"); // (sic, HAProxy's words)
            if (!v.equals("none") && !v.equals("required")) {
                throw new ConfigException("'ssl-server-verify' expects 'none' or 'required' as argument.");
            }
            TlsGlobals.of(g.model()).serverVerify = v;
        });
        global.add("issuers-chain-path", (g, l) -> {
            Args.noMoreThan(l, 1, l.keyword());
            if (!l.has(1) || !java.nio.file.Files.isDirectory(java.nio.file.Path.of(l.arg(1)))) {
                throw new ConfigException("global statement '" + l.keyword() + "' expects a directory path as an argument.");
            }
            TlsGlobals t = TlsGlobals.of(g.model());
            PemFiles.issuerChains(java.nio.file.Path.of(l.arg(1)), t.issuerChains, t.issuerWarnings);
        });
        global.add("ssl-load-extra-files", (g, l) -> TlsGlobals.of(g.model()).extraFiles = extraFiles(l));
        // (HAProxy takes no argument and checks none)
        global.add("ssl-load-extra-del-ext", (g, l) -> TlsGlobals.of(g.model()).delExt = true);
        global.add("maxsslconn", (g, l) -> {
            Args.noMoreThan(l, 1, l.keyword());
            long max = Args.atol(Args.required(l, 1, l.keyword(), "an integer argument"));
            if (max < 0) {
                throw new ConfigException("'maxsslconn' expects a positive numeric value.");
            }
            TlsGlobals.of(g.model()).connections.max = (int) max;
        });
        registry.check((model, diag) -> Services.of(model).add(TlsGlobals.of(model).connections));
        TlsTuning.register(global);
        HttpClientTls.register(registry, global);
        global.add("tune.ssl.keylog", (g, l) -> {
            String v = single(l);
            if (!v.equals("on") && !v.equals("off")) {
                throw new ConfigException("'tune.ssl.keylog' : expects 'on' or 'off' but got '" + v + "'.");
            }
            TlsGlobals.of(g.model()).keylog = v.equals("on");
        });
        registry.check((model, diag) -> FrontendSetup.check(model, diag, crtListLine, store));
        CertCommands.register(CliCommands.of(registry), store, crtListLine);
        AuthorityCommands.register(CliCommands.of(registry), store);
        OcspCommands.register(CliCommands.of(registry), store);
        TicketCommands.register(CliCommands.of(registry), tickets);
        registry.check(ServerSetup::check);
    }

    private static BindTls tls(BindSpec b) {
        return b.part(BindTls.class, BindTls::new);
    }

    private static ServerTls tls(ServerSpec s) {
        return s.part(ServerTls.class, ServerTls::new);
    }

    /** The TLS part of a line naming a file the store keeps: a CA or CRL file, a client certificate. */
    private static ServerTls authorityFiles(ServerSpec s, CertStore store) {
        ServerTls tls = tls(s);
        tls.store = store;
        return tls;
    }

    /** How an option table reaches the {@link TlsOptions} of what it configures. */
    interface ContextOwner<C> {
        TlsOptions options(C target);
    }

    /** What a bind line and a crt-list line set for their certificates. */
    private static <C> void certificateOptions(KeywordTable<C> table, ContextOwner<C> owner, CertStore store) {
        cipherOptions(table, owner);
        versionRange(table, owner, "");
        table.add("curves", 1, (c, l) -> owner.options(c).curves = l.arg(1)); // (not a server option in HAProxy 2.6)
        table.add("ecdhe", 1, (c, l) -> owner.options(c).ecdhe = l.arg(1));
        table.add("allow-0rtt", (c, l) -> owner.options(c).allow0rtt = true);
        table.add("verify", 1, (c, l) -> {
            if (!List.of("none", "optional", "required").contains(l.arg(1))) {
                throw new ConfigException("unknown verify method '" + l.arg(1) + "', only 'none', 'optional', and 'required' are supported");
            }
            bindOptions(owner, c).verify = l.arg(1);
        });
        table.add("ca-file", 1, (c, l) -> bindOptions(owner, c).caFile = store.authorities.named(l));
        table.add("crl-file", 1, (c, l) -> bindOptions(owner, c).crlFile = store.revocations.named(l));
        table.add("ca-verify-file", 1, (c, l) -> bindOptions(owner, c).caVerifyFile = store.authorities.named(l));
        table.add("no-ca-names", (c, l) -> bindOptions(owner, c).noCaNames = true);
    }

    private static <C> BindOptions bindOptions(ContextOwner<C> owner, C target) {
        return (BindOptions) owner.options(target);
    }

    /** The cipher and protocol choices bind lines, crt-list lines and servers share. */
    private static <C> void cipherOptions(KeywordTable<C> table, ContextOwner<C> owner) {
        table.add("alpn", 1, (c, l) -> owner.options(c).alpn = alpn(l.arg(1)));
        table.add("npn", 1, (c, l) -> {
            // (NPN, which ALPN replaced, is not wired to the contexts: refused rather than silently not offered)
            throw new BindOptionException("'npn' : Fulcrum does not offer NPN (replaced by ALPN); use 'alpn' instead");
        });
        table.add("ciphers", 1, (c, l) -> owner.options(c).ciphers = l.arg(1));
        table.add("ciphersuites", 1, (c, l) -> owner.options(c).ciphersuites = l.arg(1));
    }

    private static <C> void versionRange(KeywordTable<C> table, ContextOwner<C> owner, String end) {
        table.add("ssl-min-ver", 1, (c, l) -> owner.options(c).minVersion = version(l, end));
        table.add("ssl-max-ver", 1, (c, l) -> owner.options(c).maxVersion = version(l, end));
    }

    private static TlsVersion version(ConfigLine l, String end) throws BindOptionException {
        try {
            return TlsVersion.parse(l.arg(1));
        } catch (BindOptionException e) {
            throw new BindOptionException(e.getMessage() + end);
        }
    }

    /** Tickets and single versions on or off: bind lines, servers and the ssl-default-*-options globals. */
    private static <C> void versionSwitches(KeywordTable<C> table, ContextOwner<C> owner) {
        table.add("no-tls-tickets", (c, l) -> owner.options(c).noTickets = true);
        String[] names = {"sslv3", "tlsv10", "tlsv11", "tlsv12", "tlsv13"};
        for (TlsVersion v : TlsVersion.values()) {
            String n = names[v.ordinal()];
            table.add("no-" + n, (c, l) -> owner.options(c).disabled.add(v));
            table.add("force-" + n, (c, l) -> {
                TlsOptions o = owner.options(c);
                o.minVersion = v;
                o.maxVersion = v;
            });
        }
    }

    /** {@code ssl-load-extra-files}: none, all, or some of bundle, sctl, ocsp, issuer, key; HAProxy's messages. */
    private static Set<TlsGlobals.ExtraFile> extraFiles(ConfigLine l) throws ConfigException {
        if (!l.has(1)) {
            throw new ConfigException("'" + l.keyword() + "' expects one or multiple arguments (none, all, bundle, sctl, ocsp, issuer).");
        }
        Set<TlsGlobals.ExtraFile> files = EnumSet.noneOf(TlsGlobals.ExtraFile.class);
        for (int i = 1; l.has(i); i++) {
            String a = l.arg(i);
            if (a.equals("none") || a.equals("all")) {
                if (i > 1 || l.has(2)) {
                    throw new ConfigException("'" + l.keyword() + "' 'none' and 'all' can be only used alone");
                }
                return a.equals("all") ? EnumSet.allOf(TlsGlobals.ExtraFile.class) : files;
            }
            TlsGlobals.ExtraFile f = Arrays.stream(TlsGlobals.ExtraFile.values())
                    .filter(v -> v.name().toLowerCase(java.util.Locale.ROOT).equals(a)).findFirst().orElse(null);
            if (f == null) {
                throw new ConfigException("'" + l.keyword() + "' expects one or multiple arguments (none, all, bundle, sctl, ocsp, issuer).");
            }
            files.add(f);
        }
        return files;
    }

    /** {@code all} (an empty set) or a comma-separated list of OpenSSL's X509_V_ERR numbers. */
    private static Set<Integer> errorIds(String text) throws ConfigException {
        if (text.equals("all")) {
            return Set.of();
        }
        Set<Integer> ids = new java.util.HashSet<>();
        for (String id : text.split(",")) {
            try {
                ids.add(Integer.parseInt(id));
            } catch (NumberFormatException e) {
                throw new ConfigException("'" + text + "' : expects 'all' or a comma-separated list of error IDs");
            }
        }
        return ids;
    }

    private static List<String> alpn(String text) throws ConfigException {
        List<String> protocols = Arrays.asList(text.split(",", -1));
        if (text.isEmpty() || protocols.stream().anyMatch(String::isEmpty)) {
            throw new BindOptionException("'alpn' : missing the comma-delimited ALPN protocol suite");
        }
        for (String p : protocols) {
            if (p.length() > 255) {
                throw new BindOptionException("'alpn' : ALPN protocol name too long : '" + p + "'");
            }
        }
        return List.copyOf(protocols);
    }

    /** {@code <prefix>ciphers}, {@code ciphersuites}, {@code curves} and {@code options}. */
    private static void defaults(KeywordTable<GlobalContext> global, String prefix, Function<TlsGlobals, TlsOptions> of) {
        setting(global, prefix + "ciphers", "a cipher suite as an argument", (o, v) -> o.ciphers = v, of);
        setting(global, prefix + "ciphersuites", "a cipher suite as an argument", (o, v) -> o.ciphersuites = v, of);
        if (prefix.contains("bind")) {
            setting(global, prefix + "curves", "a curves suite as an arguments", (o, v) -> o.curves = v, of); // (HAProxy 2.6 has no server twin)
        }
        KeywordTable<TlsOptions> options = new KeywordTable<>(prefix + "options", "");
        versionRange(options, o -> o, "");
        versionSwitches(options, o -> o);
        if (prefix.contains("bind")) {
            options.add("prefer-client-ciphers", (o, l) -> o.preferClientCiphers = true);
        }
        global.add(prefix + "options", (g, l) -> {
            if (!l.has(1)) {
                throw new ConfigException("global statement '" + l.keyword() + "' expects an option as an argument.");
            }
            TlsOptions o = of.apply(TlsGlobals.of(g.model()));
            int i = 1;
            while (i < l.size()) {
                KeywordTable.Entry<TlsOptions> e = options.find(l.arg(i));
                if (e == null && !HaproxyKeywords.knows(prefix.contains("bind") ? "bind" : "server", l.arg(i))) {
                    throw new ConfigException("unknown option '" + l.arg(i) + "' on global statement '" + l.keyword() + "'.");
                }
                if (e == null) { // one of HAProxy's that Fulcrum does not take here
                    throw new ConfigException("'" + l.keyword() + "' : unknown or unsupported option '" + l.arg(i) + "'.");
                }
                if (e.flags() > 0 && !l.has(i + 1)) {
                    throw new ConfigException("'" + l.keyword() + "' : '" + l.arg(i) + "' : missing value.");
                }
                try {
                    e.parser().parse(o, l.shift(i));
                } catch (BindOptionException ex) {
                    throw new ConfigException("'" + l.keyword() + "' : " + ex.getMessage());
                }
                i += 1 + e.flags();
            }
        });
    }

    private static void setting(KeywordTable<GlobalContext> global, String name, String what, BiConsumer<TlsOptions, String> set,
                                Function<TlsGlobals, TlsOptions> of) {
        global.add(name, (g, l) -> set.accept(of.apply(TlsGlobals.of(g.model())), statement(l, what)));
    }

    /** {@code crt-base}/{@code ca-base <dir>}: once only, as HAProxy. */
    private static void base(KeywordTable<GlobalContext> global, String name, Function<TlsGlobals, String> get,
                             BiConsumer<TlsGlobals, String> set) {
        global.add(name, (g, l) -> {
            String dir = statement(l, "a directory path as an argument");
            TlsGlobals t = TlsGlobals.of(g.model());
            if (get.apply(t) != null) {
                throw new ConfigException("'" + name + "' already specified.");
            }
            set.accept(t, dir);
        });
    }

    /** The one word of a global TLS statement; HAProxy's "global statement 'X' expects WHAT." when it is missing. */
    private static String statement(ConfigLine l, String what) throws ConfigException {
        Args.noMoreThan(l, 1, l.keyword());
        if (!l.has(1)) {
            throw new ConfigException("global statement '" + l.keyword() + "' expects " + what + ".");
        }
        return l.arg(1);
    }

    private static String single(ConfigLine l) throws ConfigException {
        Args.noMoreThan(l, 1, l.keyword());
        return Args.required(l, 1, l.keyword(), "a value");
    }
}
