package io.fulcrum.tls;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;

/**
 * How a bind line makes the context of one of its certificates: its options (the line's, a crt-list line's, the
 * globals') and the verification of client certificates. Kept to make it again for a new certificate.
 */
record Recipe(BindOptions options, ClientVerifier verifier, boolean keylog) {

    SslContext build(CertKey cert) throws ContextBuilder.OptionError {
        SslContextBuilder builder = SslContextBuilder.forServer(ContextBuilder.keyManager(cert));
        if (verifier != null) {
            builder.clientAuth(options.verify.equals("required") ? ClientAuth.REQUIRE : ClientAuth.OPTIONAL).trustManager(verifier);
        }
        SslContext context = ContextBuilder.build(builder, options);
        if (keylog) {
            KeyLog.enable(context);
        }
        return context;
    }
}
