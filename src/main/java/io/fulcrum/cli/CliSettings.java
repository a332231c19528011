package io.fulcrum.cli;

import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.conn.InetText;
import io.fulcrum.listener.BindSpec;
import io.fulcrum.listener.Listener;
import io.fulcrum.runtime.Fulcrum;
import io.netty.channel.ChannelHandler;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The global {@code stats socket}, {@code stats timeout} and {@code stats maxconn} settings. */
public final class CliSettings {
    /** The name HAProxy gives the proxy of its stats sockets (in messages and {@code show cli sockets}). */
    public static final String OWNER = "GLOBAL";

    public final List<BindSpec> sockets = new ArrayList<>();
    /** Idle time allowed between two commands (10 s, as HAProxy). */
    public long timeoutMs = 10_000;
    /** Connections the stats sockets take together (10, as HAProxy). */
    public int maxconn = 10;
    /** Every subsystem's commands (set once the configuration is read). */
    CliCommands commands;
    /** The open sessions ({@code show sess}). */
    private final Set<CliSession> live = ConcurrentHashMap.newKeySet();

    public static CliSettings of(ConfigModel model) {
        return model.part(CliSettings.class, CliSettings::new);
    }

    /** An admin socket that no configuration line declares: a master's private channel to its worker. */
    public void addPrivateSocket(BindSpec socket) {
        CliSocketOptions.of(socket).level = CliLevel.ADMIN;
        sockets.add(socket);
    }

    /** Prepares the first answers in the background (nothing without a stats socket). */
    public void warmUp(Fulcrum process) {
        if (!sockets.isEmpty()) {
            CliSession.warmUp(new CliSession(commands, process, new CliSocketOptions(), timeoutMs, 1024, null));
        }
    }

    /**
     * What serves a new connection to a stats socket.
     *
     * @param maxLine the longest command line accepted ({@code tune.bufsize})
     */
    public ChannelHandler session(Fulcrum process, BindSpec socket, int maxLine) {
        return new CliSession(commands, process, CliSocketOptions.of(socket), timeoutMs, maxLine, live);
    }

    /**
     * "unix@/path", "ipv4@127.0.0.1:9999", "ipv6@[::1]:9999", as HAProxy names its sockets; an inherited one
     * ({@code fd@N}) by the address it is bound to, as HAProxy does for an IP socket.
     */
    public static String socketName(Listener l) {
        Endpoint e = l.endpoint();
        if (e instanceof Endpoint.Fd && l.localAddress() instanceof InetSocketAddress a) {
            return inetName(a.getAddress(), a.getPort());
        }
        return e instanceof Endpoint.Inet inet ? inetName(inet.host(), inet.port()) : e.toString();
    }

    private static String inetName(InetAddress host, int port) {
        return (host instanceof Inet6Address ? "ipv6@" : "ipv4@") + InetText.bracketed(host) + ":" + port;
    }
}
