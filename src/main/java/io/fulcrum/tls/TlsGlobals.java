package io.fulcrum.tls;

import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Source;

import java.nio.file.Path;

/** The global TLS settings: the {@code ssl-default-*} options and the base directories of relative file names. */
final class TlsGlobals {
    final TlsOptions bindDefaults = new TlsOptions();
    final TlsOptions serverDefaults = new TlsOptions();
    /** {@code crt-base}, {@code ca-base}: where relative certificate and CA file names are, or null. */
    String crtBase;
    String caBase;
    /** {@code ssl-server-verify}: the servers' {@code verify} when their line does not say. */
    String serverVerify = "required";
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

    static TlsGlobals of(ConfigModel model) {
        return model.part(TlsGlobals.class, TlsGlobals::new);
    }

    /** A certificate file name as HAProxy finds it: relative ones under {@code crt-base}. */
    Path crt(String name) {
        return under(crtBase, name);
    }

    /** A certificate file name of the line at {@code where}: then, a name still relative from its default-path. */
    Path crt(Source where, String name) {
        return where.path(crt(name).toString());
    }

    /** A CA or CRL file name: relative ones under {@code ca-base}. */
    Path ca(String name) {
        return under(caBase, name);
    }

    private static Path under(String base, String name) {
        return base == null || name.startsWith("/") ? Path.of(name) : Path.of(base, name);
    }
}
