package io.fulcrum.cli;

import io.fulcrum.listener.BindSpec;

/** What a {@code bind} or {@code stats socket} line says for CLI sessions: {@code level}, {@code severity-output}. */
final class CliSocketOptions {
    CliLevel level = CliLevel.OPERATOR;
    Severity.Output severity = Severity.Output.NONE;

    static CliSocketOptions of(BindSpec bind) {
        return bind.part(CliSocketOptions.class, CliSocketOptions::new);
    }
}
