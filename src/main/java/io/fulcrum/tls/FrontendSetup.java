package io.fulcrum.tls;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Source;
import io.fulcrum.listener.BindList;
import io.fulcrum.listener.BindSpec;
import io.fulcrum.proxy.Mode;
import io.fulcrum.proxy.ProxySpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Once the configuration is read: loads each bind line's certificates and crt-lists (each file once), builds one
 * context per certificate with its options over the line's and the {@code ssl-default-bind-*} globals, and sets the
 * line's transport. Errors are HAProxy's, at the bind line.
 */
final class FrontendSetup {
    /** Files of a crt directory that are not certificates: a certificate's key, OCSP response, issuer, SCTs. */
    private static final List<String> EXTRA_FILES = List.of(".key", ".ocsp", ".issuer", ".sctl");

    /** The members of a certificate bundle ({@code crt example.pem} for example.pem.rsa...), in HAProxy's order. */
    private static final List<String> BUNDLE_TYPES = List.of(".dsa", ".ecdsa", ".rsa");

    private final TlsGlobals globals;
    private final Diagnostics diag;
    private final KeywordTable<BindOptions> lineOptions;
    /** The certificates loaded, by file name. */
    private final Map<String, CertKey> loaded = new HashMap<>();
    private final CertStore store;
    private final TlsSections sections;

    private FrontendSetup(CertStore store, TlsGlobals globals, TlsSections sections, Diagnostics diag,
                          KeywordTable<BindOptions> lineOptions) {
        this.store = store;
        this.sections = sections;
        this.globals = globals;
        this.diag = diag;
        this.lineOptions = lineOptions;
    }

    /** @param lineOptions the options a crt-list line may set between brackets */
    static void check(ConfigModel model, Diagnostics diag, KeywordTable<BindOptions> lineOptions, CertStore store) {
        FrontendSetup setup = new FrontendSetup(store, TlsGlobals.of(model), TlsSections.of(model), diag, lineOptions);
        TlsGlobals.of(model).issuerWarnings.forEach(diag::configWarning);
        for (ProxySpec p : TlsSections.withProxies(model)) {
            BindList binds = p.partOrNull(BindList.class);
            if (binds != null && !p.disabled) {
                for (BindSpec b : binds.binds) {
                    BindTls tls = b.partOrNull(BindTls.class);
                    if (tls != null) {
                        setup.bind(p, b, tls);
                    }
                }
            }
        }
    }

    /** A certificate with its crt-list line (or none). */
    private record Entry(CertKey cert, CrtList.Line line) {
        BindOptions options() {
            return line == null ? null : line.options();
        }

        List<String> filters() {
            return line == null ? List.of() : line.filters();
        }
    }

    private void bind(ProxySpec p, BindSpec b, BindTls tls) {
        List<Entry> entries = new ArrayList<>();
        List<CrtList> lists = new ArrayList<>();
        String where = "'bind " + b.text() + "' in section '" + sections.section(p) + "'";
        try {
            for (BindTls.CertSource source : tls.crts) {
                if (source.list()) {
                    CrtList list = crtList(b.source(), source.path());
                    lists.add(list);
                    for (CrtList.Line line : list.lines()) {
                        entries.add(new Entry(loaded.get(line.cert()), line));
                    }
                } else {
                    for (CertKey ck : certificates(globals.crt(b.source(), source.path()))) {
                        entries.add(new Entry(ck, null));
                    }
                }
            }
            if (tls.crlFile != null) {
                store.revocations.load(globals, tls.crlFile);
            }
        } catch (ConfigException e) {
            diag.parseAlert(b.source(), where + " : " + e.getMessage());
            return;
        }
        if (!tls.ssl) {
            return;
        }
        String at = " for bind '" + b.text() + "' at [" + b.source() + "]";
        if (entries.isEmpty()) {
            diag.configAlert("Proxy '" + p.name() + "': no SSL certificate specified" + at + " (use 'crt').");
            return;
        }
        BindOptions lineDefaults = tls.copyBindOptions();
        lineDefaults.inherit(globals.bindDefaults);
        if (p.mode == Mode.HTTP && lineDefaults.alpn != null && lineDefaults.alpn.contains("h2")) {
            // HTTP/2 comes later: a client choosing it would speak h2 to the HTTP/1 parser.
            diag.parseWarning(b.source(), where + " : 'alpn' : 'h2' is not offered: Fulcrum does not speak HTTP/2 yet.");
            lineDefaults.alpn = lineDefaults.alpn.stream().filter(a -> !a.equals("h2")).toList();
        }
        SniMap map = new SniMap(tls.strictSni);
        BindSite site = new BindSite(b.source(), map, lineDefaults, tls, store, globals);

        for (Entry e : entries) {
            if (ContextBuilder.restrictsTls13(site.options(e.options()))) {
                diag.parseWarning(b.source(), where + " : 'ciphersuites' : BoringSSL always offers its three TLS 1.3 cipher suites;"
                        + " this list only checks the names.");
            }
            try {
                map.add(site.entry(e.cert(), e.options(), e.filters(), e.line()));
            } catch (BindSite.NoCaFileException ex) {
                diag.configAlert("Proxy '" + p.name() + "': " + ex.getMessage() + at + ".");
                return;
            } catch (ContextBuilder.OptionError ex) {
                diag.configAlert("Proxy '" + p.name() + "': " + ex.getMessage() + at + ".");
                return;
            } catch (AuthorityFiles.Unloadable ex) {
                diag.configAlert("Couldn't open the ca-file '" + ex.name + "' (" + ex.reason + ").");
                diag.parseAlert(b.source(), where + " : " + ex.getMessage());
                return;
            } catch (ConfigException ex) {
                diag.parseAlert(b.source(), where + " : " + ex.getMessage());
                return;
            }
        }
        if (tls.generateCertificates && !generator(p, b, tls, map, at)) {
            return;
        }
        b.transport = new TlsFrontend(map, p.timeouts.client, globals);
        store.site(site);
        lists.forEach(l -> l.sites().add(site));
    }

