package io.fulcrum.it;

import io.fulcrum.it.HttpWire.Body;
import io.fulcrum.it.HttpWire.Field;
import io.fulcrum.it.HttpWire.Head;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scriptable HTTP/1 origin on 127.0.0.1 (over {@link Origin}: real sockets, a virtual thread per
 * connection). It reads requests one after the other on each connection and lets a {@link Responder} answer
 * each with any bytes at all: a proper response, a chunked one with trailers, interim responses, a body
 * delimited by the close, garbage, nothing (stall), a reset. It records every request as received (head
 * bytes, fields, body length, checksum and trailers) and counts connections and requests.
 */
final class HttpOrigin implements AutoCloseable {

    /** Answers one request. Returning leaves the connection open for the next request, unless it was closed. */
    @FunctionalInterface
    interface Responder {
        void respond(Exchange x) throws Exception;
    }

    /** A request as the origin received it. */
    record Received(int connection, int index, Head head, long bodyLength, long bodyCrc, List<Field> trailers) {
        String method() {
            return head.startLine().split(" ", 3)[0];
        }

        String target() {
            return head.startLine().split(" ", 3)[1];
        }
    }

    /** One request being answered. */
    final class Exchange {
        final Socket socket;
        final Head head;
        final Body body;
        /** The connection's number (1 for the first one accepted), and the request's on that connection (1...). */
        final int connection;
        final int index;
        final OutputStream out;
        private boolean closed;

        private Exchange(Socket socket, Head head, Body body, int connection, int index) throws IOException {
            this.socket = socket;
            this.head = head;
            this.body = body;
            this.connection = connection;
            this.index = index;
            this.out = socket.getOutputStream();
        }

        String method() {
            return head.startLine().split(" ", 3)[0];
        }

        String target() {
            return head.startLine().split(" ", 3)[1];
        }

        /** Writes bytes as they are. */
        Exchange send(String raw) throws IOException {
            out.write(HttpWire.bytes(raw));
            out.flush();
            return this;
        }

        Exchange send(byte[] raw) throws IOException {
            out.write(raw);
            out.flush();
            return this;
        }

        /** Reads the request body to its end (before answering, as most servers do). */
        Exchange readBody() throws IOException {
            body.drain();
            return this;
        }

        /** A response with Content-Length (after the request body was read). */
        Exchange reply(int status, String body, String... fields) throws IOException {
            readBody();
            StringBuilder b = new StringBuilder("HTTP/1.1 ").append(status).append(' ').append(reason(status)).append("\r\n");
            for (String f : fields) {
                b.append(f).append("\r\n");
            }
            b.append("Content-Length: ").append(body.length()).append("\r\n\r\n").append(body);
            return send(b.toString());
        }

        /** Closes the connection once this exchange ends (after what was written). */
        void close() throws IOException {
            closed = true;
            socket.shutdownOutput();
        }

        /** Resets the connection (RST). */
        void reset() throws IOException {
            closed = true;
            socket.setSoLinger(true, 0);
            socket.close();
        }
    }

    private final Origin origin;
    private final Responder responder;
    private final boolean proxyProtocol;
    private final List<String> proxyLines = new CopyOnWriteArrayList<>();
    private final AtomicInteger connections = new AtomicInteger();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final BlockingQueue<Received> arrivals = new LinkedBlockingQueue<>();
    private final BlockingQueue<Head> heads = new LinkedBlockingQueue<>();

    private HttpOrigin(int port, Responder responder, boolean proxyProtocol) throws IOException {
        this.responder = responder;
        this.proxyProtocol = proxyProtocol;
        this.origin = Origin.start(port, this::serve);
    }

    static HttpOrigin start(Responder responder) throws IOException {
        return new HttpOrigin(0, responder, false);
    }

    /** An origin on {@code port} of 127.0.0.1. */
    static HttpOrigin startOn(int port, Responder responder) throws IOException {
        return new HttpOrigin(port, responder, false);
    }

    /** An origin whose connections start with a PROXY protocol header, v1 or v2 ({@link #proxyLines()}). */
    static HttpOrigin withProxyProtocol(Responder responder) throws IOException {
        return new HttpOrigin(0, responder, true);
    }

