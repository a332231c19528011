package io.fulcrum.master;

import io.fulcrum.cfg.Source;

import java.util.List;

/** A {@code program <name>} section (configuration.txt 3.7): what the master starts beside its workers. */
final class ProgramSpec {
    final String name;
    final Source source;
    /** {@code command}: the program and its arguments, as written; empty until given. */
    List<String> command = List.of();
    /** {@code user} and {@code group}: whom it runs as, or null to run as the master. */
    String user;
    String group;
    /** {@code option start-on-reload} (the default): a reload starts a new instance. */
    boolean startOnReload = true;

    ProgramSpec(String name, Source source) {
        this.name = name;
        this.source = source;
    }
}
