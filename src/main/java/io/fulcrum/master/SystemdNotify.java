package io.fulcrum.master;

import io.fulcrum.cfg.Diagnostics;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.Socket;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * {@code -Ws}: the state messages of systemd's notify protocol (READY=1, RELOADING=1, STOPPING=1) sent as
 * datagrams to the unix socket named by {@code NOTIFY_SOCKET} ("@name": Linux's abstract namespace). Java has
 * no unix datagram socket: Netty's native one sends them.
 */
public final class SystemdNotify {
    private final byte[] address;
    private final Socket socket;
    private final Diagnostics diag;

    private SystemdNotify(byte[] address, Socket socket, Diagnostics diag) {
        this.address = address;
        this.socket = socket;
        this.diag = diag;
    }

    /** The notifier named by {@code NOTIFY_SOCKET}, or null when systemd did not set it (HAProxy then sends nothing). */
    public static SystemdNotify fromEnvironment(Diagnostics diag) {
        String name = System.getenv("NOTIFY_SOCKET");
        if (name == null || name.isEmpty() || !Epoll.isAvailable()) {
            return null;
        }
        // The abstract namespace's address is its exact bytes, a NUL first, without padding.
        String path = name.charAt(0) == '@' ? "\0" + name.substring(1) : name;
        return new SystemdNotify(path.getBytes(StandardCharsets.UTF_8), Socket.newSocketDomainDgram(), diag);
    }

    /** Sends one state message; a lost one is not fatal (systemd then times the unit out). */
    synchronized void send(String state) {
        byte[] b = state.getBytes(StandardCharsets.UTF_8);
        ByteBuffer direct = ByteBuffer.allocateDirect(b.length).put(b).flip();
        try {
            socket.sendToDomainSocket(direct, 0, b.length, address);
        } catch (IOException e) {
            diag.warning("Cannot notify systemd on " + new String(address, StandardCharsets.UTF_8).replace('\0', '@') + ": " + e.getMessage());
        }
    }
}
