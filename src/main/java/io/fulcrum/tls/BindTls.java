package io.fulcrum.tls;

import java.util.ArrayList;
import java.util.List;

/** The TLS options of a {@code bind} line (configuration.txt 5.1), as parsed. */
final class BindTls extends TlsOptions {
    /** {@code ssl}: without it the line's certificates are loaded (and checked) but the socket is plain. */
    boolean ssl;
    /** {@code crt}: files or directories, in order; the first certificate is the default one. */
    final List<String> crts = new ArrayList<>();
    boolean strictSni;
}
