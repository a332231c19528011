package io.fulcrum.tls;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigModel;

import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The certificates the bind lines present, by file, and their replacement while the process runs: what the CLI's
 * {@code show ssl cert} and {@code set ssl cert}/{@code commit ssl cert} need. A replacement makes new contexts
 * with each bind line's options and publishes them at once; connections already open keep theirs.
 */
public final class TlsCertificates {
    private final List<SniMap> binds = new ArrayList<>();

    /** A certificate file as loaded: its chain (leaf first) and the names SNI finds it by. */
    public record Loaded(String file, List<X509Certificate> chain, List<String> names) {
    }

    public static TlsCertificates of(ConfigModel model) {
        return model.part(TlsCertificates.class, TlsCertificates::new);
    }

    synchronized void add(SniMap map) {
        binds.add(map);
    }

    /** Every certificate file in use, in the order the configuration declared them. */
    public synchronized List<Loaded> certificates() {
        Map<String, Loaded> byFile = new LinkedHashMap<>();
        for (SniMap m : binds) {
            for (SniMap.Entry e : m.entries()) {
                byFile.putIfAbsent(e.cert().file(), new Loaded(e.cert().file(), List.of(e.cert().chain()), e.cert().names()));
            }
        }
        return List.copyOf(byFile.values());
    }

    /**
     * Replaces the certificate of {@code file} (as the configuration names it) by the PEM text {@code pem}
     * (certificate, chain and key) in every bind line using it.
     *
     * @return false when no bind line uses that file
     * @throws ConfigException when the text is not a usable certificate and key (HAProxy's words), or a context
     *                         cannot be made with it; then nothing is replaced
     */
    public synchronized boolean replace(String file, String pem) throws ConfigException {
        CertKey cert = PemFiles.parse(file, pem);
        Map<SniMap, Object> prepared = new LinkedHashMap<>();
        try {
            for (SniMap m : binds) {
                Object index = m.prepare(cert);
                if (index != null) {
                    prepared.put(m, index);
                }
            }
        } catch (ContextBuilder.OptionError e) {
            throw new ConfigException(e.getMessage());
        }
        prepared.forEach(SniMap::publish);
        boolean found = !prepared.isEmpty();
        return found;
    }
}
