package io.fulcrum.log;

import io.fulcrum.backend.Backend;
import io.fulcrum.backend.Ticket;
import io.fulcrum.http.LoadedConfig;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.runtime.ConnLimit;
import io.fulcrum.sample.VarScope;
import io.fulcrum.sample.Vars;
import io.fulcrum.server.Server;
import io.netty.channel.Channel;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Path;
import java.util.List;

/**
 * A transaction for log line tests: the frontend "fe" and backend "be" of a configuration, fixed client
 * addresses, and a request and response the test sets.
 */
final class TestTransaction implements LogContext, AutoCloseable {
    final ProcessLog logging;
    final Frontend frontend;
    final Backend backend;
    final StreamLog log;
    RequestHead request;
    ResponseHead response;
    Backend chosen;
    Server server;

    TestTransaction(Path dir, String config) {
        LoadedConfig c = LoadedConfig.load(dir, config);
        ProxySpec fe = ProxyTable.of(c.model()).find("fe");
        ProxySpec be = ProxyTable.of(c.model()).find("be");
        if (fe == null || be == null) {
            throw new IllegalArgumentException("a frontend fe and a backend be are needed:\n" + c.output());
        }
        logging = new ProcessLog(c.model(), new ConnLimit(100));
        backend = new Backend(be);
        frontend = new Frontend(fe, 100, List.of(), backend, logging);
        log = frontend.logger().newStream(System.nanoTime(), 1_233_922_454_655L);
    }

    /** Takes a slot of the backend's first server, as a stream does. */
    void assignServer() {
        Ticket ticket = new Ticket(Runnable::run, s -> { });
        log.enterBackend(chosen, ticket);
        chosen.assign(this, ticket, null);
        server = ticket.server();
        log.serverAssigned();
    }

    /** The line {@code format} makes of this transaction. */
    String line(LogFormatParser parser, String format) throws Exception {
        StringBuilder sb = new StringBuilder();
        parser.parseLogLine(format, true).append(this, sb);
        return sb.toString();
    }

    @Override
    public StreamLog streamLog() {
        return log;
    }

    @Override
    public SocketAddress source() {
        return new InetSocketAddress("127.0.0.1", 49588);
    }

    @Override
    public SocketAddress destination() {
        return new InetSocketAddress("127.0.0.1", 8202);
    }

    @Override
    public Channel frontChannel() {
        return null;
    }

    @Override
    public Frontend frontend() {
        return frontend;
    }

    @Override
    public Backend backend() {
        return chosen;
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
        return null;
    }

    @Override
    public void close() {
        logging.close();
    }
}
