package io.fulcrum.pool;

import io.fulcrum.proxy.ProxyPart;

/** A backend's {@code http-reuse} mode; inherited from defaults. HAProxy's default is safe. */
public final class ReuseSpec implements ProxyPart {
    public ReuseMode mode = ReuseMode.SAFE;

    @Override
    public ProxyPart inherit() {
        ReuseSpec c = new ReuseSpec();
        c.mode = mode;
        return c;
    }
}
