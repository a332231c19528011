package io.fulcrum.it;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tiny authoritative DNS server on 127.0.0.1, UDP and TCP on the same port, for the tests: it answers A, AAAA and SRV
 * questions from tables the test changes at will (SRV answers with the targets' addresses as additional records when
 * told to), or answers NXDOMAIN / REFUSED to everything, or goes silent. Over TCP it answers each query of a connection
 * in turn (RFC 7766 length prefix, pipelining allowed). Written from RFC 1035 and 2782 alone, so that it does not share
 * the proxy's DNS code.
 */
final class DnsStub implements AutoCloseable {
    enum Mode { ANSWER, NXDOMAIN, REFUSED, SILENT }

    /** An SRV record: {@code weight} from 0 to 65535, {@code target} a name of the A/AAAA table. */
    record Srv(int priority, int weight, int port, String target) {
    }

    private final DatagramSocket socket;
    private final ServerSocket tcp;
    private final Map<String, List<InetAddress>> records = new ConcurrentHashMap<>();
    private final Map<String, List<Srv>> srv = new ConcurrentHashMap<>();
    private final List<String> questions = new CopyOnWriteArrayList<>();
    private final AtomicInteger tcpConnections = new AtomicInteger();
    private final AtomicInteger tcpMaxOpen = new AtomicInteger();
    private final AtomicInteger tcpOpen = new AtomicInteger();
    private volatile Mode mode = Mode.ANSWER;
    private volatile boolean additional;
    private final Thread thread;
    private final Thread acceptor;

    private DnsStub() throws IOException {
        DatagramSocket udp = null;
        ServerSocket stream = null;
        // The same port for both: a few tries in case the TCP one is taken.
        for (int i = 0; stream == null; i++) {
            udp = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
            try {
                stream = new ServerSocket(udp.getLocalPort(), 50, InetAddress.getByName("127.0.0.1"));
            } catch (IOException e) {
                udp.close();
                if (i == 20) {
                    throw e;
                }
            }
        }
        socket = udp;
        tcp = stream;
        thread = new Thread(this::serve, "dns-stub");
        thread.setDaemon(true);
        thread.start();
        acceptor = new Thread(this::accept, "dns-stub-tcp");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    static DnsStub start() throws IOException {
        return new DnsStub();
    }

    /** From now on, {@code name} has these SRV records. */
    void srv(String name, Srv... list) {
        srv.put(name.toLowerCase(Locale.ROOT), List.of(list));
    }

    /** Whether SRV answers carry their targets' addresses as additional records. */
    void additional(boolean on) {
        additional = on;
    }

    /** The TCP connections accepted so far. */
    int tcpConnections() {
        return tcpConnections.get();
    }

    /** The most TCP connections open at once so far. */
    int tcpMaxOpen() {
        return tcpMaxOpen.get();
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

    /** The questions received, as "name A", "name AAAA" or "name SRV". */
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

    private void accept() {
        while (!tcp.isClosed()) {
            try {
                Socket c = tcp.accept();
                tcpConnections.incrementAndGet();
                tcpMaxOpen.accumulateAndGet(tcpOpen.incrementAndGet(), Math::max);
                Thread t = new Thread(() -> converse(c), "dns-stub-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                // closed
            }
        }
    }

    /** Answers each length-prefixed query of the connection until the client closes it. */
    private void converse(Socket c) {
        try (c; DataInputStream in = new DataInputStream(c.getInputStream())) {
            DataOutputStream out = new DataOutputStream(c.getOutputStream());
            while (true) {
                byte[] query = new byte[in.readUnsignedShort()];
                in.readFully(query);
                byte[] answer = answer(ByteBuffer.wrap(query));
                if (answer != null) {
                    out.writeShort(answer.length);
                    out.write(answer);
                    out.flush();
                }
            }
        } catch (IOException | RuntimeException e) {
            // closed by the client, or not a query
        } finally {
            tcpOpen.decrementAndGet();
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
        questions.add(n + (type == 28 ? " AAAA" : type == 1 ? " A" : type == 33 ? " SRV" : " " + type));
        Mode m = mode;
        if (m == Mode.SILENT) {
            return null;
        }
        int rcode = m == Mode.NXDOMAIN ? 3 : m == Mode.REFUSED ? 5 : 0;
        List<InetAddress> matching = rcode != 0 ? List.of() : records.getOrDefault(n, List.of()).stream()
                .filter(a -> a.getAddress().length == (type == 28 ? 16 : 4) && (type == 1 || type == 28)).toList();
        List<Srv> services = rcode != 0 || type != 33 ? List.of() : srv.getOrDefault(n, List.of());
        List<byte[]> extra = new java.util.ArrayList<>();
        ByteBuffer out = ByteBuffer.allocate(questionEnd + matching.size() * 28 + services.size() * 600);
        out.putShort((short) id).putShort((short) (0x8400 | 0x0100 | 0x0080 | rcode)) // QR AA RD RA
                .putShort((short) 1).putShort((short) (matching.size() + services.size())).putShort((short) 0).putShort((short) 0);
        out.put(q.array(), q.arrayOffset() + 12, questionEnd - 12);
        for (InetAddress a : matching) {
            byte[] rd = a.getAddress();
            out.putShort((short) 0xc00c).putShort((short) type).putShort((short) 1).putInt(1).putShort((short) rd.length).put(rd);
        }
        for (Srv r : services) {
            byte[] target = name(r.target);
            out.putShort((short) 0xc00c).putShort((short) 33).putShort((short) 1).putInt(1).putShort((short) (6 + target.length))
                    .putShort((short) r.priority).putShort((short) r.weight).putShort((short) r.port).put(target);
            if (additional) {
                for (InetAddress a : records.getOrDefault(r.target.toLowerCase(Locale.ROOT), List.of())) {
                    byte[] rd = a.getAddress();
                    ByteBuffer rr = ByteBuffer.allocate(target.length + 10 + rd.length);
                    rr.put(target).putShort((short) (rd.length == 4 ? 1 : 28)).putShort((short) 1).putInt(1).putShort((short) rd.length).put(rd);
                    extra.add(rr.array());
                }
            }
        }
        out.putShort(10, (short) extra.size());
        for (byte[] rr : extra) {
            out.put(rr);
        }
        byte[] b = new byte[out.position()];
        out.flip().get(b);
        return b;
    }

    /** {@code name} in labels, uncompressed. */
    private static byte[] name(String name) {
        ByteBuffer b = ByteBuffer.allocate(name.length() + 2);
        for (String label : name.split("\\.")) {
            b.put((byte) label.length()).put(label.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
        b.put((byte) 0);
        return java.util.Arrays.copyOf(b.array(), b.position());
    }

    @Override
    public void close() throws InterruptedException, IOException {
        socket.close();
        tcp.close();
        thread.join(2000);
        acceptor.join(2000);
    }
}