    /** A v1 PROXY line, or a v2 header in hexadecimal; null at the end of the stream. */
    private static String proxyHeader(InputStream in) throws IOException {
        in.mark(1);
        if (in.read() != '\r') {
            in.reset();
            return HttpWire.readLine(in, new java.io.ByteArrayOutputStream());
        }
        in.reset();
        byte[] fixed = in.readNBytes(16);
        if (fixed.length < 16) {
            return null;
        }
        byte[] rest = in.readNBytes(((fixed[14] & 0xff) << 8) | (fixed[15] & 0xff));
        return java.util.HexFormat.of().formatHex(fixed) + java.util.HexFormat.of().formatHex(rest);
    }

    /** The PROXY lines received (v2 headers in hexadecimal), one per connection, in the order of the connections' numbers. */
    List<String> proxyLines() {
        return proxyLines;
    }

    /** Answers every request with 200 and {@code body} (Content-Length), after reading its body. */
    static HttpOrigin ok(String body) throws IOException {
        return start(x -> x.reply(200, body));
    }

    /** An origin that switches every connection to an echo tunnel ("101 Switching Protocols", Upgrade: test). */
    static HttpOrigin upgradingToEcho() throws IOException {
        return start(x -> {
            x.send("HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: test\r\n\r\n");
            Origin.ECHO.handle(x.socket);
            x.close();
        });
    }

    int port() {
        return origin.port();
    }

    /** Connections accepted. */
    int accepted() {
        return origin.accepted();
    }

    /** Connections still open. */
    int open() {
        return origin.open();
    }

    List<Throwable> errors() {
        return origin.errors();
    }

    /** Requests received so far, in order of arrival (recorded once their body was read). */
    List<Received> requests() {
        return received;
    }

    /**
     * The requests received, once at least {@code n} were recorded (a request is recorded once its exchange
     * ends, which may be just after the client read the response): waits up to 5 s, then fails.
     */
    List<Received> requests(int n) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (received.size() < n && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        if (received.size() < n) {
            throw new AssertionError("expected " + n + " requests at the origin, got " + received.size() + ": " + received);
        }
        return received;
    }

    /** Waits for the next request recorded (bounded). */
    Received nextRequest(long millis) throws InterruptedException {
        Received r = arrivals.poll(millis, TimeUnit.MILLISECONDS);
        if (r == null) {
            throw new AssertionError("no request reached the origin within " + millis + " ms");
        }
        return r;
    }

    /** Waits for the next request head to arrive (before it is answered; bounded). */
    Head nextHead(long millis) throws InterruptedException {
        Head h = heads.poll(millis, TimeUnit.MILLISECONDS);
        if (h == null) {
            throw new AssertionError("no request head reached the origin within " + millis + " ms");
        }
        return h;
    }

    /** Waits until no connection to the origin is open (bounded); false if some still are. */
    boolean awaitNoOpenConnection(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (origin.open() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        return origin.open() == 0;
    }

    private void serve(Socket s) throws Exception {
        int conn = connections.incrementAndGet();
        s.setSoTimeout(60_000);
        InputStream in = new BufferedInputStream(s.getInputStream(), 64 * 1024);
        if (proxyProtocol) {
            String line = proxyHeader(in);
            if (line == null) {
                return;
            }
            proxyLines.add(conn + " " + line);
        }
        for (int index = 1; ; index++) {
            Head h;
            try {
                h = HttpWire.readHead(in);
            } catch (java.net.SocketException e) {
                return; // reset by the proxy between requests
            }
            if (h == null) {
                return;
            }
            heads.add(h);
            Body body = HttpWire.requestBody(in, h);
            Exchange x = new Exchange(s, h, body, conn, index);
            try {
                responder.respond(x);
            } finally {
                if (!x.closed && !s.isClosed() && !body.ended()) {
                    try {
                        body.drain();
                    } catch (IOException e) {
                        // the proxy went away: record what came
                    }
                }
                Received r = new Received(conn, index, h, body.count(), body.crc(), body.trailers());
                received.add(r);
                arrivals.add(r);
            }
            if (x.closed || s.isClosed()) {
                return;
            }
        }
    }

    static String reason(int status) {
        return switch (status) {
            case 100 -> "Continue";
            case 200 -> "OK";
            case 201 -> "Created";
            case 204 -> "No Content";
            case 304 -> "Not Modified";
            case 404 -> "Not Found";
            case 500 -> "Internal Server Error";
            default -> "Whatever";
        };
    }

    @Override
    public void close() throws IOException {
        origin.close();
    }
}
