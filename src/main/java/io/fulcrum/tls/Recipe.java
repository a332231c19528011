package io.fulcrum.tls;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;

/**
 * How a bind line makes the context of one of its certificates: its options (the line's, a crt-list line's, the
 * globals'), the verification of client certificates and the ticket keys (or null). Kept to make it again for a
 * new certificate.
 */
record Recipe(BindOptions options, ClientVerifier verifier, boolean keylog, TicketKeys tickets) {

    SslContext build(CertKey cert) throws ContextBuilder.OptionError {
        SslContextBuilder builder = SslContextBuilder.forServer(ContextBuilder.keyManager(cert));
        if (verifier != null) {
            builder.clientAuth(options.verify.equals("required") ? ClientAuth.REQUIRE : ClientAuth.OPTIONAL).trustManager(verifier);
        }
        SslContext context = ContextBuilder.build(builder, options);
        if (keylog) {
            KeyLog.enable(context);
        }
        // (no-tls-tickets wins: the keys would turn tickets back on)
        if (tickets != null && !options.noTickets && !tickets.attach(context)) {
            throw new ContextBuilder.OptionError("'tls-ticket-keys' needs the OpenSSL engine, the JDK's cannot take ticket keys");
        }
        return context;
    }
}
