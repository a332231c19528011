package io.fulcrum.runtime;

import io.fulcrum.Version;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;

import java.util.Map;

/** The process-level CLI commands: show version, show env, show startup-logs, show libs. */
final class ProcessCommands {
    private ProcessCommands() {
    }

    static void register(CliCommands c) {
        c.add("show version", "show version", "show version of the current process", CliLevel.USER,
                r -> r.print(Version.FULCRUM + "\n"));
        c.add("show env", "show env [var]", "dump environment variables known to the process", CliLevel.OPERATOR, r -> {
            Map<String, String> env = r.process().environment();
            if (!r.arg(2).isEmpty()) {
                String v = env.get(r.arg(2));
                if (v == null) {
                    throw new CliException("Variable not found\n");
                }
                r.print(r.arg(2) + "=" + v + "\n");
                return;
            }
            StringBuilder b = new StringBuilder();
            env.forEach((k, v) -> b.append(k).append('=').append(v).append('\n'));
            r.print(b);
        });
        c.add("show startup-logs", "show startup-logs", "report logs emitted during HAProxy startup", CliLevel.OPERATOR, r -> {
            String log = r.process().diagnostics().startupLog();
            r.print(log.isEmpty() ? "\n" : log); // HAProxy's answer for none is an empty line too
        });
        c.add("show libs", "show libs", "show loaded object files and libraries", CliLevel.OPERATOR, r -> {
            StringBuilder b = new StringBuilder();
            for (LoadedObjects.Mapped m : LoadedObjects.mapped()) {
                b.append(String.format("%#x-%#x (%#09x) %s%n", m.start(), m.last(), m.last() - m.start() + 1, m.path()));
            }
            r.print(b);
        });
    }
}
