package io.fulcrum.tls;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Units;
import io.fulcrum.runtime.GlobalModule.GlobalContext;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code tune.ssl.*} globals but {@code keylog} (configuration.txt 3.2), with HAProxy's messages. Those that
 * tune what BoringSSL lacks or Fulcrum does not do are checked and change nothing: {@code default-dh-param} (no DHE
 * suites), {@code force-private-cache} (one process: the cache is private anyway);
 * and the globals {@code ssl-dh-param-file} (the file must hold DH parameters, as HAProxy checks; no DHE suites to use them) and {@code ssl-skip-self-issued-ca} (HAProxy on BoringSSL ignores it too).
 */
final class TlsTuning {
    private static final Pattern DH_PARAMETERS =
            Pattern.compile("-----BEGIN (?:X9.42 )?DH PARAMETERS-----([A-Za-z0-9+/=\\s]+)-----END (?:X9.42 )?DH PARAMETERS-----");

    private TlsTuning() {
    }

    static void register(KeywordTable<GlobalContext> global) {
        global.add("tune.ssl.cachesize", (g, l) -> TlsGlobals.of(g.model()).cacheSize = positive(l));
        global.add("tune.ssl.lifetime", (g, l) -> {
            Args.noMoreThan(l, 1, l.keyword());
            String v = Args.required(l, 1, l.keyword(), "ssl sessions <lifetime> in seconds as argument");
            TlsGlobals.of(g.model()).lifetimeSeconds = (int) Units.time(v, l.keyword(), TimeUnit.SECONDS);
        });
        global.add("tune.ssl.maxrecord", (g, l) -> TlsGlobals.of(g.model()).maxRecord = positive(l));
        global.add("tune.ssl.hard-maxrecord", (g, l) -> TlsGlobals.of(g.model()).hardMaxRecord = positive(l));
        global.add("tune.ssl.capture-buffer-size", (g, l) -> TlsGlobals.of(g.model()).captureSize = positive(l));
        global.add("tune.ssl.capture-cipherlist-size", (g, l) -> {
            l.warn("'tune.ssl.capture-cipherlist-size' is deprecated and will be removed in version 2.7. Please use"
                    + " 'tune.ssl.capture-buffer-size' instead.");
            TlsGlobals.of(g.model()).captureSize = positive(l);
        });
        global.add("tune.ssl.default-dh-param", (g, l) -> {
            Args.noMoreThan(l, 1, l.keyword());
            String bad = "'" + l.keyword() + "' expects a value >= 1024.";
            if (!l.has(1) || !l.arg(1).matches("\\d{1,9}") || Integer.parseInt(l.arg(1)) < 1024) {
                throw new ConfigException(bad);
            }
        });
        global.add("ssl-dh-param-file", (g, l) -> {
            Args.noMoreThan(l, 1, l.keyword());
            String file = Args.required(l, 1, l.keyword(), "a file path as an argument");
            if (!holdsDhParameters(l.source().path(file))) {
                throw new ConfigException("'" + l.keyword() + "': unable to load DH parameters from file <" + file + ">.");
            }
        });
        global.add("ssl-skip-self-issued-ca", (g, l) -> Args.noMoreThan(l, 0, l.keyword()));
        global.add("tune.ssl.force-private-cache", (g, l) -> Args.noMoreThan(l, 0, l.keyword()));
        global.add("tune.ssl.ssl-ctx-cache-size", (g, l) -> TlsGlobals.of(g.model()).ctxCacheSize = positive(l));
    }

    /** True when {@code file} can be read and has a PEM block of DH parameters (what PEM_read_bio_DHparams finds). */
    private static boolean holdsDhParameters(Path file) {
        try {
            Matcher m = DH_PARAMETERS.matcher(Files.readString(file, StandardCharsets.ISO_8859_1));
            return m.find() && Base64.getMimeDecoder().decode(m.group(1)).length > 0;
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }

    /** A number HAProxy wants positive, with its words. */
    private static int positive(ConfigLine l) throws ConfigException {
        Args.noMoreThan(l, 1, l.keyword());
        long v = Units.integer(l.arg(1), l.keyword());
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw new ConfigException("'" + l.keyword() + "' expects a positive numeric value.");
        }
        return (int) v;
    }
}
