package io.fulcrum.tls;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.listener.BindList;
import io.fulcrum.listener.BindSpec;
import io.fulcrum.proxy.Mode;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.netty.handler.ssl.SslContextBuilder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Once the configuration is read: loads each bind line's certificates (each file once), builds one context per
 * certificate with the line's options over the {@code ssl-default-bind-*} globals, and sets the line's transport.
 * Errors are HAProxy's, at the bind line.
 */
final class FrontendSetup {
    /** Files of a crt directory that are not certificates: a certificate's key, OCSP response, issuer, SCTs. */
    private static final List<String> EXTRA_FILES = List.of(".key", ".ocsp", ".issuer", ".sctl");

    private final TlsGlobals globals;
    private final Diagnostics diag;
    private final Map<Path, CertKey> loaded = new HashMap<>();

    private FrontendSetup(TlsGlobals globals, Diagnostics diag) {
        this.globals = globals;
        this.diag = diag;
    }

    static void check(ConfigModel model, Diagnostics diag) {
        FrontendSetup setup = new FrontendSetup(TlsGlobals.of(model), diag);
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

    private void bind(ProxySpec p, BindSpec b, BindTls tls) {
        List<CertKey> certs = new ArrayList<>();
        String where = "'bind " + b.text() + "' in section '" + p.kind().keyword() + "'";
        try {
            for (String crt : tls.crts) {
                certs.addAll(certificates(globals.crt(crt)));
            }
        } catch (ConfigException e) {
            diag.parseAlert(b.source(), where + " : " + e.getMessage());
            return;
        }
        if (!tls.ssl) {
            return;
        }
        String at = "Proxy '" + p.name() + "': %s for bind '" + b.text() + "' at [" + b.source() + "].";
        if (certs.isEmpty()) {
            diag.configAlert("Proxy '" + p.name() + "': no SSL certificate specified for bind '" + b.text() + "' at [" + b.source()
                    + "] (use 'crt').");
            return;
        }
        TlsOptions o = tls.copyOptions();
        o.inherit(globals.bindDefaults);
        if (p.mode == Mode.HTTP && o.alpn != null && o.alpn.contains("h2")) {
            // HTTP/2 comes later: a client choosing it would speak h2 to the HTTP/1 parser.
            diag.parseWarning(b.source(), where + " : 'alpn' : 'h2' is not offered: Fulcrum does not speak HTTP/2 yet.");
            o.alpn = o.alpn.stream().filter(a -> !a.equals("h2")).toList();
        }
        if (ContextBuilder.restrictsTls13(o)) {
            diag.parseWarning(b.source(), where + " : 'ciphersuites' : BoringSSL always offers its three TLS 1.3 cipher suites;"
                    + " this list only checks the names.");
        }
        SniMap map = new SniMap(tls.strictSni);
        for (CertKey ck : certs) {
            try {
                map.add(new SniMap.Entry(ContextBuilder.build(SslContextBuilder.forServer(ck.key(), ck.chain()), o),
                        ck.names(), Set.of()));
            } catch (ContextBuilder.OptionError e) {
                diag.configAlert(at.formatted(e.getMessage()));
                return;
            }
        }
        b.transport = new TlsFrontend(map, p.timeouts.client);
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
