package io.fulcrum.tls;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Source;
import io.fulcrum.cfg.Token;
import io.fulcrum.listener.BindList;
import io.fulcrum.listener.BindOptionException;
import io.fulcrum.listener.BindSpec;
import io.fulcrum.proxy.Mode;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.CRL;
import java.util.ArrayList;
import java.util.Collection;
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

    private final TlsGlobals globals;
    private final Diagnostics diag;
    private final KeywordTable<BindOptions> lineOptions;
    private final Map<Path, CertKey> loaded = new HashMap<>();
    private final ConfigModel model;

    private FrontendSetup(ConfigModel model, TlsGlobals globals, Diagnostics diag, KeywordTable<BindOptions> lineOptions) {
        this.model = model;
        this.globals = globals;
        this.diag = diag;
        this.lineOptions = lineOptions;
    }

    /** @param lineOptions the options a crt-list line may set between brackets */
    static void check(ConfigModel model, Diagnostics diag, KeywordTable<BindOptions> lineOptions) {
        FrontendSetup setup = new FrontendSetup(model, TlsGlobals.of(model), diag, lineOptions);
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
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

    /** A certificate with the options of its crt-list line (or none) and its SNI filters (or none). */
    private record Entry(CertKey cert, BindOptions options, List<String> filters) {
    }

    private void bind(ProxySpec p, BindSpec b, BindTls tls) {
        List<Entry> entries = new ArrayList<>();
        String where = "'bind " + b.text() + "' in section '" + p.kind().keyword() + "'";
        Collection<? extends CRL> crls;
        try {
            for (BindTls.CertSource source : tls.crts) {
                if (source.list()) {
                    entries.addAll(crtList(source.path()));
                } else {
                    for (CertKey ck : certificates(globals.crt(source.path()))) {
                        entries.add(new Entry(ck, null, List.of()));
                    }
                }
            }
            crls = tls.crlFile == null ? null : crls(tls.crlFile);
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
        for (Entry e : entries) {
            BindOptions o = lineDefaults;
            if (e.options() != null) {
                o = e.options().copyBindOptions();
                o.inherit(lineDefaults);
            }
            if (ContextBuilder.restrictsTls13(o)) {
                diag.parseWarning(b.source(), where + " : 'ciphersuites' : BoringSSL always offers its three TLS 1.3 cipher suites;"
                        + " this list only checks the names.");
            }
            try {
                ClientVerifier verifier = null;
                if (o.verify != null && !o.verify.equals("none")) {
                    if (o.caFile == null) {
                        diag.configAlert("Proxy '" + p.name() + "': verify is enabled but no CA file specified" + at + ".");
                        return;
                    }
                    verifier = new ClientVerifier(authorities(o.caFile), crls, tls.caIgnoreErr, tls.crtIgnoreErr);
                }
                Recipe recipe = new Recipe(o, verifier, globals.keylog);
                map.add(SniMap.Entry.of(recipe.build(e.cert()), e.cert(), e.filters(), recipe));
            } catch (ContextBuilder.OptionError ex) {
                diag.configAlert("Proxy '" + p.name() + "': " + ex.getMessage() + at + ".");
                return;
            } catch (ConfigException ex) {
                diag.parseAlert(b.source(), where + " : " + ex.getMessage());
                return;
            }
        }
        b.transport = new TlsFrontend(map, p.timeouts.client, globals.keylog);
        TlsCertificates.of(model).add(map);
    }

    /** The certificates of a {@code crt-list} file, each with its line's options and filters. */
    private List<Entry> crtList(String name) throws ConfigException {
        Path file = globals.crt(name);
        List<String> lines;
        try {
            lines = Files.readAllLines(file, java.nio.charset.StandardCharsets.ISO_8859_1);
        } catch (NoSuchFileException e) {
            throw new ConfigException("'crt-list' : cannot open file '" + name + "' : No such file or directory");
        } catch (IOException e) {
            throw new ConfigException("'crt-list' : cannot open file '" + name + "' : " + e.getMessage());
        }
        List<Entry> entries = new ArrayList<>();
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String where = "'crt-list' : parsing [" + name + ":" + (n + 1) + "]: ";
            int open = line.indexOf('[');
            int close = line.indexOf(']');
            String head = open < 0 ? line : line.substring(0, open);
            String options = open < 0 ? "" : line.substring(open + 1, close < 0 ? line.length() : close);
            if (open >= 0 && close < 0) {
                throw new ConfigException(where + "missing ']' in the options");
            }
            List<String> words = new ArrayList<>(List.of(head.strip().split("\\s+")));
            String tail = open < 0 ? "" : line.substring(close + 1).strip();
            if (!tail.isEmpty()) {
                words.addAll(List.of(tail.split("\\s+")));
            }
            BindOptions o = options.isBlank() ? null : lineOptions(options, where, new Source(name, n + 1));
            List<CertKey> certs;
            try {
                certs = certificates(globals.crt(words.get(0)));
            } catch (ConfigException e) {
                throw new ConfigException("'crt-list' : " + e.getMessage());
            }
            for (CertKey ck : certs) {
                entries.add(new Entry(ck, o, words.subList(1, words.size())));
            }
        }
        return entries;
    }

    /** The options between the brackets of a crt-list line. */
    private BindOptions lineOptions(String text, String where, Source source) throws ConfigException {
        BindOptions o = new BindOptions();
        String[] words = text.strip().split("\\s+");
        for (int i = 0; i < words.length; ) {
            KeywordTable.Entry<BindOptions> e = lineOptions.find(words[i]);
            if (e == null) {
                throw new ConfigException(where + "unknown ssl keyword " + words[i]);
            }
            if (i + e.flags() >= words.length) {
                throw new ConfigException(where + "'" + words[i] + "' : missing value");
            }
            try {
                List<Token> tokens = Stream.of(words).skip(i).limit(1 + e.flags()).map(w -> new Token(w, 0)).toList();
                e.parser().parse(o, new ConfigLine(source, text, tokens, diag));
            } catch (BindOptionException ex) {
                throw new ConfigException(where + ex.getMessage());
            }
            i += 1 + e.flags();
        }
        return o;
    }

    private java.security.cert.X509Certificate[] authorities(String caFile) throws ConfigException {
        try {
            return PemFiles.authorities(globals.ca(caFile), "'ca-file' : unable to load " + caFile);
        } catch (ConfigException e) {
            diag.configAlert("Couldn't open the ca-file '" + caFile + "' (No such file or directory).");
            throw new ConfigException("'ca-file' : unable to load " + caFile);
        }
    }

    private Collection<? extends CRL> crls(String crlFile) throws ConfigException {
        try {
            Collection<? extends CRL> crls = ClientVerifier.crls(Files.readAllBytes(globals.ca(crlFile)));
            if (!crls.isEmpty()) {
                return crls;
            }
        } catch (IOException | GeneralSecurityException e) {
            // the same message
        }
        throw new ConfigException("'crl-file' : unable to load " + crlFile);
    }

    /** The certificates of a {@code crt} argument: one file, or each file of a directory in name order. */
    private List<CertKey> certificates(Path path) throws ConfigException {
        if (!Files.isDirectory(path)) {
            return List.of(load(path));
        }
        List<CertKey> certs = new ArrayList<>();
        try (Stream<Path> files = Files.list(path)) {
            for (Path f : files.sorted().toList()) {
                String name = f.getFileName().toString();
                if (Files.isRegularFile(f) && EXTRA_FILES.stream().noneMatch(name::endsWith)) {
                    certs.add(load(f));
                }
            }
        } catch (IOException e) {
            throw new ConfigException("unable to scan directory '" + path + "' : " + e.getMessage() + ".");
        }
        return certs;
    }

    private CertKey load(Path file) throws ConfigException {
        CertKey ck = loaded.get(file);
        if (ck == null) {
            ck = PemFiles.load(file);
            loaded.put(file, ck);
        }
        return ck;
    }
}
