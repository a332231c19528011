package io.fulcrum.tls;

import io.fulcrum.cfg.ConfigException;
import io.netty.handler.ssl.SslContext;

import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A TLS bind line as its certificates see it: its SNI map and how it makes the context of a certificate with a
 * crt-list line's options over its own. Kept after the configuration is read: the CLI adds certificates to it, and
 * remakes them when a CA or CRL file they verify with changes.
 */
final class BindSite {
    /** Where the bind line is (the CLI names it). */
    final io.fulcrum.cfg.Source source;
    private final SniMap map;
    private final BindOptions lineDefaults;
    private final BindTls tls;
    private final CertStore store;
    private final TlsGlobals globals;

    /** The {@code verify} of a line needs a {@code ca-file} it lacks. */
    static final class NoCaFileException extends ConfigException {
        private static final long serialVersionUID = 1L;

        NoCaFileException() {
            super("verify is enabled but no CA file specified");
        }
    }

    /**
     * @param source       where the bind line is
     * @param lineDefaults the bind line's options over the {@code ssl-default-bind-*} globals
     * @param store        the CA and CRL files
     * @param globals      where a {@code ca-file} name points ({@code ca-base}), the tunables
     */
    BindSite(io.fulcrum.cfg.Source source, SniMap map, BindOptions lineDefaults, BindTls tls, CertStore store, TlsGlobals globals) {
        this.source = source;
        this.map = map;
        this.lineDefaults = lineDefaults;
        this.tls = tls;
        this.store = store;
        this.globals = globals;
    }

    SniMap map() {
        return map;
    }

    /** The options a certificate gets: a crt-list line's ({@code null} for none) over the bind line's. */
    BindOptions options(BindOptions line) {
        if (line == null) {
            return lineDefaults;
        }
        BindOptions o = line.copyBindOptions();
        o.inherit(lineDefaults);
        return o;
    }

    /**
     * The SNI entry of {@code cert} with a crt-list line's options and filters.
     *
     * @param origin the crt-list line, or null
     */
    SniMap.Entry entry(CertKey cert, BindOptions line, List<String> filters, Object origin) throws ConfigException, ContextBuilder.OptionError {
        return make(cert, options(line), filters, origin);
    }

    /** The entry made again with its CA and CRL files as they are now (a commit changed one). */
    SniMap.Entry rebuild(SniMap.Entry e) throws ConfigException, ContextBuilder.OptionError {
        return make(e.cert(), e.recipe().options(), e.filters(), e.origin());
    }

    private SniMap.Entry make(CertKey cert, BindOptions o, List<String> filters, Object origin) throws ConfigException, ContextBuilder.OptionError {
        Recipe recipe = new Recipe(o, verifier(o), globals, tls.ticketKeys);
        Recipe asDefault = recipe.withVersionsOf(lineDefaults);
        SslContext context = recipe.build(cert);
        return SniMap.Entry.of(context, cert, filters, recipe, origin, asDefault, asDefault == recipe ? context : asDefault.build(cert));
    }

    private ClientVerifier verifier(BindOptions o) throws ConfigException {
        if (o.verify == null || o.verify.equals("none")) {
            return null;
        }
        if (o.caFile == null && o.caVerifyFile == null) {
            throw new NoCaFileException();
        }
        // (an empty file, after new ssl ca-file or crl-file: no CA, no CRL)
        List<X509Certificate> named = o.caFile == null ? List.of() : Objects.requireNonNullElse(store.authorities.load(globals, o.caFile), List.of());
        List<X509Certificate> trusted = new ArrayList<>(named);
        if (o.caVerifyFile != null) {
            trusted.addAll(Objects.requireNonNullElse(store.authorities.load(globals, o.caVerifyFile, "ca-verify-file"), List.of()));
        }
        List<X509CRL> crls = o.crlFile == null ? null : Objects.requireNonNullElse(store.revocations.load(globals, o.crlFile), List.of());
        // The certificate request names the ca-file's CAs, not the ca-verify-file's (nor any with no-ca-names).
        return new ClientVerifier(trusted.toArray(X509Certificate[]::new), o.noCaNames ? new X509Certificate[0] : named.toArray(X509Certificate[]::new),
                crls, tls.caIgnoreErr, tls.crtIgnoreErr);
    }
}
