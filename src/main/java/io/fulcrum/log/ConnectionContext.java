package io.fulcrum.log;

import io.fulcrum.backend.Backend;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.sample.Endpoints;
import io.fulcrum.sample.VarScope;
import io.fulcrum.sample.Vars;
import io.fulcrum.server.Server;
import io.netty.channel.Channel;

import java.net.SocketAddress;

/**
 * A client connection before any transaction: what tcp-request connection and session rules see, and what a
 * log line sees of a connection that failed before a transaction existed (a request that could not be parsed
 * or did not come in time): the connection, its frontend, the session's variables, and its log record if any.
 */
public record ConnectionContext(Channel frontChannel, Endpoints endpoints, Frontend frontend, Vars sessionVars, StreamLog streamLog)
        implements LogContext {

    /** The session's addresses, as rules left them. */
    public ConnectionContext(Channel frontChannel, Frontend frontend, Vars sessionVars, StreamLog streamLog) {
        this(frontChannel, Endpoints.of(frontChannel), frontend, sessionVars, streamLog);
    }

    @Override
    public SocketAddress source() {
        return endpoints.source();
    }

    @Override
    public SocketAddress destination() {
        return endpoints.destination();
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
        return switch (scope) {
            case PROC -> Vars.PROC;
            case SESS -> sessionVars;
            default -> null;
        };
    }
}
