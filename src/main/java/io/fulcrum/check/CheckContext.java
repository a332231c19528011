package io.fulcrum.check;

import io.fulcrum.backend.Backend;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.sample.ProcessContext;
import io.fulcrum.sample.VarScope;
import io.fulcrum.sample.Vars;
import io.fulcrum.server.Server;
import io.netty.buffer.ByteBuf;

import java.util.function.Supplier;

/**
 * What the expressions of one check run see (HAProxy's check session): the backend and the server, the answer read
 * so far ({@code res.payload}...) and an HTTP check's response, and the variables of the scopes a check has ({@code proc}, and
 * {@code sess} and {@code check}, which live as long as the run). No client, no request: the rest is the process's.
 */
final class CheckContext extends ProcessContext {
    private final Backend backend;
    private final Server server;
    private final Supplier<ByteBuf> answer;
    private final Supplier<HttpAnswer> http;
    /** The answer {@link #head} was made from. */
    private HttpAnswer headOf;
    private ResponseHead head;
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

    /**
     * The answer of an HTTP check, as HAProxy's HTTP fetches read a check's response ({@code status}, {@code res.hdr},
     * {@code res.body}... in {@code on-success}/{@code on-error} and the rules after an expect); made once per answer.
     */
    @Override
    public ResponseHead response() {
        HttpAnswer a = http.get();
        if (a == null || a == HttpAnswer.INVALID) {
            return null;
        }
        if (a != headOf) {
            head = a.head();
            headOf = a;
        }
        return head;
    }

    @Override
    public ByteBuf responseBody() {
        HttpAnswer a = http.get();
        return a == null || a == HttpAnswer.INVALID ? null : a.bodyBytes(answer.get());
    }

    @Override
    public Vars vars(VarScope scope) {
        return switch (scope) {
            case PROC -> super.vars(scope);
            case SESS -> session == null ? session = new Vars(VarScope.SESS, Vars.PROC) : session;
            case CHECK -> check == null ? check = new Vars(VarScope.CHECK, vars(VarScope.SESS)) : check;
            default -> null; // no transaction: HAProxy accepts these names and sets nothing
        };
    }

    /** The check ended: what its variables took goes back ({@code tune.vars.*} accounting). */
    void release() {
        if (check != null) {
            check.release();
        }
        if (session != null) {
            session.release();
        }
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
