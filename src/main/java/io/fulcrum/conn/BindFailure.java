package io.fulcrum.conn;

import java.net.InetSocketAddress;

/** HAProxy 2.6's alert for a listening socket that could not be bound (protocol_bind_all()). */
public final class BindFailure {
    private BindFailure() {
    }

    /**
     * "Binding [file:line] for frontend fe: cannot bind socket (Address already in use) for [127.0.0.1:80]".
     *
     * @param where the line that asked for the socket
     * @param owner how HAProxy names its owner: "frontend fe", "proxy app" (a listen section)
     */
    public static String alert(Object where, String owner, InetSocketAddress address, Throwable cause) {
        return alert(where, owner, address, reason(cause));
    }

    public static String alert(Object where, String owner, InetSocketAddress address, String reason) {
        return prefix(where, owner) + "cannot bind socket (" + reason + ") for [" + InetText.withPort(address) + "]";
    }

    /** What every such alert starts with: "Binding [file:line] for frontend fe: ". */
    public static String prefix(Object where, String owner) {
        return "Binding [" + where + "] for " + owner + ": ";
    }

    /** The system's words for why a socket failed: Netty's native errors read "bind(..) failed with error(-98): Address already in use". */
    public static String reason(Throwable t) {
        String m = t.getMessage();
        if (m == null) {
            return t.getClass().getSimpleName();
        }
        return m.contains("failed") ? m.substring(m.lastIndexOf(": ") + 2) : m;
    }
}
