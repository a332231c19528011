package io.fulcrum.mux.h1;

import io.fulcrum.conn.SocketOptions;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.runtime.EventLoops;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;

import java.util.function.Consumer;

/** Sets up each accepted connection of a {@code mode http} frontend: socket options, a loop, an {@link H1FrontConnection}. */
public final class H1Acceptor implements Consumer<Channel> {
    private final Frontend frontend;
    private final EventLoops loops;
    private final H1Limits limits;

    public H1Acceptor(Frontend frontend, EventLoops loops, H1Limits limits) {
        this.frontend = frontend;
        this.loops = loops;
        this.limits = limits;
    }

    @Override
    public void accept(Channel child) {
        SocketOptions opts = frontend.socketOptions();
        // A client may send its request and shut its side at once: the response still goes back.
        child.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
        if (child.config().getOptions().containsKey(ChannelOption.TCP_NODELAY)) {
            child.config().setOption(ChannelOption.TCP_NODELAY, true);
            child.config().setOption(ChannelOption.SO_KEEPALIVE, opts.clientKeepAlive);
            if (opts.nolinger) {
                child.config().setOption(ChannelOption.SO_LINGER, 0);
            }
        }
        child.pipeline().addLast("h1", new H1FrontConnection(frontend, loops, limits));
        loops.next().register(child).addListener(f -> {
            if (!f.isSuccess()) {
                child.close();
            }
        });
    }
}
