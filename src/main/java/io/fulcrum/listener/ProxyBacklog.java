package io.fulcrum.listener;

import io.fulcrum.proxy.ProxyPart;

/** A proxy's {@code backlog}: the listen backlog of its bind lines that set none; inherited from defaults. */
final class ProxyBacklog implements ProxyPart {
    /** 0: the frontend's maxconn, as HAProxy. */
    int value;

    @Override
    public ProxyPart inherit() {
        ProxyBacklog c = new ProxyBacklog();
        c.value = value;
        return c;
    }
}
