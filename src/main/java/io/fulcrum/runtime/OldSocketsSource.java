package io.fulcrum.runtime;

import io.fulcrum.cfg.Diagnostics;

import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * {@code -x <socket>}: HAProxy connects to the old process's CLI socket ({@code expose-fd listeners}) and takes its
 * listening sockets over, so that no connection waiting in their queues is lost at a reload. Fulcrum has no such
 * transfer yet: its listeners use SO_REUSEPORT, so the new process binds its own next to the old one's, and the old
 * one closes them when {@code -sf} tells it to stop. What HAProxy checks is checked: an unreachable socket fails the
 * start with its messages; a reachable one gets a warning that its sockets are not taken.
 */
public final class OldSocketsSource {
    private OldSocketsSource() {
    }

    /** False, after HAProxy's warning and alert, when {@code path} cannot be connected to. */
    public static boolean check(String path, Diagnostics diag) {
        try (SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(Path.of(path)))) {
            diag.warning("-x '" + path + "': Fulcrum does not take the listening sockets of the old process over yet; it binds"
                    + " its own next to them (SO_REUSEPORT; with noreuseport, after -sf's pause of the old process).");
            return true;
        } catch (IOException | RuntimeException e) {
            diag.warning("Failed to connect to the old process socket '" + path + "'");
            diag.alert("Failed to get the sockets from the old process!");
            return false;
        }
    }
}
