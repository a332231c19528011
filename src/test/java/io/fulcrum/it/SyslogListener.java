package io.fulcrum.it;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A syslog server for tests: a UDP socket on 127.0.0.1 (or another address) that keeps each datagram it receives, in order. */
final class SyslogListener implements AutoCloseable {
    private final DatagramSocket socket;
    private final BlockingQueue<String> messages = new LinkedBlockingQueue<>();

    private SyslogListener(DatagramSocket socket) {
        this.socket = socket;
        Thread.ofVirtual().name("syslog-" + socket.getLocalPort()).start(this::receive);
    }

    static SyslogListener open() throws IOException {
        return open(InetAddress.getLoopbackAddress());
    }

    /** A listener on {@code address} (::1 for an IPv6 target). */
    static SyslogListener open(InetAddress address) throws IOException {
        return new SyslogListener(new DatagramSocket(0, address));
    }

    int port() {
        return socket.getLocalPort();
    }

    private void receive() {
        byte[] buf = new byte[65536];
        while (!socket.isClosed()) {
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            try {
                socket.receive(p);
            } catch (SocketException closed) {
                return;
            } catch (IOException e) {
                continue;
            }
            messages.add(new String(p.getData(), 0, p.getLength(), StandardCharsets.ISO_8859_1));
        }
    }

    /** The next message, waiting up to 10 s for it. */
    String next() throws InterruptedException {
        String m = messages.poll(10, TimeUnit.SECONDS);
        if (m == null) {
            throw new AssertionError("no log message within 10 s");
        }
        return m;
    }

    /** Fails if a message arrives within {@code millis}. */
    void assertNone(long millis) throws InterruptedException {
        String m = messages.poll(millis, TimeUnit.MILLISECONDS);
        if (m != null) {
            throw new AssertionError("expected no log message, got: " + m);
        }
    }

    @Override
    public void close() {
        socket.close();
    }
}
