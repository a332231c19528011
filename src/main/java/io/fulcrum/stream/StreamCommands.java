package io.fulcrum.stream;

import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliConnection;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerLookup;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * {@code show sess [all|<id>]}, {@code shutdown session <id>}, {@code shutdown sessions server <b>/<s>}
 * (management.txt 9.3), over the event loops' {@link LiveStreams}.
 */
final class StreamCommands {
    private StreamCommands() {
    }

    static void register(CliCommands c) {
        c.add("show sess", "show sess [id]", "report the list of current sessions or dump this exact session", CliLevel.OPERATOR,
                StreamCommands::show);
        c.add("shutdown session", "shutdown session [id]", "kill a specific session", CliLevel.ADMIN, r -> {
            long id = pointer(r.arg(2));
            if (id == 0) {
                throw new CliException("Session pointer expected (use 'show sess').\n");
            }
            if (LiveStreams.each(r.process().loops(), LiveStreams.withId(id), s -> s.kill('K'), true) == 0) {
                CliConnection cli = r.connections().stream().filter(x -> x.id() == id).findFirst()
                        .orElseThrow(() -> new CliException("No such session (use 'show sess').\n"));
                cli.channel().close();
            }
        });
        c.add("shutdown sessions server", "shutdown sessions server <bk>/<srv>", "kill sessions on a server", CliLevel.ADMIN, r -> {
            Server srv = ServerLookup.server(r.process(), r.arg(3)).server();
            LiveStreams.each(r.process().loops(), onServer(srv), s -> s.kill('K'), true);
        });
    }

    /** The streams whose server is {@code srv}. */
    static Predicate<LiveStream> onServer(Server srv) {
        return s -> s.server() == srv;
    }

    private static void show(CliRequest r) throws CliException {
        String arg = r.arg(2);
        boolean all = arg.equals("all");
        long id = all ? 0 : pointer(arg);
        List<StreamView> views = new ArrayList<>(LiveStreams.collect(r.process().loops(), id == 0 ? s -> true : LiveStreams.withId(id)));
        r.connections().stream().filter(c -> id == 0 || c.id() == id).sorted(Comparator.comparingLong(CliConnection::id))
                .forEach(c -> views.add(StreamView.of(c)));
        if (id != 0 && views.isEmpty()) {
            throw new CliException("Session not found.\n");
        }
        StringBuilder b = new StringBuilder();
        for (StreamView v : views) {
            b.append(all || id != 0 ? v.detail() : v.line());
        }
        r.print(b);
    }

    /**
     * A stream id as HAProxy reads a pointer (strtoul with base 0): "0x" hexadecimal, a leading 0 octal, else
     * decimal, up to the first character that does not fit; 0 when there is none.
     */
    static long pointer(String text) {
        String t = text.strip();
        int radix = 10;
        int i = 0;
        if (t.startsWith("0x") || t.startsWith("0X")) {
            radix = 16;
            i = 2;
        } else if (t.startsWith("0")) {
            radix = 8;
        }
        long v = 0;
        for (; i < t.length(); i++) {
            int d = Character.digit(t.charAt(i), radix);
            if (d < 0) {
                break;
            }
            v = v * radix + d;
        }
        return v;
    }
}
