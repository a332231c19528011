package io.fulcrum.rules;

import io.fulcrum.backend.Backend;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.VarScope;
import io.fulcrum.sample.Vars;
import io.fulcrum.server.Server;
import io.netty.channel.Channel;

import java.net.SocketAddress;

/** What {@code tcp-request connection} and {@code session} rules see: a client connection, before any stream. */
public record ConnectionContext(Channel frontChannel, Frontend frontend, SocketAddress source, SocketAddress destination)
        implements SampleContext {

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
        return switch (scope) {
            case PROC -> Vars.PROC;
            case SESS -> Vars.session(frontChannel);
            default -> null;
        };
    }
}
