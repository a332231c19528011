package io.fulcrum.tls;

import java.util.EnumSet;
import java.util.List;

/**
 * The protocol settings that bind lines and servers share: versions, cipher lists, curves, ALPN, tickets. Null
 * (or empty) means "not set here": the {@code ssl-default-*} globals, then the engine's defaults apply.
 */
class TlsOptions implements Cloneable {
    TlsVersion minVersion;
    TlsVersion maxVersion;
    /** Versions turned off one by one ({@code no-tlsv11}...). */
    EnumSet<TlsVersion> disabled = EnumSet.noneOf(TlsVersion.class);
    /** {@code ciphers}: an OpenSSL cipher string, for TLS 1.2 and older. */
    String ciphers;
    /** {@code ciphersuites}: TLS 1.3's suites, colon-separated. */
    String ciphersuites;
    /** {@code curves}: the key exchange groups, colon-separated. */
    String curves;
    /** {@code ecdhe}: the one group, when {@code curves} is not set. */
    String ecdhe;
    /** {@code prefer-client-ciphers}: the client's order of the suites wins. */
    boolean preferClientCiphers;
    /** {@code allow-0rtt}: accepted; BoringSSL's early data is never turned on (the client sends it again). */
    boolean allow0rtt;
    /** {@code alpn}: the protocols, in order. */
    List<String> alpn;
    boolean noTickets;

    /** Takes from {@code defaults} what is not set here (the {@code ssl-default-*} globals). */
    void inherit(TlsOptions defaults) {
        if (minVersion == null && maxVersion == null) {
            minVersion = defaults.minVersion;
            maxVersion = defaults.maxVersion;
        }
        disabled.addAll(defaults.disabled);
        ciphers = ciphers != null ? ciphers : defaults.ciphers;
        ciphersuites = ciphersuites != null ? ciphersuites : defaults.ciphersuites;
        curves = curves != null ? curves : defaults.curves;
        ecdhe = ecdhe != null ? ecdhe : defaults.ecdhe;
        noTickets |= defaults.noTickets;
        preferClientCiphers |= defaults.preferClientCiphers;
        allow0rtt |= defaults.allow0rtt;
    }

    /**
     * The protocol versions to enable, oldest first: from {@code ssl-min-ver} (TLSv1.2 by default, as in HAProxy)
     * to {@code ssl-max-ver}, without the disabled ones.
     */
    String[] protocols() {
        TlsVersion min = minVersion != null ? minVersion : TlsVersion.TLSV12;
        TlsVersion max = maxVersion != null ? maxVersion : TlsVersion.TLSV13;
        return EnumSet.range(min, max).stream().filter(v -> !disabled.contains(v)).map(v -> v.protocol).toArray(String[]::new);
    }

    /** Takes from {@code outer} (the bind line of a crt-list line) what is not set here, ALPN included. */
    void inheritExplicit(TlsOptions outer) {
        inherit(outer);
        alpn = alpn != null ? alpn : outer.alpn;
    }

    TlsOptions copyOptions() {
        try {
            TlsOptions c = (TlsOptions) clone();
            c.disabled = EnumSet.copyOf(disabled);
            return c;
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }
}
