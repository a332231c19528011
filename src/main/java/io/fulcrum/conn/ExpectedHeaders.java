package io.fulcrum.conn;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;

/**
 * The headers a client connection must start with because its {@code tcp-request connection} rules said so
 * ({@code expect-proxy layer4}, {@code expect-netscaler-cip layer4}): the listener then reads them as if the bind line
 * had {@code accept-proxy} or {@code accept-netscaler-cip}, once the connection rules are done.
 */
public final class ExpectedHeaders {
    private static final AttributeKey<ExpectedHeaders> KEY = AttributeKey.valueOf("fulcrum.expected-headers");
    private boolean proxy;
    private boolean netscalerCip;

    /** The headers the rules asked of {@code client} so far, none at first. */
    public static ExpectedHeaders of(Channel client) {
        ExpectedHeaders h = client.attr(KEY).get();
        if (h == null) {
            h = new ExpectedHeaders();
            client.attr(KEY).set(h);
        }
        return h;
    }

    /** A PROXY protocol header (v1 or v2) must come first. */
    public void expectProxy() {
        proxy = true;
    }

    /** A NetScaler Client IP header must come first. */
    public void expectNetscalerCip() {
        netscalerCip = true;
    }

    public boolean proxy() {
        return proxy;
    }

    public boolean netscalerCip() {
        return netscalerCip;
    }
}
