package io.fulcrum.mailers;

import io.fulcrum.cfg.Source;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/** A {@code mailers} section (configuration.txt 3.6): its mailers and {@code timeout mail} (10s by default). */
final class MailersSpec {
    /** A {@code mailer <name> <ip>:<port>} line. */
    record Mailer(String name, InetSocketAddress address) {
    }

    final String name;
    final Source source;
    final List<Mailer> mailers = new ArrayList<>();
    long timeoutMs = 10_000;

    MailersSpec(String name, Source source) {
        this.name = name;
        this.source = source;
    }
}
