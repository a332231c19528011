package io.fulcrum.tls;

import io.netty.handler.ssl.SslContext;

/**
 * A server line's (or its health checks') TLS layer presenting a client certificate file ({@code crt}), as the store
 * knows it. A commit of the file makes a context with the line's options and the new certificate, which the next
 * connections use; the sessions kept to resume stay with the old context, as HAProxy flushes a server's sessions
 * then (they were made with the old certificate).
 *
 * @param line     false for a health check's layer (HAProxy counts one instance per server line)
 * @param verifier the line's verifier, which must know the sessions of the new context, or null
 */
record ServerCert(String file, boolean line, TlsBackend backend, HostVerifier verifier, Factory factory) {
    /** Makes the context of the line with another certificate. */
    interface Factory {
        SslContext build(CertKey cert) throws ContextBuilder.OptionError;
    }

    SslContext prepare(CertKey cert) throws ContextBuilder.OptionError {
        return factory.build(cert);
    }

    void publish(SslContext context) {
        if (verifier != null) {
            verifier.sessions(context.sessionContext());
        }
        backend.context(context);
    }
}
