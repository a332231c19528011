package io.fulcrum.stream;

import io.fulcrum.cli.CliConnection;
import io.fulcrum.cli.CliSettings;
import io.fulcrum.cli.HumanTime;
import io.fulcrum.conn.InetText;
import io.fulcrum.listener.Listener;
import io.fulcrum.log.LogDates;
import io.netty.channel.Channel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.UnixChannel;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * A stream as {@code show sess} prints it, taken on the stream's loop and formatted on the CLI's thread.
 * HAProxy's line carries its internal channel and task flags; Fulcrum has no such flags and prints them 0,
 * and fills what it knows: addresses, proxies, server, age, events handled, the sockets and the next timeout.
 *
 * @param serverSide HAProxy's number for the server side's state (0 none yet, 2 queued, 5 connecting, 8 established)
 * @param expiresIn  milliseconds until the stream's next timeout, or -1
 * @param clientExpiresIn milliseconds until reading the client times out ({@code rq[rx=]}), or -1
 * @param serverExpiresIn milliseconds until reading the server times out ({@code rp[rx=]}), or -1
 */
record StreamView(long id, long startMillis, long ageMillis, int calls,
                  SocketAddress source, SocketAddress listener, int frontFd,
                  String frontend, int frontendId, boolean http,
                  String backend, int backendId, String server, int serverId,
                  SocketAddress serverLocal, SocketAddress serverAddress, int backFd,
                  int serverSide, long expiresIn, long clientExpiresIn, long serverExpiresIn) {

    /**
     * A stats socket's session, as HAProxy lists its CLI streams: the GLOBAL frontend, no backend, the command
     * applet as the server side (established, without a socket), and the idle timeout as the request's.
     */
    static StreamView of(CliConnection c) {
        long now = System.nanoTime();
        long idle = c.idleDeadline() == Long.MAX_VALUE ? -1 : Math.max(0, (c.idleDeadline() - now) / 1_000_000);
        Channel ch = c.channel();
        Listener l = Listener.of(ch);
        return new StreamView(c.id(), c.startMillis(), (now - c.startNanos()) / 1_000_000, (int) c.lines(),
                unixByListener(ch.remoteAddress(), l), unixByListener(ch.localAddress(), l), fd(ch), CliSettings.OWNER, 0, false, null, -1, null, -1, null, null, -1,
                8, idle, idle, -1);
    }

    /** The socket's descriptor, or -1 without one (no connection, or not a native transport). */
    static int fd(Channel ch) {
        return ch instanceof UnixChannel u && u.fd().isOpen() ? u.fd().intValue() : -1;
    }

    /** The stream's line in {@code show sess}, as HAProxy 2.6 lays it out. */
    String line() {
        StringBuilder b = new StringBuilder(320);
        b.append(pointerText()).append(": proto=").append(proto()).append(" src=").append(InetText.withPort(source))
                .append(" fe=").append(frontend).append(" be=").append(backend == null ? "<NONE>" : backend)
                .append(" srv=").append(server == null ? "<none>" : server)
                .append(" ts=00 epoch=0 age=").append(humanTime(ageMillis / 1000)).append(" calls=").append(calls)
                .append(" rate=0 cpu=0 lat=0")
                .append(" rq[f=000000h,i=0,an=00h,rx=").append(timeText(clientExpiresIn))
                .append(",wx=,ax=] rp[f=000000h,i=0,an=00h,rx=").append(timeText(serverExpiresIn)).append(",wx=,ax=]")
                .append(" scf=[8,0h,fd=").append(frontFd).append("] scb=[").append(serverSide).append(",0h,fd=").append(backFd)
                .append("] exp=").append(expires()).append(" rc=0 c_exp=\n");
        return b.toString();
    }

    /** The stream in detail ({@code show sess all}, {@code show sess <id>}): HAProxy's lines that Fulcrum can fill. */
    String detail() {
        StringBuilder b = new StringBuilder(600);
        b.append(pointerText()).append(": [");
        LogDates.accept(b, startMillis);
        b.append("000] proto=").append(proto()).append(" source=").append(InetText.withPort(source)).append('\n');
        String mode = http ? "http" : "tcp";
        b.append("  frontend=").append(frontend).append(" (id=").append(frontendId).append(" mode=").append(mode)
                .append(") addr=").append(InetText.withPort(listener)).append('\n');
        if (backend == null) {
            b.append("  backend=<NONE> (id=-1 mode=-)\n");
        } else {
            b.append("  backend=").append(backend).append(" (id=").append(backendId).append(" mode=").append(mode).append(')');
            if (serverLocal != null) {
                b.append(" addr=").append(InetText.withPort(serverLocal));
            }
            b.append('\n');
        }
        if (server == null) {
            b.append("  server=<NONE> (id=-1)\n");
        } else {
            b.append("  server=").append(server).append(" (id=").append(serverId).append(')');
            if (serverAddress != null) {
                b.append(" addr=").append(InetText.withPort(serverAddress));
            }
            b.append('\n');
        }
        b.append("  task (calls=").append(calls).append(" exp=").append(expiresIn < 0 ? "<NEVER>" : expires())
                .append(" age=").append(humanTime(ageMillis / 1000)).append(")\n");
        b.append("  scf state=EST fd=").append(frontFd).append('\n');
        b.append("  scb state=").append(stateName(serverSide)).append(" fd=").append(backFd).append('\n');
        return b.toString();
    }

    /** HAProxy names both ends of a unix socket by its listener's id: "unix:1". */
    static SocketAddress unixByListener(SocketAddress a, Listener l) {
        return a instanceof DomainSocketAddress && l != null ? new DomainSocketAddress(Integer.toString(l.numericId())) : a;
    }

    private String pointerText() {
        return "0x" + Long.toHexString(id);
    }

    private String proto() {
        if (listener instanceof DomainSocketAddress) {
            return "unix_stream";
        }
        return listener instanceof InetSocketAddress i && i.getAddress() instanceof Inet6Address ? "tcpv6" : "tcpv4";
    }

    private String expires() {
        return timeText(expiresIn);
    }

    /** A timeout as HAProxy shows one: empty when none runs. */
    private static String timeText(long millis) {
        return millis < 0 ? "" : humanTime(millis / 1000);
    }

    private static String stateName(int state) {
        return switch (state) {
            case 2 -> "QUE";
            case 5 -> "CON";
            case 8 -> "EST";
            default -> "INI";
        };
    }

    /** HAProxy's human_time(): at most two units among d, h, m, s; "0s" for 0. */
    static String humanTime(long seconds) {
        return HumanTime.of(seconds);
    }
}
