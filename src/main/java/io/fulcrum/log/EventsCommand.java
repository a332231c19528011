package io.fulcrum.log;

import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;
import io.fulcrum.cli.Severity;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code show events [<sink>] [-w] [-n]}: lists the event sinks, or dumps a ring's messages, a line each; {@code -w}
 * then waits for new ones until the client sends anything or closes, {@code -n} skips those already there.
 */
final class EventsCommand {
    private EventsCommand() {
    }

    private static final int BATCH = 256;
    /** How often a waiting dump checks whether its client went away. */
    private static final long POLL_MILLIS = 200;

    static void register(CliCommands commands) {
        commands.add("show events", "show events [<sink>] [-w] [-n]", "show event sink state", CliLevel.USER, EventsCommand::run);
    }

    private static void run(CliRequest req) throws CliException {
        Sinks sinks = req.process().logging().sinks();
        if (req.arg(2).isEmpty()) {
            req.print(sinks.list());
            return;
        }
        Ring ring = sinks.ring(req.arg(2));
        if (ring == null && !Sinks.BUILTIN.contains(req.arg(2))) {
            throw new CliException("No such event sink");
        }
        boolean wait = false;
        boolean skip = false;
        for (int i = 3; i < req.size(); i++) {
            switch (req.arg(i)) {
                case "-w" -> wait = true;
                case "-n" -> skip = true;
                case "-wn", "-nw" -> wait = skip = true;
                default -> throw new CliException("unknown option");
            }
        }
        if (ring == null) {
            req.feedback(Severity.NOTICE, "Nothing to report for this sink");
            return;
        }
        Ring.Cursor cursor = ring.cursor(skip);
        List<byte[]> batch = new ArrayList<>();
        try {
            // What is there now, not what comes while it is dumped (without -w, the dump ends).
            for (long end = ring.end(); cursor.next < end && ring.read(cursor, batch, (int) Math.min(BATCH, end - cursor.next), 0) > 0; ) {
                print(req, batch);
            }
            while (wait && req.flush()) {
                ring.read(cursor, batch, BATCH, POLL_MILLIS);
                print(req, batch);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void print(CliRequest req, List<byte[]> batch) {
        for (byte[] m : batch) {
            req.print(new String(m, StandardCharsets.ISO_8859_1)).print("\n");
        }
        batch.clear();
    }
}
