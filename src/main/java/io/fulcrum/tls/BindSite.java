package io.fulcrum.tls;

import io.fulcrum.cfg.ConfigException;

import java.security.cert.CRL;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;

/**
 * A TLS bind line as its certificates see it: its SNI map and how it makes the context of a certificate with a
 * crt-list line's options over its own. Kept after the configuration is read: the CLI adds certificates to it.
 */
final class BindSite {
    private final SniMap map;
    private final BindOptions lineDefaults;
    private final BindTls tls;
    private final Collection<? extends CRL> crls;
    private final TlsGlobals globals;

    /** The {@code ca-file} of a line cannot be read (the message is HAProxy's). */
    static final class CaFileException extends ConfigException {
        private static final long serialVersionUID = 1L;
        final String caFile;

        CaFileException(String caFile) {
            super("'ca-file' : unable to load " + caFile);
            this.caFile = caFile;
        }
    }

    /** The {@code verify} of a line needs a {@code ca-file} it lacks. */
    static final class NoCaFileException extends ConfigException {
        private static final long serialVersionUID = 1L;

        NoCaFileException() {
            super("verify is enabled but no CA file specified");
        }
    }

    /**
     * @param lineDefaults the bind line's options over the {@code ssl-default-bind-*} globals
     * @param globals      where a {@code ca-file} name points ({@code ca-base}), the tunables
     */
    BindSite(SniMap map, BindOptions lineDefaults, BindTls tls, Collection<? extends CRL> crls, TlsGlobals globals) {
        this.map = map;
        this.lineDefaults = lineDefaults;
        this.tls = tls;
        this.crls = crls;
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
        BindOptions o = options(line);
        ClientVerifier verifier = null;
        if (o.verify != null && !o.verify.equals("none")) {
            if (o.caFile == null) {
                throw new NoCaFileException();
            }
            verifier = new ClientVerifier(authorities(o.caFile), crls, tls.caIgnoreErr, tls.crtIgnoreErr);
        }
        Recipe recipe = new Recipe(o, verifier, globals, tls.ticketKeys);
        return SniMap.Entry.of(recipe.build(cert), cert, filters, recipe, origin);
    }

    private X509Certificate[] authorities(String caFile) throws ConfigException {
        try {
            return PemFiles.authorities(globals.ca(caFile), "'ca-file' : unable to load " + caFile);
        } catch (ConfigException e) {
            throw new CaFileException(caFile);
        }
    }
}
