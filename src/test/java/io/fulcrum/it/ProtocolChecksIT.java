package io.fulcrum.it;

import io.netty.buffer.ByteBufUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static io.fulcrum.it.TcpProxyKit.bytes;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.readExactly;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The protocol checks ({@code option ssl-hello-chk}, {@code smtpchk}, {@code mysql-check}, {@code pgsql-check},
 * {@code redis-check}, {@code ldap-check}, {@code spop-check}) against servers speaking each protocol: the bytes
 * sent (as haproxy 2.6 sends them, captured from it), the answers judged, and the log lines' words. Passes against
 * haproxy too ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ProtocolChecksIT {

    /** What each test server received on its last connection, by name. */
    private final Map<String, byte[]> received = new ConcurrentHashMap<>();

    private static byte[] hex(String h) {
        return ByteBufUtil.decodeHexDump(h);
    }

    private static void write(Socket s, byte[] b) throws Exception {
        OutputStream out = s.getOutputStream();
        out.write(b);
        out.flush();
    }

    /** Reads what arrives until the peer has been silent for 300 ms, or it closes. */
    private static byte[] drain(Socket s) throws Exception {
        s.setSoTimeout(300);
        InputStream in = s.getInputStream();
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] b = new byte[4096];
        try {
            int n;
            while ((n = in.read(b)) > 0) {
                got.write(b, 0, n);
            }
        } catch (java.net.SocketTimeoutException | java.net.SocketException e) {
            // silence or reset: what came is all
        }
        return got.toByteArray();
    }

    private static byte[] mysqlPacket(int seq, byte[] payload) {
        byte[] p = new byte[4 + payload.length];
        p[0] = (byte) payload.length;
        p[1] = (byte) (payload.length >> 8);
        p[2] = (byte) (payload.length >> 16);
        p[3] = (byte) seq;
        System.arraycopy(payload, 0, p, 4, payload.length);
        return p;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static final byte[] MYSQL_HANDSHAKE = mysqlPacket(0, concat(new byte[]{0x0a}, bytes("8.0.36-test\0"),
            hex("0100000061626364656667680000fff7210200000000000000000000000000")));

    /** A SPOE AGENT-HELLO frame with this version string. */
    private static byte[] agentHello(String version) {
        byte[] body = concat(hex("65" + "00000001" + "0000"), hex("07"), bytes("version"), hex("08"), new byte[]{(byte) version.length()},
                bytes(version), hex("0e"), bytes("max-frame-size"), hex("03fcf006"), hex("0c"), bytes("capabilities"), hex("0800"));
        return concat(ByteBuffer.allocate(4).putInt(body.length).array(), body);
    }

    @Test
    void eachProtocolSendsHaproxysBytesAndJudgesTheAnswer() throws Exception {
        List<Origin> origins = new ArrayList<>();
        try {
            // ssl-hello-chk: a TLS server answers an SSLv3 hello with an alert; an HTTP server with text.
            Origin sslOk = start(origins, s -> {
                received.putIfAbsent("ssl", readExactly(s, 126));
                write(s, hex("15030100020228"));
            });
            Origin sslBad = start(origins, s -> {
                readExactly(s, 126);
                write(s, bytes("HTTP/1.0 400 Bad request\r\n\r\n"));
            });
            // smtpchk: a greeting, a reply to EHLO in two lines (sent apart), the goodbye to QUIT.
            Origin smtpOk = start(origins, s -> {
                write(s, bytes("220 mx.test ESMTP\r\n"));
                byte[] ehlo = readExactly(s, 19);
                write(s, bytes("250-mx.test greets you\r\n"));
                Thread.sleep(200);
                write(s, bytes("250 SIZE 1000000\r\n"));
                received.putIfAbsent("smtp", concat(ehlo, readExactly(s, 6)));
                write(s, bytes("221 mx.test closing\r\n"));
                drain(s);
            });
            Origin smtpBad = start(origins, s -> write(s, bytes("554 no service here\r\n")));
            // mysql-check user: the handshake, the login, an OK packet or an access denied error.
            Origin mysqlOk = start(origins, s -> {
                write(s, MYSQL_HANDSHAKE);
                received.putIfAbsent("mysql", readExactly(s, 50)); // the login (4 + 41 bytes), then COM_QUIT (5)
                write(s, mysqlPacket(2, hex("00000002000000")));
            });
            Origin mysqlBad = start(origins, s -> {
                write(s, MYSQL_HANDSHAKE);
                readExactly(s, 50);
                write(s, mysqlPacket(2, concat(hex("ff1504"), bytes("#28000Access denied for user 'fulcrum'"))));
            });
            // pgsql-check: an AuthenticationSASL request (any authentication request will do), or an ErrorResponse.
            Origin pgOk = start(origins, s -> {
                received.putIfAbsent("pgsql", readExactly(s, 22));
                write(s, hex("52000000170000000A534352414D2D5348412D3235360000"));
            });
            Origin pgBad = start(origins, s -> {
                readExactly(s, 22);
                byte[] fields = bytes("SFATAL\0VFATAL\0C28000\0Mrole \"nobody\" does not exist\0\0");
                write(s, concat(bytes("E"), ByteBuffer.allocate(4).putInt(fields.length + 4).array(), fields));
            });
            // redis-check: PONG, or an error.
            Origin redisOk = start(origins, s -> {
                received.putIfAbsent("redis", readExactly(s, 14));
                write(s, bytes("+PONG\r\n"));
            });
            Origin redisBad = start(origins, s -> {
                readExactly(s, 14);
                write(s, bytes("-NOAUTH Authentication required.\r\n"));
            });
            // ldap-check: a bindResponse with success (lengths in the long form, as Active Directory's, sent in two
            // parts), or with invalidCredentials (49).
            Origin ldapOk = start(origins, s -> {
                received.putIfAbsent("ldap", readExactly(s, 14));
                write(s, hex("308400000010020101618400000007"));
                Thread.sleep(200);
                write(s, hex("0a010004000400"));
            });
            Origin ldapBad = start(origins, s -> {
                readExactly(s, 14);
                write(s, hex("300c02010161070a013104000400"));
            });
            // spop-check: an AGENT-HELLO of version 2.0, or of a version HAProxy does not speak.
            Origin spopOk = start(origins, s -> {
                received.putIfAbsent("spop", readExactly(s, 82));
                write(s, agentHello("2.0"));
            });
            Origin spopBad = start(origins, s -> {
                readExactly(s, 82);
                write(s, agentHello("1.0"));
            });
            int fe = freePort();
            String cfg = """
                    defaults
                        mode tcp
                        timeout connect 5s
                        timeout client 5s
                        timeout server 5s
                        timeout check 5s
                        option log-health-checks
                    frontend fe
                        bind 127.0.0.1:%d
                        default_backend ssl
                    backend ssl
                        option ssl-hello-chk
                        server ok 127.0.0.1:%d check inter 1s rise 1 fall 1
                        server bad 127.0.0.1:%d check inter 1s rise 1 fall 1
                    backend smtp
                        option smtpchk EHLO fulcrum.test
                        server ok 127.0.0.1:%d check inter 1s rise 1 fall 1
                        server bad 127.0.0.1:%d check inter 1s rise 1 fall 1
                    backend mysql
                        option mysql-check user fulcrum
                        server ok 127.0.0.1:%d check inter 1s rise 1 fall 1
                        server bad 127.0.0.1:%d check inter 1s rise 1 fall 1
                    backend pgsql
                        option pgsql-check user fulcrum
                        server ok 127.0.0.1:%d check inter 1s rise 1 fall 1
                        server bad 127.0.0.1:%d check inter 1s rise 1 fall 1
                    backend redis
                        option redis-check
                        server ok 127.0.0.1:%d check inter 1s rise 1 fall 1
                        server bad 127.0.0.1:%d check inter 1s rise 1 fall 1
                    backend ldap
                        option ldap-check
                        server ok 127.0.0.1:%d check inter 1s rise 1 fall 1
                        server bad 127.0.0.1:%d check inter 1s rise 1 fall 1
                    backend spop
                        option spop-check
                        server ok 127.0.0.1:%d check inter 1s rise 1 fall 1
                        server bad 127.0.0.1:%d check inter 1s rise 1 fall 1
                    """.formatted(fe, sslOk.port(), sslBad.port(), smtpOk.port(), smtpBad.port(), mysqlOk.port(), mysqlBad.port(),
                    pgOk.port(), pgBad.port(), redisOk.port(), redisBad.port(), ldapOk.port(), ldapBad.port(), spopOk.port(), spopBad.port());
            long startSeconds = System.currentTimeMillis() / 1000;
            try (FulcrumProcess p = serve(cfg, fe)) {
                String ok = "Health check for server %s/ok succeeded, reason: %s, check duration: ";
                String bad = "Health check for server %s/bad failed, reason: %s, check duration: ";
                p.awaitStderr(ok.formatted("ssl", "Layer6 check passed"));
                p.awaitStderr(bad.formatted("ssl", "Layer6 invalid response"));
                p.awaitStderr(ok.formatted("smtp", "Layer7 check passed, code: 221, info: \"mx.test closing\""));
                p.awaitStderr(bad.formatted("smtp", "Layer7 wrong status, code: 554, info: \"no service here\""));
                p.awaitStderr(ok.formatted("mysql", "Layer7 check passed, code: 0, info: \"8.0.36-test\""));
                p.awaitStderr(bad.formatted("mysql", "Layer7 wrong status, code: 1045, info: \"#28000Access denied for user 'fulcrum'\""));
                p.awaitStderr(ok.formatted("pgsql", "Layer7 check passed, code: 0, info: \"PostgreSQL server is ok\""));
                p.awaitStderr(bad.formatted("pgsql", "Layer7 invalid response, info: \"FATAL\""));
                p.awaitStderr(ok.formatted("redis", "Layer7 check passed, code: 0, info: \"Redis server is ok\""));
                p.awaitStderr(bad.formatted("redis", "Layer7 wrong status, code: 0, info: \"-NOAUTH Authentication required.\""));
                p.awaitStderr(ok.formatted("ldap", "Layer7 check passed, code: 0, info: \"Success\""));
                p.awaitStderr(bad.formatted("ldap", "Layer7 wrong status, code: 49, info: \"See RFC: http://tools.ietf.org/html/rfc4511#section-4.1.9\""));
                p.awaitStderr(ok.formatted("spop", "Layer7 check passed, code: 0, info: \"SPOA server is ok\""));
                p.awaitStderr(bad.formatted("spop", "Layer7 invalid response, info: \"unsupported version\""));
            }
            long endSeconds = System.currentTimeMillis() / 1000;

            byte[] ssl = received.get("ssl");
            long time = ByteBuffer.wrap(ssl, 11, 4).getInt() & 0xffffffffL;
            assertThat(time).as("the hello's time field").isBetween(startSeconds - 1, endSeconds + 1);
            ssl = ssl.clone();
            System.arraycopy(new byte[4], 0, ssl, 11, 4);
            StringBuilder ciphers = new StringBuilder();
            for (int c = 0x01; c <= 0x3a; c = c == 0x1b ? 0x2f : c + 1) {
                ciphers.append(String.format("%04x", c));
            }
            assertThat(ByteBufUtil.hexDump(ssl)).isEqualTo("1603000079" + "01000075" + "0300" + "00000000"
                    + ByteBufUtil.hexDump(bytes("HAPROXYSSLCHK\nHAPROXYSSLCHK\n")) + "00" + "004e" + ciphers + "0100");
            assertThat(new String(received.get("smtp"), StandardCharsets.ISO_8859_1)).isEqualTo("EHLO fulcrum.test\r\nQUIT\r\n");
            assertThat(ByteBufUtil.hexDump(received.get("mysql"))).isEqualTo("290000010082000000800001210000000000000000000000000000000000"
                    + "000000000000" + ByteBufUtil.hexDump(bytes("fulcrum")) + "00000100000001");
            assertThat(ByteBufUtil.hexDump(received.get("pgsql"))).isEqualTo("00000016000300007573657200" + ByteBufUtil.hexDump(bytes("fulcrum"))
                    + "0000");
            assertThat(new String(received.get("redis"), StandardCharsets.ISO_8859_1)).isEqualTo("*1\r\n$4\r\nPING\r\n");
            assertThat(ByteBufUtil.hexDump(received.get("ldap"))).isEqualTo("300c020101600702010304008000");
            assertThat(ByteBufUtil.hexDump(received.get("spop"))).isEqualTo("0000004e0100000001000012737570706f727465642d76657273696f6e7308"
                    + "03322e300e6d61782d6672616d652d73697a6503fcf0060c6361706162696c697469657308000b6865616c7468636865636b11");
        } finally {
            for (Origin o : origins) {
                o.close();
            }
        }
    }

    private static Origin start(List<Origin> all, Origin.Handler h) throws Exception {
        Origin o = Origin.start(h);
        all.add(o);
        return o;
    }

}
