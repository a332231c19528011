package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ring buffers ({@code ring} sections, {@code ring@} and {@code tcp@} log targets), {@code show events}, and the
 * forwarding of rings to syslog servers over TCP. Each expectation is what haproxy 2.6 does (run with
 * -Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RingIT {
    @TempDir
    Path dir;

    /** A frontend answering 200 itself, logging "%HM %HU %ST" to {@code targets}, with {@code sections} before it. */
    private String config(int fe, String targets, String sections) {
        return """
                global
                    stats socket %s level admin
                %s
                %s
                defaults
                    mode http
                    timeout client 5s
                    timeout server 5s
                    timeout connect 5s
                    log global
                    log-format "%%HM %%HU %%ST"
                frontend fe
                    bind 127.0.0.1:%d
                    http-request return status 200
                """.formatted(dir.resolve("admin.sock"), targets.indent(4), sections, fe);
    }

    private String cli(String line) throws IOException {
        return CliClient.send(dir.resolve("admin.sock"), line);
    }

    private static void get(int port, String path) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            assertThat(new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)).startsWith("HTTP/1.1 200");
        }
    }

    /** The lines {@code show events <ring>} prints, once the ring has {@code last}: the sender is asynchronous. */
    private List<String> events(String ring, String last) throws Exception {
        String out = "";
        for (int i = 0; i < 100 && !out.contains(last + "\n"); i++) {
            Thread.sleep(50);
            out = cli("show events " + ring);
        }
        assertThat(out).endsWith("\n\n");
        return Arrays.asList(out.substring(0, out.length() - 2).split("\n"));
    }

    @Test
    void showEventsListsTheSinks() throws Exception {
        int fe = freePort();
        try (FulcrumProcess p = TcpProxyKit.serve(config(fe, "log ring@r local0\nlog tcp@127.0.0.1:1 local0", """
                ring r
                    description "My local buffer"
                ring other
                """), fe)) {
            assertThat(cli("show events")).matches("""
                    Supported events sinks are listed below. Add -w\\(wait\\), -n\\(new\\). Any key to stop
                        stdout     : type=fd, 0 dropped, standard output \\(fd#1\\)
                        stderr     : type=fd, 0 dropped, standard output \\(fd#2\\)
                        buf0       : type=buffer, 0 dropped, in-memory ring buffer
                        r          : type=buffer, 0 dropped, My local buffer
                        other      : type=buffer, 0 dropped, other
                        ring#1     : type=buffer, 0 dropped, created from logserver declared into '.*test.cfg' at line 4

                    """);
            assertThat(cli("show events nope")).isEqualTo("No such event sink\n");
            assertThat(cli("show events r -x")).isEqualTo("unknown option\n");
            assertThat(cli("show events stdout")).isEqualTo("Nothing to report for this sink\n");
            assertThat(cli("show events other")).isEqualTo("\n");
        }
    }

    /** A ring keeps its newest lines within its size: 157 lines of 102 bytes in 16384 bytes, each costing 2 more. */
    @Test
    void aRingKeepsItsNewestLines() throws Exception {
        int fe = freePort();
        try (FulcrumProcess p = TcpProxyKit.serve(config(fe, "log ring@r local0", "ring r\n    format priority"), fe)) {
            String pad = "x".repeat(80);
            for (int i = 0; i < 400; i++) {
                get(fe, "/many%04d%s".formatted(i, pad));
            }
            List<String> lines = events("r", "<134>GET /many0399" + pad + " 200");
            assertThat(lines).hasSize(157);
            for (int i = 0; i < lines.size(); i++) {
                assertThat(lines.get(i)).isEqualTo("<134>GET /many%04d%s 200".formatted(243 + i, pad));
            }
            assertThat(cli("show info")).contains("\nDroppedLogs: 0\n");
        }
    }

    /** A ring target's lines take the ring's format and maxlen (its own are ignored), its facility and levels. */
    @Test
    void theRingsFormatAndMaxlenApply() throws Exception {
        int fe = freePort();
        try (FulcrumProcess p = TcpProxyKit.serve(config(fe, """
                log-tag test
                log ring@r len 100 format raw local0
                log ring@r2 local1
                log ring@r3 local0 notice""", "ring r\n    format short\n    maxlen 20\nring r2\n    format rfc5424\nring r3"), fe)) {
            get(fe, "/abcdefghijklmnopqrstuvwxyz");
            assertThat(events("r2", "/abcdefghijklmnopqrstuvwxyz 200")).singleElement().asString()
                    .matches("<142>1 \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}[+-]\\d\\d:\\d\\d - test \\d+ - - "
                            + "GET /abcdefghijklmnopqrstuvwxyz 200");
            assertThat(events("r", "<6>GET /abcdefghijkl")).containsExactly("<6>GET /abcdefghijkl");
            assertThat(cli("show events r3")).isEqualTo("\n");
        }
    }

    @Test
    void waitModeShowsNewLinesUntilTheClientStops() throws Exception {
        int fe = freePort();
        try (FulcrumProcess p = TcpProxyKit.serve(config(fe, "log ring@r local0", "ring r\n    format priority"), fe)) {
            get(fe, "/before");
            events("r", "<134>GET /before 200");
            try (CliClient c = CliClient.open(dir.resolve("admin.sock"))) {
                c.write("show events r -w\n");
                assertThat(c.readUntil("/before 200\n")).isEqualTo("<134>GET ");
                get(fe, "/during");
                assertThat(c.readUntil("/during 200\n")).isEqualTo("<134>GET ");
                c.shutdownOutput();
                assertThat(c.readAll()).isEqualTo("\n");
            }
            try (CliClient c = CliClient.open(dir.resolve("admin.sock"))) {
                c.write("show events r -nw\n");
                // Whether the command started before a request's line is unknown: requests until a line shows.
                AtomicBoolean shown = new AtomicBoolean();
                Thread requests = Thread.ofVirtual().start(() -> {
                    for (int i = 0; i < 100 && !shown.get(); i++) {
                        try {
                            get(fe, "/new");
                            Thread.sleep(200);
                        } catch (Exception e) {
                            return;
                        }
                    }
                });
                assertThat(c.readUntil(" 200\n")).isEqualTo("<134>GET /new"); // not the old lines
                shown.set(true);
                requests.join();
                c.shutdownOutput();
                assertThat(c.readAll()).matches("(<134>GET /new 200\n)*\n");
            }
        }
    }

    /** A ring's servers get its lines over TCP: framed by octet counting, or (tcp@ targets) followed by a newline. */
    @Test
    void serversGetTheLinesOverTcp() throws Exception {
        int fe = freePort();
        try (TcpSyslogListener counted = TcpSyslogListener.open(true);
             TcpSyslogListener legacy = TcpSyslogListener.open(false);
             FulcrumProcess p = TcpProxyKit.serve(config(fe, "log ring@r local0\nlog tcp@127.0.0.1:" + legacy.port() + " format short local0",
                     """
                     ring r
                         format priority
                         timeout connect 2s
                         timeout server 5s
                         server s 127.0.0.1:%d log-proto octet-count
                     """.formatted(counted.port())), fe)) {
            get(fe, "/a");
            get(fe, "/b");
            assertThat(counted.next()).isEqualTo("<134>GET /a 200");
            assertThat(counted.next()).isEqualTo("<134>GET /b 200");
            assertThat(legacy.next()).isEqualTo("<6>GET /a 200");
            assertThat(legacy.next()).isEqualTo("<6>GET /b 200");
            // The server goes away: the forwarder connects again and goes on.
            counted.drop();
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (counted.connections() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            get(fe, "/c");
            assertThat(counted.next()).isEqualTo("<134>GET /c 200");
            assertThat(counted.connections()).isEqualTo(2);
        }
    }

    /**
     * A uxst@ target gets a ring of its own, like tcp@, whose lines go to a unix stream socket, each followed by a
     * newline; abns@ targets are refused.
     */
    @Test
    void aUnixStreamTargetGetsTheLines() throws Exception {
        int fe = freePort();
        Path sock = dir.resolve("log.sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(sock));
            try (FulcrumProcess p = TcpProxyKit.serve(config(fe, "log uxst@" + sock + " format short local0", ""), fe)) {
                get(fe, "/a");
                get(fe, "/b");
                try (SocketChannel ch = server.accept()) {
                    StringBuilder got = new StringBuilder();
                    ByteBuffer b = ByteBuffer.allocate(256);
                    while (got.toString().split("\n", -1).length < 3 && ch.read(b.clear()) > 0) {
                        got.append(StandardCharsets.US_ASCII.decode(b.flip()));
                    }
                    assertThat(got.toString()).isEqualTo("<6>GET /a 200\n<6>GET /b 200\n");
                }
                assertThat(cli("show events")).contains("    ring#1     : type=buffer, 0 dropped, created from logserver declared into '");
            }
        }
    }

    /** A ring's backing file holds its messages once the process stopped (Fulcrum's layout: docs/differences.md). */
    @Test
    void aBackingFileKeepsTheRingsMessages() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(TcpProxyKit.haproxy(), "HAProxy's file holds its own ring structure");
        int fe = freePort();
        Path file = dir.resolve("ring.bin");
        try (FulcrumProcess p = TcpProxyKit.serve(config(fe, "log ring@r local0", """
                ring r
                    size 32768
                    backing-file %s
                """.formatted(file)), fe)) {
            get(fe, "/a");
            get(fe, "/b");
            assertThat(cli("show events r")).isEqualTo("GET /a 200\nGET /b 200\n\n");
        }
        ByteBuffer b = ByteBuffer.wrap(java.nio.file.Files.readAllBytes(file));
        assertThat(b.capacity()).isEqualTo(32768);
        assertThat(new String(b.array(), 0, 16, StandardCharsets.US_ASCII)).isEqualTo("FULCRUM-RING-01\n");
        assertThat(new String(b.array(), 72 + (int) b.getLong(24), (int) (b.getLong(32) - b.getLong(24)), StandardCharsets.US_ASCII))
                .isEqualTo("GET /a 200\nGET /b 200\n");
    }

    /** debug writes to buf0 (its default) and to ring sections, after the header their format puts before a bare message. */
    @Test
    void debugWritesToBuf0AndToRingsInTheirFormat() throws Exception {
        int fe = freePort();
        String date = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}[+-]\\d\\d:\\d\\d";
        try (FulcrumProcess p = TcpProxyKit.serve("""
                global
                    stats socket %s level admin
                ring r1
                    format rfc5424
                ring r2
                    format iso
                ring r3
                    format short
                ring r4
                    format rfc3164
                ring r5
                defaults
                    mode http
                    timeout client 5s
                    timeout server 5s
                    timeout connect 5s
                frontend fe
                    bind 127.0.0.1:%d
                    http-request set-var(txn.y) bin(41ff42),debug(p1,r1),debug(p2,r2),debug(p3,r3),debug(p4,r4),debug(p5,r5),debug(p6)
                    http-request return status 200
                """.formatted(dir.resolve("admin.sock"), fe), fe)) {
            get(fe, "/");
            assertThat(events("r1", "").get(0)).matches("<0>1 " + date + " - - - - - \\[debug\\] p1: type=bin <A\\.B>");
            assertThat(events("r2", "").get(0)).matches(date + " \\[debug\\] p2: type=bin <A\\.B>");
            assertThat(events("r3", "")).containsExactly("<0>[debug] p3: type=bin <A.B>");
            assertThat(events("r4", "").get(0)).matches("<0>[A-Z][a-z]{2} [ \\d]\\d \\d\\d:\\d\\d:\\d\\d localhost \\[debug\\] p4: type=bin <A\\.B>");
            assertThat(events("r5", "")).containsExactly("[debug] p5: type=bin <A.B>");
            assertThat(events("buf0", "").get(0)).matches("<0>" + date + " \\[debug\\] p6: type=bin <A\\.B>");
        }
    }
}
