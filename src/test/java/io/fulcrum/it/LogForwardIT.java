package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code log-forward} sections: syslog messages sent over UDP ({@code dgram-bind}) and TCP ({@code bind}, octet counting
 * and LF framing) reach each {@code log} target in its format, filtered by its levels, and are counted by
 * {@code show info}'s CumRecvLogs. Each expectation is what haproxy 2.6 does (passes with -Dit.proxy=haproxy), but
 * for {@code timeout client} and {@code maxconn} (see their tests).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LogForwardIT {
    private static final String RFC3164 = "<134>Dec  1 04:10:22 myhost prog[123]: hello 3164";
    private static final String RFC5424 = "<133>1 2026-12-01T04:10:22.123456+00:00 myhost prog 123 ID47 [ex@1 a=\"b\"] hello 5424";

    @TempDir
    Path dir;

    private String config(int port, String targets) {
        return """
                global
                    stats socket %s level admin
                log-forward syslog
                    dgram-bind 127.0.0.1:%d
                    bind 127.0.0.1:%d
                    maxconn 5
                    timeout client 5s
                %s
                """.formatted(dir.resolve("admin.sock"), port, port, targets.indent(4));
    }

    /** The proxy on {@link #config} with one raw target, {@code raw}, and {@code from} of the section made {@code to}. */
    private FulcrumProcess serveRaw(int port, SyslogListener raw, String from, String to) throws Exception {
        return TcpProxyKit.serve(config(port, "log 127.0.0.1:%d format raw local0".formatted(raw.port())).replace(from, to), port);
    }

    private static void udp(int port, String message) throws Exception {
        try (DatagramSocket s = new DatagramSocket()) {
            byte[] b = message.getBytes(StandardCharsets.ISO_8859_1);
            s.send(new DatagramPacket(b, b.length, InetAddress.getLoopbackAddress(), port));
        }
    }

    @Test
    void datagramsGoToEachTargetInItsFormat() throws Exception {
        int port = freePort();
        try (SyslogListener local = SyslogListener.open(); SyslogListener rfc5424 = SyslogListener.open();
             SyslogListener rfc3164 = SyslogListener.open(); SyslogListener shortLevel = SyslogListener.open();
             FulcrumProcess p = TcpProxyKit.serve(config(port, """
                     log 127.0.0.1:%d local0
                     log 127.0.0.1:%d format rfc5424 local0
                     log 127.0.0.1:%d format rfc3164 local3 notice
                     log 127.0.0.1:%d format short local0 debug err
                     """.formatted(local.port(), rfc5424.port(), rfc3164.port(), shortLevel.port())), port)) {
            udp(port, RFC3164);
            // Without a format the message goes as it came; its own facility wins over the line's.
            assertThat(local.next()).isEqualTo(RFC3164 + "\n");
            assertThat(rfc5424.next()).matches("<134>1 \\d{4}-12-01T04:10:22-00:00 myhost prog 123 - - hello 3164\n");
            assertThat(shortLevel.next()).isEqualTo("<6>hello 3164\n");

            udp(port, RFC5424);
            assertThat(local.next()).isEqualTo(RFC5424 + "\n");
            assertThat(rfc5424.next()).isEqualTo(RFC5424 + "\n");
            // info (6) is filtered out by "notice": the first message rfc3164 gets is this notice (5).
            assertThat(rfc3164.next()).isEqualTo("<133>Dec  1 04:10:22 myhost prog[123]: hello 5424\n");
            assertThat(shortLevel.next()).isEqualTo("<5>hello 5424\n");

            // No header: the line's facility, the most severe level (raised to the minimum), the date it is sent.
            udp(port, "no header at all");
            assertThat(local.next()).isEqualTo("no header at all\n");
            assertThat(rfc5424.next()).matches("<128>1 \\S+ - - - - - no header at all\n");
            assertThat(rfc3164.next()).matches("<152>\\w{3} [ \\d]\\d \\d\\d:\\d\\d:\\d\\d localhost no header at all\n");
            assertThat(shortLevel.next()).isEqualTo("<3>no header at all\n");

            assertThat(CliClient.send(dir.resolve("admin.sock"), "show info")).contains("CumRecvLogs: 3\n");
        }
    }

    @Test
    void streamsTakeOctetCountingAndLineFraming() throws Exception {
        int port = freePort();
        try (SyslogListener raw = SyslogListener.open();
             FulcrumProcess p = serveRaw(port, raw, "", "");
             Socket s = new Socket("127.0.0.1", port)) {
            OutputStream out = s.getOutputStream();
            String counted = "<134>Dec  1 04:10:22 h p[1]: counted";
            out.write((counted.length() + " " + counted + "<134>Dec  1 04:10:22 h p[1]: line one\n<134>Dec  1 04:10:22 h p[1]: li")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(raw.next()).isEqualTo("counted\n");
            assertThat(raw.next()).isEqualTo("line one\n");
            raw.assertNone(300); // the third is not complete yet
            out.write("ne two\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(raw.next()).isEqualTo("line two\n");
        }
    }

    @Test
    void aTcpTargetGetsForwardedMessagesThroughItsRing() throws Exception {
        int port = freePort();
        try (TcpSyslogListener tcp = TcpSyslogListener.open(false);
             FulcrumProcess p = TcpProxyKit.serve(config(port, "log tcp@127.0.0.1:%d len 4096 format rfc3164 local0"
                     .formatted(tcp.port())), port)) {
            udp(port, RFC5424 + " " + "x".repeat(3000));
            // A datagram longer than Netty's default receive buffer arrives whole.
            assertThat(tcp.next()).isEqualTo("<133>Dec  1 04:10:22 myhost prog[123]: hello 5424 " + "x".repeat(3000));
        }
    }

    /**
     * As configuration.txt documents {@code timeout client}. Fulcrum only: haproxy 2.6.12 was seen keeping such a
     * connection open (docs/differences.md).
     */
    @Test
    void aSilentStreamIsClosedAfterTimeoutClient() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(TcpProxyKit.haproxy(), "haproxy 2.6 does not close it");
        int port = freePort();
        try (SyslogListener raw = SyslogListener.open();
             FulcrumProcess p = serveRaw(port, raw, "timeout client 5s", "timeout client 500ms");
             Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(5000);
            long start = System.nanoTime();
            assertThat(s.getInputStream().read()).isEqualTo(-1);
            assertThat(System.nanoTime() - start).isGreaterThan(400_000_000L);
        }
    }

    /**
     * Fulcrum only: haproxy 2.6.12 was seen never reading the waiting connection once the first closed (it does not
     * seem to notice a syslog client closing, as it does not apply {@code timeout client}).
     */
    @Test
    void beyondMaxconnAConnectionWaitsForOneToClose() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(TcpProxyKit.haproxy(), "haproxy 2.6 does not free the slot");
        int port = freePort();
        try (SyslogListener raw = SyslogListener.open(); FulcrumProcess p = serveRaw(port, raw, "maxconn 5", "maxconn 1");
             Socket first = new Socket("127.0.0.1", port); Socket second = new Socket("127.0.0.1", port)) {
            // Both connect at once: the listener may take the second in the same accept batch; it must wait too.
            first.getOutputStream().write("<1>first\n".getBytes(StandardCharsets.US_ASCII));
            second.getOutputStream().write("<1>second\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(raw.next()).isEqualTo("first\n");
            raw.assertNone(500); // waiting, not read
            first.close();
            assertThat(raw.next()).isEqualTo("second\n");
        }
    }
}
