package io.fulcrum.it;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A tiny authoritative DNS server on 127.0.0.1 (UDP) for the tests: it answers A and AAAA questions from a table the test
 * changes at will, or answers NXDOMAIN / REFUSED to everything, or goes silent. Written from RFC 1035 alone, so that
 * it does not share the proxy's DNS code.
 */
final class DnsStub implements AutoCloseable {
    enum Mode { ANSWER, NXDOMAIN, REFUSED, SILENT }

    private final DatagramSocket socket;
    private final Map<String, List<InetAddress>> records = new ConcurrentHashMap<>();
    private final List<String> questions = new CopyOnWriteArrayList<>();
    private volatile Mode mode = Mode.ANSWER;
    private final Thread thread;

    private DnsStub() throws SocketException {
        socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        thread = new Thread(this::serve, "dns-stub");
        thread.setDaemon(true);
        thread.start();
    }

    static DnsStub start() throws SocketException {
        return new DnsStub();
    }

    int port() {
        return socket.getLocalPort();
    }

    /** From now on, {@code name} has these addresses (IPv4 ones answer A questions, IPv6 ones AAAA). */
    void set(String name, String... addresses) throws IOException {
        List<InetAddress> list = new java.util.ArrayList<>();
        for (String a : addresses) {
            list.add(InetAddress.getByName(a));
        }
        records.put(name.toLowerCase(Locale.ROOT), List.copyOf(list));
    }

    void mode(Mode m) {
        mode = m;
    }

    /** The questions received, as "name A" or "name AAAA". */
    List<String> questions() {
        return List.copyOf(questions);
    }

    private void serve() {
        byte[] buf = new byte[1500];
        while (!socket.isClosed()) {
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            try {
                socket.receive(p);
                byte[] answer = answer(ByteBuffer.wrap(p.getData(), 0, p.getLength()));
                if (answer != null) {
                    socket.send(new DatagramPacket(answer, answer.length, p.getSocketAddress()));
                }
            } catch (IOException | RuntimeException e) {
                // closed, or a datagram that is no query: ignored
            }
        }
    }

    private byte[] answer(ByteBuffer q) {
        int id = q.getShort(0) & 0xffff;
        int pos = 12;
        StringBuilder name = new StringBuilder();
        for (int len = q.get(pos) & 0xff; len != 0; len = q.get(pos) & 0xff) {
            if (!name.isEmpty()) {
                name.append('.');
            }
            for (int i = 1; i <= len; i++) {
                name.append((char) q.get(pos + i));
            }
            pos += len + 1;
        }
        int type = q.getShort(pos + 1) & 0xffff;
        int questionEnd = pos + 5;
        String n = name.toString().toLowerCase(Locale.ROOT);
        questions.add(n + (type == 28 ? " AAAA" : type == 1 ? " A" : " " + type));
        Mode m = mode;
        if (m == Mode.SILENT) {
            return null;
        }
        int rcode = m == Mode.NXDOMAIN ? 3 : m == Mode.REFUSED ? 5 : 0;
        List<InetAddress> matching = rcode != 0 ? List.of() : records.getOrDefault(n, List.of()).stream()
                .filter(a -> a.getAddress().length == (type == 28 ? 16 : 4) && (type == 1 || type == 28)).toList();
        ByteBuffer out = ByteBuffer.allocate(questionEnd + matching.size() * 28);
        out.putShort((short) id).putShort((short) (0x8400 | 0x0100 | 0x0080 | rcode)) // QR AA RD RA
                .putShort((short) 1).putShort((short) matching.size()).putShort((short) 0).putShort((short) 0);
        out.put(q.array(), q.arrayOffset() + 12, questionEnd - 12);
        for (InetAddress a : matching) {
            byte[] rd = a.getAddress();
            out.putShort((short) 0xc00c).putShort((short) type).putShort((short) 1).putInt(1).putShort((short) rd.length).put(rd);
        }
        byte[] b = new byte[out.position()];
        out.flip().get(b);
        return b;
    }

    @Override
    public void close() throws InterruptedException {
        socket.close();
        thread.join(2000);
    }
}
