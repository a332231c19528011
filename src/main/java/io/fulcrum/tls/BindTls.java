package io.fulcrum.tls;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The TLS options of a {@code bind} line (configuration.txt 5.1), as parsed. */
final class BindTls extends BindOptions {
    /** {@code ssl}: without it the line's certificates are loaded (and checked) but the socket is plain. */
    boolean ssl;
    /** {@code crt} (files or directories) and {@code crt-list} arguments, in order: the first certificate is the default. */
    final List<CertSource> crts = new ArrayList<>();
    boolean strictSni;
    /** {@code ca-ignore-err}, {@code crt-ignore-err}: the verification errors to let pass; null for none, empty for all. */
    Set<Integer> caIgnoreErr;
    Set<Integer> crtIgnoreErr;
    /** {@code tls-ticket-keys}: the keys of the tickets, or null for the engine's own random ones. */
    TicketKeys ticketKeys;
    /** {@code generate-certificates} with the CA of {@code ca-sign-file} (and its {@code ca-sign-pass}). */
    boolean generateCertificates;
    String caSignFile;
    String caSignPass;

    /** A {@code crt} or a {@code crt-list} argument. */
    record CertSource(boolean list, String path) {
    }
}