    /**
     * {@code generate-certificates}: the generator of the line's names without a certificate, from the CA of
     * {@code ca-sign-file} (under ca-base, with its key); false after an alert (HAProxy's words).
     */
    private boolean generator(ProxySpec p, BindSpec b, BindTls tls, SniMap map, String at) {
        String where = "Proxy '" + p.name() + "': ";
        if (tls.caSignFile == null) {
            diag.configAlert(where + "cannot enable certificate generation, no CA certificate File configured at [" + b.source() + "].");
            return false;
        }
        Path file = globals.ca(tls.caSignFile);
        CertKey ca;
        try {
            ca = PemFiles.load(globals, file, tls.caSignPass);
        } catch (ConfigException e) {
            diag.configAlert(where + "Failed to read CA certificate file '" + file + "' at [" + b.source() + "]. Chain loading failed: "
                    + e.getMessage() + "\n");
            return false;
        }
        SniMap.Entry template = map.entries().get(0);
        map.generator(new CertGenerator(ca, template.cert(), template.recipe(), globals.ctxCacheSize));
        return true;
    }

    /** A {@code crt-list} file, read once however many bind lines use it; each line's certificates are loaded. */
    private CrtList crtList(Source bind, String name) throws ConfigException {
        CrtList list = store.list(name);
        if (list != null) {
            return list;
        }
        Path file = bind.path(name); // (not under crt-base: HAProxy 2.6 reads the list's own name as it is)
        List<String> lines;
        try {
            // a directory reads as no line, as HAProxy's fgets() on it
            lines = Files.isDirectory(file) ? List.of() : Files.readAllLines(file, java.nio.charset.StandardCharsets.ISO_8859_1);
        } catch (NoSuchFileException e) {
            throw new ConfigException("'crt-list' : cannot open file '" + name + "' : No such file or directory");
        } catch (IOException e) {
            throw new ConfigException("'crt-list' : cannot open file '" + name + "' : " + e.getMessage());
        }
        list = new CrtList(name);
        for (int n = 0; n < lines.size(); n++) {
            String where = "'crt-list' : parsing [" + name + ":" + (n + 1) + "]: ";
            CrtList.Parsed line = CrtList.parse(lines.get(n), where, new Source(name, n + 1, bind.dir()), lineOptions);
            if (line == null) {
                continue;
            }
            List<CertKey> certs;
            try {
                certs = certificates(globals.crt(bind, line.cert())); // HAProxy reads the list while it reads the bind line
            } catch (ConfigException e) {
                throw new ConfigException("'crt-list' : " + e.getMessage());
            }
            for (CertKey ck : certs) {
                list.lines().add(new CrtList.Line(ck.file(), line.options(), line.filters(), n + 1));
            }
        }
        list.lineCount(lines.size());
        store.list(list);
        return list;
    }

