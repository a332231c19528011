package io.fulcrum.tls;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.server.ServerList;
import io.fulcrum.server.ServerSpec;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;

import java.security.GeneralSecurityException;
import java.util.List;

/**
 * Once the configuration is read: builds the client context of each server line with {@code ssl}, over the
 * {@code ssl-default-server-*} globals, loading its CA and CRL files (kept with the bind lines' for the CLI) and
 * client certificate; errors are HAProxy's.
 */
final class ServerSetup {
    private ServerSetup() {
    }

    static void check(ConfigModel model, Diagnostics diag) {
        TlsGlobals globals = TlsGlobals.of(model);
        for (ProxySpec p : TlsSections.withProxies(model)) {
            ServerList list = p.partOrNull(ServerList.class);
            if (list == null || p.disabled) {
                continue;
            }
            for (ServerSpec s : list.servers) {
                ServerTls tls = s.partOrNull(ServerTls.class);
                if (tls != null && tls.ssl) {
                    String where = "[" + s.source + "] : 'server " + p.name() + "/" + s.name + "' : ";
                    try {
                        s.transport = transport(p, tls, globals, false, null, null);
                    } catch (ConfigException e) {
                        for (String line : e.getMessage().split("\n")) {
                            diag.configAlert(line.startsWith("'") && !line.startsWith("'server") ? line : where + line);
                        }
                    }
                }
            }
        }
    }

    /**
     * The TLS layer of a server line's connections.
     *
     * @param check     for health checks, which do not use the line's {@code sni}
     * @param checkSni  for health checks: the name to send, or null
     * @param checkAlpn for health checks: the protocols to offer instead of the line's {@code alpn}, or null
     */
    static TlsBackend transport(ProxySpec p, ServerTls tls, TlsGlobals globals, boolean check, String checkSni, List<String> checkAlpn)
            throws ConfigException {
        TlsOptions o = tls.copyOptions();
        o.inherit(globals.serverDefaults);
        if (checkAlpn != null) {
            o.alpn = checkAlpn;
        }
        String verify = tls.verify != null ? tls.verify : globals.serverVerify;
        SslContextBuilder b = SslContextBuilder.forClient();
        boolean verifying = verify.equals("required");
        HostVerifier verifier = null;
        try {
            if (verifying) {
                if (tls.caFile == null) {
                    throw new ConfigException("verify is enabled by default but no CA file specified. If you're running on a LAN where"
                            + " you're certain to trust the server's certificate, please set an explicit 'verify none' statement on the"
                            + " 'server' line, or use 'ssl-server-verify none' in the global section to disable server-side"
                            + " verifications by default.");
                }
                verifier = tls.store.verifier(globals, tls.caFile, tls.crlFile, tls.verifyHost, !check);
                b.trustManager(verifier);
            } else {
                if (tls.crlFile != null) {
                    tls.store.revocations.load(globals, tls.crlFile); // read all the same, as HAProxy does
                }
                b.trustManager(InsecureTrustManagerFactory.INSTANCE);
            }
        } catch (AuthorityFiles.Unloadable e) {
            throw new ConfigException("Couldn't open the ca-file '" + e.name + "' (" + e.reason + ").\n" + e.getMessage() + ".");
        } catch (GeneralSecurityException e) {
            throw new ConfigException("unable to use the ca-file '" + tls.caFile + "' (" + e.getMessage() + ").");
        }
        try {
            CertKey cert = tls.crt == null ? null : certificate(tls, globals);
            ServerCert.Factory factory = ck -> {
                if (ck != null) {
                    ContextBuilder.clientCertificate(b, ck);
                }
                return ContextBuilder.build(b, o);
            };
            SslContext context = factory.build(cert);
            if (verifier != null) {
                verifier.sessions(context.sessionContext());
            }
            TlsBackend backend = new TlsBackend(context, check ? null : tls.sni, checkSni, !tls.noReuse, verifying, p.timeouts.connect,
                    globals.connections);
            if (cert != null) {
                tls.store.server(new ServerCert(cert.file(), !check, backend, verifier, factory), cert);
            }
            return backend;
        } catch (ContextBuilder.OptionError e) {
            throw new ConfigException(e.getMessage() + ".");
        }
    }

    /** The client certificate of a line: the store's when a bind line or another server line loaded the file. */
    private static CertKey certificate(ServerTls tls, TlsGlobals globals) throws ConfigException {
        java.nio.file.Path file = globals.crt(tls.crt);
        CertKey known = tls.store.known(file.toString());
        return known != null ? known : PemFiles.load(globals, file);
    }
}
