package io.fulcrum.tls;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

import java.util.Arrays;
import java.util.EnumSet;

/**
 * How a bind line makes the context of one of its certificates: its options (the line's, a crt-list line's, the
 * globals'), the verification of client certificates and the ticket keys (or null). Kept to make it again for a
 * new certificate.
 */
record Recipe(BindOptions options, ClientVerifier verifier, TlsGlobals globals, TicketKeys tickets) {

    /** Whether this verifies client certificates with the CA (ca-file or ca-verify-file) or CRL file {@code name} (under ca-base). */
    boolean uses(AuthorityFiles.Kind kind, String name) {
        return kind == AuthorityFiles.Kind.CA ? named(options.caFile, name) || named(options.caVerifyFile, name) : named(options.crlFile, name);
    }

    private boolean named(String file, String name) {
        return file != null && globals.ca(file).toString().equals(name);
    }

    /**
     * This recipe with the protocol versions of {@code bind} (the bind line's options): what a crt-list line's
     * certificate gets as the line's default (no SNI, or no line names the host). HAProxy sets a crt-list line's
     * versions only when SNI chose the line; its other options (verify, ca-file, ciphers...) hold for the default too.
     * This recipe itself when the versions are the same.
     */
    Recipe withVersionsOf(BindOptions bind) {
        if (Arrays.equals(options.protocols(), bind.protocols())) {
            return this;
        }
        BindOptions o = options.copyBindOptions();
        o.minVersion = bind.minVersion;
        o.maxVersion = bind.maxVersion;
        o.disabled = EnumSet.copyOf(bind.disabled);
        return new Recipe(o, verifier, globals, tickets);
    }

    SslContext build(CertKey cert) throws ContextBuilder.OptionError {
        SslContextBuilder builder = ContextBuilder.forServer(cert);
        boolean staple = cert.staple() != null && ContextBuilder.provider() == SslProvider.OPENSSL; // (the JDK's engine cannot)
        builder.enableOcsp(staple);
        if (verifier != null) {
            builder.clientAuth(options.verify.equals("required") ? ClientAuth.REQUIRE : ClientAuth.OPTIONAL).trustManager(verifier);
        }
        SslContext context = ContextBuilder.build(builder, options);
        if (globals.keylog) {
            KeyLog.enable(context);
        }
        if (context.sessionContext() instanceof OpenSslSessionContext sessions) {
            if (globals.lifetimeSeconds >= 0) {
                sessions.setSessionTimeout(globals.lifetimeSeconds);
            }
            if (globals.cacheSize == 0) {
                sessions.setSessionCacheEnabled(false);
            } else if (globals.cacheSize > 0) {
                sessions.setSessionCacheSize(globals.cacheSize);
            }
        }
        // (no-tls-tickets wins: the keys would turn tickets back on)
        if (tickets != null && !options.noTickets && !tickets.attach(context)) {
            throw new ContextBuilder.OptionError("'tls-ticket-keys' needs the OpenSSL engine, the JDK's cannot take ticket keys");
        }
        return staple ? cert.staple().staple(context) : context;
    }
}
