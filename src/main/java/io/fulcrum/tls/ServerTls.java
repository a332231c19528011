package io.fulcrum.tls;

import io.fulcrum.sample.Expr;
import io.fulcrum.server.ServerSpec;

/** The TLS options of a {@code server} or {@code default-server} line (configuration.txt 5.2), as parsed. */
final class ServerTls extends TlsOptions implements ServerSpec.ServerPart {
    boolean ssl;
    /** "none" or "required"; null: {@code ssl-server-verify} (required by default). */
    String verify;
    String caFile;
    String crlFile;
    /** Where the line's CA and CRL files are kept (set with them): the CLI's view of them. */
    CertStore store;
    /** {@code crt}: the client certificate to present. */
    String crt;
    /** {@code sni}: the expression giving the name to send, or null for none. */
    Expr sni;
    String sniText;
    boolean noReuse;
    /** {@code verifyhost}: the name the certificate must have when no SNI is sent, or null. */
    String verifyHost;

    @Override
    public ServerTls copy() {
        return (ServerTls) copyOptions();
    }
}
