package io.fulcrum.conn;

import com.sun.jna.LastErrorException;
import io.fulcrum.runtime.LibC;
import io.netty.channel.DefaultChannelId;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A Linux network namespace named on a {@code bind} or {@code server} line ({@code namespace <name>}): the sockets
 * made inside it belong to it, and bind and connect there. As HAProxy, the namespace is {@code /var/run/netns/<name>}
 * (what {@code ip netns add} makes), opened once when the configuration is read; a socket is made by entering it on
 * the calling thread for the socket() call only, then going back.
 */
public final class NetNamespace {
    private static final String RUN_DIR = "/var/run/netns/";
    private static final int O_RDONLY = 0;
    private static final int CLONE_NEWNET = 0x40000000;
    /** Namespaces by name, each opened once for the process (HAProxy's netns store). */
    private static final Map<String, NetNamespace> OPENED = new ConcurrentHashMap<>();
    /** The process's own namespace, where a thread goes back to: opened with the first namespace, at load. */
    private static volatile int home = -1;

    private final String name;
    private final int fd;

    private NetNamespace(String name, int fd) {
        this.name = name;
        this.fd = fd;
    }

    /** The namespace of that name, opened on first use; null when it cannot be opened (HAProxy's "Cannot open namespace"). */
    public static NetNamespace open(String name) {
        try {
            openHome();
            return OPENED.computeIfAbsent(name, n -> new NetNamespace(n, LibC.calls().open(RUN_DIR + n, O_RDONLY)));
        } catch (LastErrorException | UnsatisfiedLinkError e) {
            return null;
        }
    }

    public String name() {
        return name;
    }

    /** What {@code make} returns, made with the calling thread in this namespace (a socket: created there). */
    public <T> T inside(Supplier<T> make) {
        LibC.Calls c = LibC.calls();
        c.setns(fd, CLONE_NEWNET);
        try {
            return make.get();
        } finally {
            c.setns(home, CLONE_NEWNET);
        }
    }

    /** Opens the process's namespace while the reading thread is still in it (no socket was made elsewhere yet). */
    private static synchronized void openHome() {
        if (home < 0) {
            home = LibC.calls().open("/proc/thread-self/ns/net", O_RDONLY);
            // Netty reads the host's hardware address when it names its first channel: here, not in a namespace
            // that may have none.
            DefaultChannelId.newInstance();
        }
    }
}
