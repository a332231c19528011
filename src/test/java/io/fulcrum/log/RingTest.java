package io.fulcrum.log;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RingTest {

    private static boolean write(Ring r, String text) {
        byte[] b = (text + "garbage").getBytes(StandardCharsets.US_ASCII);
        return r.write(b, text.length());
    }

    private static List<String> read(Ring r, Ring.Cursor c) throws InterruptedException {
        List<byte[]> out = new ArrayList<>();
        r.read(c, out, 1000, 0);
        return out.stream().map(b -> new String(b, StandardCharsets.US_ASCII)).toList();
    }

    @Test
    void theOldestMessagesMakeRoomForNewOnes() throws Exception {
        Ring r = new Ring("r", "r", 3 * (10 + Ring.OVERHEAD));
        for (int i = 0; i < 200; i++) { // past the first growth of the slot array
            assertThat(write(r, "message%03d".formatted(i))).isTrue();
        }
        assertThat(read(r, r.cursor(false))).containsExactly("message197", "message198", "message199");
        assertThat(read(r, r.cursor(true))).isEmpty();
        assertThat(r.dropped()).isZero();
    }

    @Test
    void aReaderLeftBehindGoesOnFromTheOldestKept() throws Exception {
        Ring r = new Ring("r", "r", 2 * (1 + Ring.OVERHEAD));
        Ring.Cursor c = r.cursor(false);
        write(r, "a");
        assertThat(read(r, c)).containsExactly("a");
        write(r, "b");
        write(r, "c");
        write(r, "d");
        assertThat(read(r, c)).containsExactly("c", "d");
        assertThat(read(r, c)).isEmpty();
    }

    @Test
    void aPinnedReaderKeepsWhatItHasNotReadAndNewMessagesDrop() throws Exception {
        Ring r = new Ring("r", "r", 2 * (1 + Ring.OVERHEAD));
        Ring.Cursor pin = r.cursor(false);
        r.pin(pin);
        assertThat(write(r, "a")).isTrue();
        assertThat(write(r, "b")).isTrue();
        assertThat(write(r, "c")).isFalse();
        assertThat(r.dropped()).isEqualTo(1);
        assertThat(read(r, pin)).containsExactly("a", "b");
        assertThat(write(r, "c")).isTrue();
        r.release(pin);
        assertThat(write(r, "d")).isTrue();
        assertThat(read(r, r.cursor(false))).containsExactly("c", "d");
    }

    @Test
    void aMessageLargerThanTheRingIsDropped() {
        Ring r = new Ring("r", "r", 10);
        assertThat(write(r, "x".repeat(20))).isFalse();
        assertThat(r.dropped()).isEqualTo(1);
    }

    @Test
    void aWaitingReaderWakesUpOnAWrite() throws Exception {
        Ring r = new Ring("r", "r", 1000);
        Ring.Cursor c = r.cursor(true);
        Thread.ofVirtual().start(() -> {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
            write(r, "late");
        });
        List<byte[]> out = new ArrayList<>();
        long start = System.nanoTime();
        while (out.isEmpty() && System.nanoTime() - start < 10_000_000_000L) {
            r.read(c, out, 10, 5000);
        }
        assertThat(out).hasSize(1);
    }

    /** A backing file holds the messages the ring keeps, each followed by a newline, between the header's positions. */
    @Test
    void aBackingFileKeepsACopyOfTheMessages(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path path = dir.resolve("r.bin");
        long size = RingFile.HEADER + 3 * (10 + Ring.OVERHEAD);
        RingFile.create(path, size, "r");
        Ring r = new Ring("r", "r", size - RingFile.HEADER, RingFile.open(path, size));
        for (int i = 0; i < 7; i++) {
            write(r, "message%03d".formatted(i));
        }
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(java.nio.file.Files.readAllBytes(path));
        assertThat(new String(b.array(), 0, 16, StandardCharsets.US_ASCII)).isEqualTo("FULCRUM-RING-01\n");
        long area = b.getLong(16);
        long head = b.getLong(24);
        long end = b.getLong(32);
        StringBuilder kept = new StringBuilder();
        for (long p = head; p < end; p++) {
            kept.append((char) b.get((int) (RingFile.HEADER + p % area)));
        }
        assertThat(kept).hasToString("message004\nmessage005\nmessage006\n");
    }
}
