package io.fulcrum.log;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.FileDescriptor;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class LogWritersTest {

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** fd@N: one write per message to the inherited descriptor (here a pipe's). */
    @Test
    void writesToAnInheritedDescriptor() throws Exception {
        assumeTrue(Epoll.isAvailable());
        FileDescriptor[] pipe = FileDescriptor.pipe();
        try (LogWriters w = new LogWriters(new Sinks(List.of()))) {
            assertThat(w.write(new LogDestination.Stream(pipe[1].intValue()), bytes("<6>hello\nrest"), 9)).isTrue();
            ByteBuffer in = ByteBuffer.allocateDirect(64);
            int n = pipe[0].read(in, 0, 64);
            byte[] got = new byte[n];
            in.get(0, got);
            assertThat(new String(got, StandardCharsets.US_ASCII)).isEqualTo("<6>hello\n");
        } finally {
            pipe[0].close();
            pipe[1].close();
        }
    }

    /** A ring keeps messages without their newline; when a reader pins it full, the write fails (a dropped line). */
    @Test
    void writesToARingUntilItIsFull() throws Exception {
        RingSpec spec = new RingSpec("r", "r", null);
        Sinks sinks = new Sinks(List.of(spec));
        Ring ring = sinks.ring("r");
        ring.pin(ring.cursor(false));
        try (LogWriters w = new LogWriters(sinks)) {
            byte[] line = bytes("x".repeat(999) + "\n");
            int written = 0;
            while (w.write(new LogDestination.Ring("r"), line, line.length)) {
                written++;
            }
            assertThat(written).isEqualTo(RingSpec.BUFSIZE / (999 + Ring.OVERHEAD));
            assertThat(ring.dropped()).isEqualTo(1);
            assertThat(w.write(new LogDestination.Ring("nope"), line, line.length)).isFalse();
        }
        List<byte[]> out = new java.util.ArrayList<>();
        ring.read(ring.cursor(false), out, 1, 0);
        assertThat(out.get(0)).hasSize(999);
    }
}
