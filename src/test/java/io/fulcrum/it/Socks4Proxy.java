package io.fulcrum.it;

import java.io.DataInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A SOCKS4 proxy for tests: reads a CONNECT request (version 4, command 1, port, IPv4 address, user id ended by NUL),
 * records it, connects to the destination and answers "granted" (90), then relays both ways; {@code refuse} answers
 * "rejected" (91) and closes instead.
 */
final class Socks4Proxy implements AutoCloseable {
    /** A request as received: its destination and user id. */
    record Request(String host, int port, String user) {
    }

    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Origin origin;

    private Socks4Proxy(boolean refuse) throws Exception {
        this.origin = Origin.start(s -> serve(s, refuse));
    }

    static Socks4Proxy start() throws Exception {
        return new Socks4Proxy(false);
    }

    static Socks4Proxy refusing() throws Exception {
        return new Socks4Proxy(true);
    }

    int port() {
        return origin.port();
    }

    List<Request> requests() {
        return requests;
    }

    private void serve(Socket s, boolean refuse) throws Exception {
        DataInputStream in = new DataInputStream(s.getInputStream());
        int version = in.readUnsignedByte();
        int command = in.readUnsignedByte();
        int port = in.readUnsignedShort();
        byte[] ip = in.readNBytes(4);
        ByteArrayOutputStream user = new ByteArrayOutputStream();
        for (int c; (c = in.read()) > 0; ) {
            user.write(c);
        }
        requests.add(new Request(InetAddress.getByAddress(ip).getHostAddress(), port, user.toString()));
        OutputStream out = s.getOutputStream();
        if (refuse || version != 4 || command != 1) {
            out.write(new byte[] {0, 91, 0, 0, 0, 0, 0, 0});
            return;
        }
        try (Socket to = new Socket(InetAddress.getByAddress(ip), port)) {
            out.write(new byte[] {0, 90, 0, 0, 0, 0, 0, 0});
            out.flush();
            Thread back = Thread.ofVirtual().start(() -> pipe(to, s));
            pipe(s, to);
            back.join(10_000);
        }
    }

    /** Copies until EOF, then half-closes the other side. */
    private static void pipe(Socket from, Socket to) {
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            byte[] b = new byte[16384];
            for (int n; (n = in.read(b)) > 0; ) {
                out.write(b, 0, n);
                out.flush();
            }
            to.shutdownOutput();
        } catch (Exception e) {
            // the other side went away: the relay ends
        }
    }

    @Override
    public void close() throws Exception {
        origin.close();
    }
}
