package io.fulcrum.conn;

import io.fulcrum.proxy.ProxyPart;

/** A proxy's socket options ({@code option tcpka}, {@code nolinger}, {@code splice-*}); inherited from defaults. */
public final class SocketOptions implements ProxyPart {
    public boolean clientKeepAlive;
    public boolean serverKeepAlive;
    public boolean nolinger;
    /** Accepted for compatibility; zero-copy forwarding is not implemented yet. */
    public boolean spliceRequest;
    public boolean spliceResponse;
    public boolean spliceAuto;

    @Override
    public ProxyPart inherit() {
        SocketOptions c = new SocketOptions();
        c.clientKeepAlive = clientKeepAlive;
        c.serverKeepAlive = serverKeepAlive;
        c.nolinger = nolinger;
        c.spliceRequest = spliceRequest;
        c.spliceResponse = spliceResponse;
        c.spliceAuto = spliceAuto;
        return c;
    }
}