    /**
     * The certificates of a {@code crt} argument, named as HAProxy names them: one file, or each file of a directory
     * in name order (the directory's name without its trailing slashes, a slash, the file's).
     */
    private List<CertKey> certificates(String name) throws ConfigException {
        Path path = Path.of(name);
        if (!Files.exists(path) && globals.extraFiles.contains(TlsGlobals.ExtraFile.BUNDLE)) {
            List<CertKey> bundle = new ArrayList<>();
            for (String type : BUNDLE_TYPES) {
                if (Files.exists(Path.of(name + type))) {
                    bundle.add(load(name + type));
                }
            }
            if (!bundle.isEmpty()) {
                return bundle;
            }
        }
        if (!Files.isDirectory(path)) {
            if (name.endsWith("/") && Files.exists(path)) {
                // (a Path forgets the slash; stat() does not)
                throw new ConfigException("unable to stat SSL certificate from file '" + name + "' : Not a directory.");
            }
            return List.of(load(name));
        }
        String dir = name.replaceAll("/+$", "");
        List<CertKey> certs = new ArrayList<>();
        try (Stream<Path> files = Files.list(path)) {
            for (Path f : files.sorted().toList()) {
                String file = f.getFileName().toString();
                if (Files.isRegularFile(f) && EXTRA_FILES.stream().noneMatch(file::endsWith)) {
                    certs.add(load(dir + "/" + file));
                }
            }
        } catch (IOException e) {
            throw new ConfigException("unable to scan directory '" + path + "' : " + e.getMessage() + ".");
        }
        return certs;
    }

    private CertKey load(String name) throws ConfigException {
        CertKey ck = loaded.get(name);
        if (ck == null) {
            Path file = Path.of(name);
            ck = stapled(PemFiles.load(globals, name, null), file);
            scts(file);
            outOfDate(ck, file);
            loaded.put(name, ck);
            store.loaded(ck);
        }
        return ck;
    }

    /**
     * A certificate out of its validity dates is served all the same (HAProxy says nothing): the warning tells the
     * operator before the clients do.
     */
    private void outOfDate(CertKey ck, Path file) {
        java.util.Date now = new java.util.Date();
        X509Certificate leaf = ck.leaf();
        if (leaf.getNotAfter().before(now)) {
            diag.configWarning("Loading '" + file + "': the certificate expired on " + CertCommands.time(leaf.getNotAfter())
                    + "; it is served all the same.");
        } else if (leaf.getNotBefore().after(now)) {
            diag.configWarning("Loading '" + file + "': the certificate is not valid before " + CertCommands.time(leaf.getNotBefore())
                    + "; it is served all the same.");
        }
    }

    /**
     * The certificate with its {@code <file>.ocsp} response when there is one; a response HAProxy would refuse is left
     * out with a warning. The certificate's issuer must be in its chain or in {@code <file>.issuer}.
     */
    private CertKey stapled(CertKey ck, Path file) throws ConfigException {
        Path ocsp = globals.side(file, TlsGlobals.ExtraFile.OCSP, ".ocsp");
        if (ocsp == null || !Files.isRegularFile(ocsp)) {
            return ck;
        }
        byte[] id = null;
        try {
            X509Certificate issuer = issuer(ck, globals.side(file, TlsGlobals.ExtraFile.ISSUER, ".issuer"));
            id = issuer == null ? null : OcspStaple.certificateId(ck.leaf(), issuer);
        } catch (GeneralSecurityException e) {
            // no ID: as without an issuer
        }
        if (id == null) {
            throw new ConfigException(" '" + ocsp + "' is present and activates OCSP but it is impossible to compute the OCSP certificate ID"
                    + " (maybe the issuer could not be found)'.");
        }
        try {
            OcspResponse r = OcspResponse.parse(Files.readAllBytes(ocsp));
            if (!Arrays.equals(r.check(Instant.now()), id)) {
                throw new OcspResponse.Refused("OCSP single response: Certificate ID does not match certificate and issuer");
            }
            return ck.stapling(store.staple(id, r));
        } catch (OcspResponse.Refused | IOException e) {
            diag.configWarning("Loading: " + (e instanceof IOException ? "Unable to parse OCSP response" : e.getMessage())
                    + ". Content will be ignored.");
            return ck;
        }
    }

    /** A {@code <file>.sctl} HAProxy would send: said, as Fulcrum cannot (BoringSSL's SCT list is not reachable). */
    private void scts(Path file) {
        Path sctl = globals.side(file, TlsGlobals.ExtraFile.SCTL, ".sctl");
        if (sctl != null && Files.isRegularFile(sctl)) {
            diag.configWarning("Loading '" + sctl + "': Fulcrum does not send Certificate Transparency lists (.sctl); the file is ignored.");
        }
    }

    /**
     * The certificate's issuer: the one of its chain that issued it, else the first of its {@code .issuer} side file
     * ({@code side}, null when {@code ssl-load-extra-files} leaves it out).
     */
    private static X509Certificate issuer(CertKey ck, Path side) throws ConfigException {
        for (int i = 1; i < ck.chain().length; i++) {
            if (ck.chain()[i].getSubjectX500Principal().equals(ck.leaf().getIssuerX500Principal())) {
                return ck.chain()[i];
            }
        }
        if (side == null || !Files.isRegularFile(side)) {
            return null;
        }
        try {
            List<X509Certificate> found = PemFiles.certificates(Files.readString(side, java.nio.charset.StandardCharsets.ISO_8859_1));
            return found.isEmpty() ? null : found.get(0);
        } catch (IOException e) {
            return null;
        }
    }
}
