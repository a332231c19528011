package io.fulcrum.runtime;

import io.fulcrum.backend.Backend;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;
import io.fulcrum.listener.Listener;
import io.fulcrum.server.Server;
import io.netty.channel.Channel;
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.DuplexChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.UnixChannel;
import io.netty.handler.ssl.SslHandler;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.Executor;

/**
 * {@code show fd [<fd>]} (management.txt 9.3): every socket the event loops poll, as HAProxy 2.6 lays it out. The
 * list is each loop's own ({@link ActivityIoHandler}), read on the loop; the state letters are the channel's:
 * reading enabled ({@code R:A}), writable ({@code W:R}), shut directions ({@code S}). Owners and callbacks are
 * identity hashes: there are no pointers to show. Each line ends with what HAProxy 2.6 does not show: {@code evts},
 * the I/O events the loop handed to the socket since it was registered ({@link CountingEpollHandle}).
 */
final class FdCommand {
    private FdCommand() {
    }

    static void register(CliCommands c) {
        c.add("show fd", "show fd [num]", "dump list of file descriptors in use or a specific one", CliLevel.OPERATOR, FdCommand::show);
    }

    private static void show(CliRequest r) {
        // As HAProxy: a number shows that descriptor only, so a negative one (or a word, atoi's 0) shows none.
        boolean one = !r.arg(2).isEmpty();
        int only = one ? r.atoi(2) : -1;
        Fulcrum p = r.process();
        TreeMap<Integer, String> lines = new TreeMap<>();
        for (LoopActivity a : p.loops().activitiesWithCli()) {
            ActivityIoHandler h = a.handler;
            if (h == null) {
                continue;
            }
            List<Socket> sockets = new ArrayList<>();
            submit(a.loop, () -> h.eachChannel((ch, events) -> sockets.add(new Socket(ch, events))));
            for (Socket s : sockets) {
                int fd = s.channel instanceof UnixChannel u && u.fd().isOpen() ? u.fd().intValue() : -1;
                if (fd >= 0 && (!one || fd == only)) {
                    lines.put(fd, line(fd, s, Math.max(0, a.index), p));
                }
            }
        }
        StringBuilder b = new StringBuilder();
        lines.values().forEach(b::append);
        r.print(b);
    }

    /** A socket of a loop and the I/O events the loop handed to it so far. */
    private record Socket(Channel channel, long events) {
    }

    /** Runs {@code task} on {@code loop} and waits for it (the CLI runs beside the loops). */
    private static void submit(Executor loop, Runnable task) {
        java.util.concurrent.FutureTask<Void> f = new java.util.concurrent.FutureTask<>(task, null);
        loop.execute(f);
        try {
            f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    private static String line(int fd, Socket s, int thread, Fulcrum p) {
        return body(fd, s.channel, thread, p) + " evts=" + s.events + '\n';
    }

    /** The line of HAProxy 2.6's layout, without its end. */
    private static String body(int fd, Channel ch, int thread, Fulcrum p) {
        boolean reading = ch.config().isAutoRead();
        boolean writable = ch.isWritable();
        boolean inShut = ch instanceof DuplexChannel d && d.isInputShutdown();
        boolean outShut = ch instanceof DuplexChannel d && d.isOutputShutdown();
        int st = (reading ? 0x01 : 0) | (inShut ? 0x04 : 0) | (writable ? 0x20 : 0x10) | (outShut ? 0x40 : 0);
        long mask = 1L << thread;
        StringBuilder b = new StringBuilder(200);
        b.append(String.format("%7d : st=0x%06x(cl heopi W:%c%c%c R:%c%c%c) ref=0 gid=1 tmask=0x%x umask=0x0 prmsk=0x%x pwmsk=0x%x",
                fd, st, outShut ? 'S' : 's', writable ? 'R' : 'r', writable ? 'a' : 'A', inShut ? 'S' : 's', 'r',
                reading ? 'A' : 'a', mask, reading ? mask : 0, writable ? 0 : mask));
        b.append(" owner=0x").append(Integer.toHexString(System.identityHashCode(ch)));
        if (ch instanceof ServerChannel) {
            Listener l = p.listeners().stream().filter(x -> x.owns(ch)).findFirst().orElse(null);
            b.append(" iocb=0x").append(Integer.toHexString(System.identityHashCode(ServerChannel.class))).append("(sock_accept_iocb)")
                    .append(" l.st=").append(reading ? "RDY" : "PAU").append(" fe=").append(l == null ? "?" : l.owner());
            family(b, ch.localAddress(), null);
            return b.toString();
        }
        boolean back = ch.parent() == null;
        b.append(" iocb=0x").append(Integer.toHexString(System.identityHashCode(Channel.class))).append("(sock_conn_iocb) back=")
                .append(back ? 1 : 0).append(" cflg=0x00000300 cerr=0");
        family(b, ch.localAddress(), ch.remoteAddress());
        if (back) {
            Server s = server(p, ch.remoteAddress());
            b.append(s == null ? " px=?" : " sv=" + s.id());
        } else {
            Listener l = Listener.of(ch);
            b.append(" fe=").append(l == null ? "?" : l.owner());
        }
        Object first = ch.pipeline().first();
        b.append(" mux=").append(ch.pipeline().get("h1") != null || ch.pipeline().get("h1-server") != null ? "H1" : "PASS")
                .append(" ctx=0x").append(Integer.toHexString(System.identityHashCode(first)))
                .append(" xprt=").append(ch.pipeline().get(SslHandler.class) != null ? "SSL" : "RAW");
        return b.toString();
    }

    private static void family(StringBuilder b, SocketAddress local, SocketAddress remote) {
        if (local instanceof DomainSocketAddress) {
            b.append(" fam=unix");
            return;
        }
        if (local instanceof InetSocketAddress l) {
            b.append(" fam=").append(l.getAddress() instanceof Inet6Address ? "ipv6" : "ipv4").append(" lport=").append(l.getPort());
            if (remote instanceof InetSocketAddress r) {
                b.append(" rport=").append(r.getPort());
            }
        }
    }

    /** The server a connection goes to, by its address. */
    private static Server server(Fulcrum p, SocketAddress remote) {
        for (Backend be : p.backends().values()) {
            for (Server s : be.servers()) {
                if (s.endpoint() != null && remote != null && remote.equals(s.target(remote))) {
                    return s;
                }
            }
        }
        return null;
    }
}
