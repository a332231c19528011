package io.fulcrum.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A TCP relay between one client and a server that keeps the bytes of each direction: a capture of one connection
 * without root or a capture tool.
 */
final class RecordingRelay implements AutoCloseable {
    private final ServerSocket listen;
    private final int target;
    private final ByteArrayOutputStream fromClient = new ByteArrayOutputStream();
    private final ByteArrayOutputStream fromServer = new ByteArrayOutputStream();
    private final Thread thread;

    RecordingRelay(int target) throws IOException {
        this.listen = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        this.target = target;
        this.thread = Thread.ofVirtual().start(this::relayOne);
    }

    int port() {
        return listen.getLocalPort();
    }

    private void relayOne() {
        try (Socket client = listen.accept(); Socket server = new Socket(InetAddress.getLoopbackAddress(), target)) {
            Thread up = Thread.ofVirtual().start(() -> copy(client, server, fromClient));
            copy(server, client, fromServer);
            up.join();
        } catch (IOException | InterruptedException e) {
            // the connection ended: what was recorded stays
        }
    }

    /** Copies until {@code from} ends, then ends {@code to}'s direction too. */
    private static void copy(Socket from, Socket to, ByteArrayOutputStream record) {
        byte[] buf = new byte[16384];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            for (int n; (n = in.read(buf)) > 0; ) {
                synchronized (record) {
                    record.write(buf, 0, n);
                }
                out.write(buf, 0, n);
            }
            to.shutdownOutput();
        } catch (IOException e) {
            // a reset ends the direction as well
        }
    }

    /** The bytes the client sent, once the connection is over. */
    byte[] clientBytes() throws InterruptedException {
        thread.join(10_000);
        synchronized (fromClient) {
            return fromClient.toByteArray();
        }
    }

    /** The bytes the server sent, once the connection is over. */
    byte[] serverBytes() throws InterruptedException {
        thread.join(10_000);
        synchronized (fromServer) {
            return fromServer.toByteArray();
        }
    }

    @Override
    public void close() throws IOException {
        listen.close();
    }
}
