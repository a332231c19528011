package io.fulcrum.it;

import io.fulcrum.it.HttpWire.Body;
import io.fulcrum.it.HttpWire.Field;
import io.fulcrum.it.HttpWire.Head;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.List;

/**
 * A raw HTTP/1 client connection to the proxy: sends bytes exactly as written, reads responses with
 * {@link HttpWire} (so pipelined responses are read one after the other from one buffered stream), and tells
 * a closed connection from a silent one within bounded times.
 */
final class HttpClientConn implements AutoCloseable {

    /** A complete response: its head, its decoded body and trailers, and its bytes as received. */
    record Response(Head head, byte[] body, List<Field> trailers) {
        int status() {
            return HttpWire.status(head);
        }

        String get(String name) {
            return head.get(name);
        }

        String bodyText() {
            return HttpWire.text(body);
        }

        /** The head and the body's bytes (decoded), for comparing whole error pages. */
        String text() {
            return head.raw() + bodyText();
        }
    }

    final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private HttpClientConn(Socket s) throws IOException {
        this.socket = s;
        this.in = new BufferedInputStream(s.getInputStream(), 64 * 1024);
        this.out = s.getOutputStream();
    }

    /** Connects to 127.0.0.1:{@code port}; reads give up after 10 s. */
    static HttpClientConn open(int port) throws IOException {
        return new HttpClientConn(TcpProxyKit.connect(port));
    }

    /** Connects to 127.0.0.1:{@code port} from the local address {@code local} (another address of the loopback range). */
    static HttpClientConn openFrom(String local, int port) throws IOException {
        Socket s = new Socket(java.net.InetAddress.getLoopbackAddress(), port, java.net.InetAddress.getByName(local), 0);
        s.setSoTimeout(10_000);
        return new HttpClientConn(s);
    }

    /** Connects to {@code host}:{@code port} (an IPv6 address too). */
    static HttpClientConn open(String host, int port) throws IOException {
        return new HttpClientConn(TcpProxyKit.connect(host, port));
    }

    InputStream in() {
        return in;
    }

    OutputStream out() {
        return out;
    }

    HttpClientConn send(String data) throws IOException {
        out.write(HttpWire.bytes(data));
        out.flush();
        return this;
    }

    HttpClientConn send(byte[] data) throws IOException {
        out.write(data);
        out.flush();
        return this;
    }

    /** Reads one head (an interim response's too). */
    Head readHead() throws IOException {
        Head h = HttpWire.readHead(in);
        if (h == null) {
            throw new java.io.EOFException("connection closed before a response");
        }
        return h;
    }

    /** Reads the final response to a {@code method} request, skipping no interim response. */
    Response read(String method) throws IOException {
        Head h = readHead();
        Body b = HttpWire.responseBody(in, h, method);
        byte[] body = b.readAllBody();
        return new Response(h, body, b.trailers());
    }

    /** Reads the response to a GET. */
    Response read() throws IOException {
        return read("GET");
    }

    /** The body of a response whose head was read, to be streamed. */
    Body body(Head h, String method) {
        return HttpWire.responseBody(in, h, method);
    }

    /** Sends {@code request} and reads the response. */
    Response exchange(String request) throws IOException {
        send(request);
        return read(request.startsWith("HEAD ") ? "HEAD" : "GET");
    }

    /** Fails unless the peer closes (EOF or reset) within {@code maxMillis} with nothing more to read. */
    void awaitClosed(long maxMillis) throws IOException {
        int old = socket.getSoTimeout();
        socket.setSoTimeout((int) maxMillis);
        try {
            int b = in.read();
            if (b >= 0) {
                byte[] more = new byte[Math.min(in.available(), 200)];
                int n = in.read(more);
                throw new AssertionError("expected the connection to be closed, got data: '" + (char) b
                        + HttpWire.text(java.util.Arrays.copyOf(more, Math.max(n, 0))) + "'");
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("connection still open after " + maxMillis + " ms");
        } catch (SocketException e) {
            // reset: closed too
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(old);
            }
        }
    }

    /** Fails if anything (data, EOF, reset) arrives within {@code millis}. */
    void assertSilent(long millis, String what) throws IOException {
        int old = socket.getSoTimeout();
        socket.setSoTimeout((int) millis);
        try {
            int b = in.read();
            throw new AssertionError(what + ": expected nothing for " + millis + " ms, got "
                    + (b < 0 ? "EOF" : "data '" + (char) b + "'"));
        } catch (SocketTimeoutException expected) {
            // silent
        } catch (SocketException e) {
            throw new AssertionError(what + ": expected nothing for " + millis + " ms, got " + e, e);
        } finally {
            socket.setSoTimeout(old);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
