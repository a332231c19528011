package io.fulcrum.backend;

import io.fulcrum.proxy.ProxyPart;

/** A backend's {@code balance} algorithm and {@code retries}; both are inherited from defaults. */
public final class BalanceSpec implements ProxyPart {
    public Algorithm algorithm = Algorithm.ROUNDROBIN;
    /** Connection attempts after the first one fails (HAProxy's default is 3). */
    public int retries = 3;

    @Override
    public ProxyPart inherit() {
        BalanceSpec copy = new BalanceSpec();
        copy.algorithm = algorithm;
        copy.retries = retries;
        return copy;
    }
}
