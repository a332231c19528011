package io.fulcrum.sample;

import io.fulcrum.backend.Backend;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.server.Server;
import io.netty.channel.Channel;

import java.net.SocketAddress;

/**
 * What an expression sees outside any connection (the CLI's {@code set var}): no addresses, no proxy, no
 * message; only the process-wide variables. Contexts without a client (a health check's) extend it with what they have.
 */
public class ProcessContext implements SampleContext {
    public static final ProcessContext INSTANCE = new ProcessContext();

    protected ProcessContext() {
    }

    @Override
    public SocketAddress source() {
        return null;
    }

    @Override
    public SocketAddress destination() {
        return null;
    }

    @Override
    public Channel frontChannel() {
        return null;
    }

    @Override
    public Frontend frontend() {
        return null;
    }

    @Override
    public Backend backend() {
        return null;
    }

    @Override
    public Server server() {
        return null;
    }

    @Override
    public RequestHead request() {
        return null;
    }

    @Override
    public ResponseHead response() {
        return null;
    }

    @Override
    public Vars vars(VarScope scope) {
        return scope == VarScope.PROC ? Vars.PROC : null;
    }
}
