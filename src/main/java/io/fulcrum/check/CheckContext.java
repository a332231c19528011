package io.fulcrum.check;

import io.fulcrum.backend.Backend;
import io.fulcrum.sample.ProcessContext;
import io.fulcrum.sample.VarScope;
import io.fulcrum.sample.Vars;
import io.fulcrum.server.Server;
import io.netty.buffer.ByteBuf;

import java.util.function.Supplier;

/**
 * What the expressions of one check run see (HAProxy's check session): the backend and the server, the answer read
 * so far ({@code res.payload}...) and its HTTP status, and the variables of the scopes a check has ({@code proc}, and
 * {@code sess} and {@code check}, which live as long as the run). No client, no request: the rest is the process's.
 */
final class CheckContext extends ProcessContext {
    private final Backend backend;
    private final Server server;
    private final Supplier<ByteBuf> answer;
    private final Supplier<HttpAnswer> http;
    private Vars session;
    private Vars check;

    CheckContext(Backend backend, Server server, Supplier<ByteBuf> answer, Supplier<HttpAnswer> http) {
        this.backend = backend;
        this.server = server;
        this.answer = answer;
        this.http = http;
    }

    /** The bytes the server answered since the last send, as a view the caller neither keeps nor releases. */
    ByteBuf answer() {
        return answer.get();
    }

    @Override
    public ByteBuf responseContent() {
        return answer.get();
    }

    @Override
    public boolean responseSide() {
        return true;
    }

    @Override
    public int status() {
        HttpAnswer a = http.get();
        return a == null || a == HttpAnswer.INVALID ? -1 : a.status();
    }

    @Override
    public Vars vars(VarScope scope) {
        return switch (scope) {
            case PROC -> super.vars(scope);
            case SESS -> session == null ? session = new Vars(VarScope.SESS, Vars.PROC) : session;
            case CHECK -> check == null ? check = new Vars(VarScope.CHECK, Vars.PROC) : check;
            default -> null; // no transaction: HAProxy accepts these names and sets nothing
        };
    }

    @Override
    public Backend backend() {
        return backend;
    }

    @Override
    public Server server() {
        return server;
    }
}
