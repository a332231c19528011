package io.fulcrum.log;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The sender thread: framing, truncation, level filtering and sampling, over a real UDP socket. */
class LogSenderTest {
    private DatagramSocket socket;
    private LogSender sender;

    @BeforeEach
    void open() throws Exception {
        socket = new DatagramSocket(0, InetAddress.getLoopbackAddress());
        socket.setSoTimeout(5000);
        sender = new LogSender("host", new Sinks(java.util.List.of()));
    }

    @AfterEach
    void close() {
        sender.close();
        socket.close();
    }

    private LogTarget target(int length, SyslogFormat format, LogSampling sampling, int maxLevel) {
        return new LogTarget(new LogDestination.Udp(new InetSocketAddress(InetAddress.getLoopbackAddress(), socket.getLocalPort())),
                length, format, sampling, 16, maxLevel, Syslog.EMERG, null);
    }

    private void send(LogTarget t, int level, String text) {
        assertThat(sender.offer(new LogMessage(new LogTarget[] {t}, "tag", level, 0, text.getBytes(StandardCharsets.ISO_8859_1), null, false)))
                .isTrue();
    }

    private String receive() throws Exception {
        DatagramPacket p = new DatagramPacket(new byte[70000], 70000);
        socket.receive(p);
        return new String(p.getData(), 0, p.getLength(), StandardCharsets.ISO_8859_1);
    }

    @Test
    void framesCutsAndFilters() throws Exception {
        send(target(1024, SyslogFormat.SHORT, null, Syslog.DEBUG), Syslog.INFO, "hello");
        assertThat(receive()).isEqualTo("<6>hello\n");
        // len counts the header too; the newline comes after.
        send(target(80, SyslogFormat.RAW, null, Syslog.DEBUG), Syslog.INFO, "x".repeat(100));
        assertThat(receive()).isEqualTo("x".repeat(80) + "\n");
        // Filtered out by level: the next datagram is the one after.
        send(target(1024, SyslogFormat.PRIORITY, null, Syslog.NOTICE), Syslog.INFO, "dropped");
        send(target(1024, SyslogFormat.PRIORITY, null, Syslog.NOTICE), Syslog.ERR, "kept");
        assertThat(receive()).isEqualTo("<131>kept\n");
    }

    @Test
    void samplingKeepsTheRanges() throws Exception {
        LogTarget t = target(1024, SyslogFormat.RAW, LogSampling.parse("2:3"), Syslog.DEBUG);
        for (int i = 1; i <= 6; i++) {
            send(t, Syslog.INFO, "m" + i);
        }
        assertThat(receive()).isEqualTo("m2\n");
        assertThat(receive()).isEqualTo("m5\n");
        assertThat(sender.dropped()).isZero();
    }
}
