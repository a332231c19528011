package io.fulcrum.tls;

import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Source;

import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.EnumSet;
import java.util.Set;

/** The global TLS settings: the {@code ssl-default-*} options and the base directories of relative file names. */
final class TlsGlobals {
    final TlsOptions bindDefaults = new TlsOptions();
    final TlsOptions serverDefaults = new TlsOptions();
    /** {@code crt-base}, {@code ca-base}: where relative certificate and CA file names are, or null. */
    String crtBase;
    String caBase;
    /** {@code ssl-server-verify}: the servers' {@code verify} when their line does not say. */
    String serverVerify = "required";
    /** {@code ssl-load-extra-files}: the files looked for beside a certificate's (all of them by default). */
    Set<ExtraFile> extraFiles = EnumSet.allOf(ExtraFile.class);
    /** {@code ssl-load-extra-del-ext}: "cert.crt" has its side files as "cert.key", not "cert.crt.key". */
    boolean delExt;
    /** {@code issuers-chain-path}: the chains of its files (each starting with an issuer), and why a file gave none. */
    final List<X509Certificate[]> issuerChains = new ArrayList<>();
    final List<String> issuerWarnings = new ArrayList<>();
    /** {@code tune.ssl.ssl-ctx-cache-size}: the most contexts of generated certificates a bind line keeps. */
    int ctxCacheSize = 1000;
    /** The TLS connections of both sides, under {@code maxsslconn}. */
    final TlsConnections connections = new TlsConnections();
    /** {@code tune.ssl.keylog}: keep each client connection's TLS secrets for the ssl_fc_*_secret fetches. */
    boolean keylog;
    /** {@code tune.ssl.cachesize}: the most sessions each context caches (0: no cache); -1: the engine's default. */
    int cacheSize = -1;
    /** {@code tune.ssl.lifetime}: how long sessions and tickets are valid; -1: the engine's default. */
    int lifetimeSeconds = -1;
    /** {@code tune.ssl.maxrecord}, {@code tune.ssl.hard-maxrecord}: the most bytes of a TLS record; 0 for no limit. */
    int maxRecord;
    int hardMaxRecord;
    /** {@code tune.ssl.capture-buffer-size}: how many bytes of a ClientHello's lists are kept; 0 for none. */
    int captureSize;

    /** The most bytes a record carries: the smaller limit of the two, 0 for none (HAProxy's maxrecord is fixed here). */
    int recordLimit() {
        return maxRecord == 0 || hardMaxRecord == 0 ? Math.max(maxRecord, hardMaxRecord) : Math.min(maxRecord, hardMaxRecord);
    }

    /** What {@code ssl-load-extra-files} names: the bundles ({@code <crt>.rsa}...) and the side files. */
    enum ExtraFile { BUNDLE, SCTL, OCSP, ISSUER, KEY }

    /**
     * The base name of a certificate's side files: its own name, less {@code .crt} with {@code ssl-load-extra-del-ext}
     * (HAProxy's error messages name it so when no side file is read).
     */
    String sideBase(Path crt) {
        String name = crt.toString();
        return delExt && name.endsWith(".crt") ? name.substring(0, name.length() - 4) : name;
    }

    /** The side file {@code ext} ({@code .key}, {@code .ocsp}...) of a certificate, or null when it is not to be read. */
    Path side(Path crt, ExtraFile kind, String ext) {
        return extraFiles.contains(kind) ? Path.of(sideBase(crt) + ext) : null;
    }

    /**
     * A certificate file's chain as HAProxy completes it: without certificates after the leaf, those of the
     * {@code issuers-chain-path} chain whose first certificate issued (and signed) it.
     */
    X509Certificate[] completed(X509Certificate[] chain) {
        if (chain.length > 1) {
            return chain;
        }
        for (X509Certificate[] issuers : issuerChains) {
            if (issuers[0].getSubjectX500Principal().equals(chain[0].getIssuerX500Principal())) {
                try {
                    chain[0].verify(issuers[0].getPublicKey());
                } catch (GeneralSecurityException e) {
                    continue; // the same name, another key
                }
                X509Certificate[] full = Arrays.copyOf(chain, 1 + issuers.length);
                System.arraycopy(issuers, 0, full, 1, issuers.length);
                return full;
            }
        }
        return chain;
    }

    static TlsGlobals of(ConfigModel model) {
        return model.part(TlsGlobals.class, TlsGlobals::new);
    }

    /** A certificate file name as HAProxy finds it: relative ones under {@code crt-base}. */
    Path crt(String name) {
        return under(crtBase, name);
    }

    /**
     * A certificate file name of the line at {@code where} as HAProxy names it: {@code crt-base}, a slash and the
     * name, the string kept as it is (a doubled slash, a {@code ./} are part of the name that the CLI shows and
     * takes); then, a name still relative from its default-path.
     */
    String crt(Source where, String name) {
        String joined = crtBase == null || name.startsWith("/") ? name : crtBase + "/" + name;
        Path resolved = where.path(joined);
        return resolved.isAbsolute() && !joined.startsWith("/") ? resolved.toString() : joined;
    }

    /** A CA or CRL file name: relative ones under {@code ca-base}. */
    Path ca(String name) {
        return under(caBase, name);
    }

    private static Path under(String base, String name) {
        return base == null || name.startsWith("/") ? Path.of(name) : Path.of(base, name);
    }
}
