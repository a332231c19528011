package io.fulcrum.mux.h1;

import io.fulcrum.backend.Backend;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.conn.InetText;
import io.fulcrum.log.LogDates;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.server.Server;

import java.net.SocketAddress;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The last invalid request of each frontend and the last invalid response of each backend, for {@code show errors}
 * (HAProxy's per-proxy error snapshots). Only the error path writes here: the parser's bytes are copied then, never
 * before; the maps are concurrent because any event loop may refuse a message while the CLI reads.
 */
public final class H1Errors {
    private final int bufsize;
    private final AtomicInteger events = new AtomicInteger();
    /** By proxy id. */
    private final Map<Integer, H1ErrorSnapshot> requests = new ConcurrentHashMap<>();
    private final Map<Integer, H1ErrorSnapshot> responses = new ConcurrentHashMap<>();

    /** @param bufsize {@code tune.bufsize}, the most bytes a capture keeps */
    public H1Errors(int bufsize) {
        this.bufsize = bufsize;
    }

    /** The most bytes a capture keeps. */
    public int bufsize() {
        return bufsize;
    }

    /** A request {@code fe} refused. */
    public void request(Frontend fe, SocketAddress source, H1Capture capture, H1Exception e) {
        requests.put(fe.numericId(), new H1ErrorSnapshot(System.currentTimeMillis(), events.getAndIncrement(), true, fe.name(),
                fe.numericId(), null, -1, null, -1, InetText.withPort(source), capture, e.position()));
    }

    /** A response of {@code server} that {@code be} refused, for a client of {@code fe}. */
    public void response(Backend be, Frontend fe, Server server, SocketAddress source, H1Capture capture, H1Exception e) {
        responses.put(be.numericId(), new H1ErrorSnapshot(System.currentTimeMillis(), events.getAndIncrement(), false, be.name(),
                be.numericId(), fe.name(), fe.numericId(), server == null ? null : server.name(), server == null ? -1 : server.numericId(),
                InetText.withPort(source), capture, e.position()));
    }

    /**
     * What {@code show errors [<iid>|<proxy>] [request|response]} prints.
     *
     * @param proxyIds the ids of the proxies, in their order of declaration
     * @param only     a proxy id, or -1 for all
     * @param which    "request", "response", or anything else for both
     */
    String show(Iterable<Integer> proxyIds, int only, String which) {
        StringBuilder out = new StringBuilder("Total events captured on [");
        LogDates.accept(out, System.currentTimeMillis());
        out.append("] : ").append(events.get()).append('\n');
        for (int id : proxyIds) {
            if (!which.equals("response")) {
                append(out, requests.get(id), only);
            }
            if (!which.equals("request")) {
                append(out, responses.get(id), only);
            }
        }
        return out.toString();
    }

    /** Appends {@code s} if it concerns proxy {@code only} (or -1): as HAProxy, a response concerns its frontend too. */
    private void append(StringBuilder out, H1ErrorSnapshot s, int only) {
        if (s != null && (only == -1 || s.proxyId() == only || s.other() != null && s.otherId() == only)) {
            s.appendTo(out, bufsize);
        }
    }

    /** {@code show errors [<iid>|<proxy>] [request|response]} (management.txt 9.3). */
    static void register(CliCommands c) {
        c.add("show errors", "show errors [<px>] [request|response]", "report last request and/or response errors for each proxy",
                CliLevel.OPERATOR, r -> {
                    Map<Integer, String> proxies = new TreeMap<>(); // by id: the order of declaration, as HAProxy lists them
                    r.process().frontends().forEach(f -> proxies.put(f.numericId(), f.name()));
                    r.process().backends().values().forEach(b -> proxies.put(b.numericId(), b.name()));
                    int only = proxyId(r.arg(2), proxies);
                    r.print(r.process().h1Errors().show(proxies.keySet(), only, r.arg(3)));
                });
    }

    /**
     * The proxy id {@code arg} names, as HAProxy reads it: a proxy's name, else a number as atoi() reads it (-1 for
     * all); none for 0. Without an argument, -1.
     */
    static int proxyId(String arg, Map<Integer, String> proxies) throws CliException {
        if (arg.isEmpty()) {
            return -1;
        }
        for (Map.Entry<Integer, String> p : proxies.entrySet()) {
            if (p.getValue().equals(arg)) {
                return p.getKey();
            }
        }
        Matcher m = ATOI.matcher(arg);
        int id = 0;
        if (m.lookingAt()) {
            try {
                id = Integer.parseInt(m.group(1));
            } catch (NumberFormatException e) {
                id = 0; // out of range: atoi() is undefined there; nothing sensible to show
            }
        }
        if (id == 0) {
            throw new CliException("No such proxy.\n");
        }
        return id;
    }

    private static final Pattern ATOI = Pattern.compile("\\s*([-+]?\\d+)");
}
