package io.fulcrum.sample;

import io.fulcrum.Modules;
import io.fulcrum.backend.Backend;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Registry;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.listener.Listener;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.server.Server;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;

import java.net.SocketAddress;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

/** A stream as fetches see it, for tests: set what a test needs, then evaluate expressions in it. */
public class TestContext implements SampleContext {
    private static final ExprParser PARSER = new ExprParser(SampleCatalog.of(Registry.of(Modules.ALL)));

    public SocketAddress source;
    public SocketAddress destination;
    public Channel frontChannel;
    public Channel backChannel;
    public Frontend frontend;
    public Backend backend;
    public Server server;
    public Listener listener;
    public RequestHead request;
    public ResponseHead response;
    public ByteBuf requestBody;
    public ByteBuf responseBody;
    public ByteBuf requestContent;
    public ByteBuf responseContent;
    public boolean responseSide;
    public long requestNumber;
    public boolean stopping;
    public final Map<String, Backend> backends = new HashMap<>();
    public final Map<String, Frontend> frontends = new HashMap<>();
    private final Map<VarScope, Vars> vars = new EnumMap<>(VarScope.class);

    /** Parses {@code expr} with every module's keywords. */
    public static Expr parse(String expr) {
        try {
            return PARSER.parse(expr);
        } catch (ConfigException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** The parse error of {@code expr}, or null. */
    public static String error(String expr) {
        try {
            PARSER.parse(expr);
            return null;
        } catch (ConfigException e) {
            return e.getMessage();
        }
    }

    /** The sample of {@code expr} here, as "type:text", or "none". */
    public String eval(String expr) {
        Sample s = new Sample();
        return parse(expr).eval(this, s) ? s.type() + ":" + s.asText() : "none";
    }

    /** The sample of {@code expr} here, as text only, or "none" (the way HAProxy's oracle output is noted). */
    public String text(String expr) {
        Sample s = new Sample();
        return parse(expr).eval(this, s) ? s.asText() : "none";
    }

    /** The bytes of the sample of {@code expr} here (a string or binary sample), in upper-case hex, or "none". */
    public String hex(String expr) {
        Sample s = new Sample();
        if (!parse(expr).eval(this, s)) {
            return "none";
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            sb.append(String.format("%02X", s.byteAt(i) & 0xff));
        }
        return sb.toString();
    }

    @Override
    public SocketAddress source() {
        return source;
    }

    @Override
    public SocketAddress destination() {
        return destination;
    }

    @Override
    public Channel frontChannel() {
        return frontChannel;
    }

    @Override
    public Frontend frontend() {
        return frontend;
    }

    @Override
    public Backend backend() {
        return backend;
    }

    @Override
    public Server server() {
        return server;
    }

    @Override
    public RequestHead request() {
        return request;
    }

    @Override
    public ResponseHead response() {
        return response;
    }

    @Override
    public Vars vars(VarScope scope) {
        return scope == VarScope.PROC ? Vars.PROC : vars.computeIfAbsent(scope, s -> new Vars(s, Vars.PROC));
    }

    @Override
    public boolean responseSide() {
        return responseSide;
    }

    @Override
    public Backend backend(String name) {
        Backend b = backends.get(name);
        return b != null ? b : SampleContext.super.backend(name);
    }

    @Override
    public Frontend frontend(String name) {
        Frontend f = frontends.get(name);
        return f != null ? f : SampleContext.super.frontend(name);
    }

    @Override
    public Listener listener() {
        return listener;
    }

    @Override
    public Channel backChannel() {
        return backChannel;
    }

    @Override
    public long requestNumber() {
        return requestNumber;
    }

    @Override
    public ByteBuf requestBody() {
        return requestBody;
    }

    @Override
    public ByteBuf responseBody() {
        return responseBody;
    }

    @Override
    public ByteBuf requestContent() {
        return requestContent;
    }

    @Override
    public ByteBuf responseContent() {
        return responseContent;
    }

    @Override
    public boolean stopping() {
        return stopping;
    }
}
