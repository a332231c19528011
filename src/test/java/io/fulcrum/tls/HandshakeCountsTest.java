package io.fulcrum.tls;

import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.HexFormat;

import static io.fulcrum.tls.HandshakeCounts.SESSION_ID;
import static io.fulcrum.tls.HandshakeCounts.TICKET;
import static org.assertj.core.api.Assertions.assertThat;

class HandshakeCountsTest {
    private static final HexFormat HEX = HexFormat.of();

    /** A ClientHello's body (from its version on) with a session ID of {@code sid} bytes and these extensions. */
    private static byte[] body(int sid, String extensions) {
        byte[] ext = HEX.parseHex(extensions);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(HEX.parseHex("0303"));
        b.writeBytes(new byte[32]);
        b.write(sid);
        b.writeBytes(new byte[sid]);
        b.writeBytes(HEX.parseHex("0004" + "1301c02f" + "0100"));
        b.writeBytes(new byte[] {(byte) (ext.length >> 8), (byte) ext.length});
        b.writeBytes(ext);
        return b.toByteArray();
    }

    private static int offer(byte[] body) {
        return HandshakeCounts.offer(Unpooled.wrappedBuffer(body));
    }

    @Test
    void aSessionIdAndATicketThatIsNotEmpty() {
        String sni = "0000000e000c0000096c6f63616c686f7374";
        assertThat(offer(body(0, sni + "00230000"))).isZero(); // an empty ticket extension asks for a ticket
        assertThat(offer(body(32, sni + "00230000"))).isEqualTo(SESSION_ID);
        assertThat(offer(body(32, sni))).isEqualTo(SESSION_ID);
        assertThat(offer(body(32, sni + "00230003aabbcc" + "000a00020017"))).isEqualTo(SESSION_ID | TICKET);
        assertThat(offer(body(0, "00230003aabbcc"))).isEqualTo(TICKET);
        assertThat(offer(body(32, ""))).isEqualTo(SESSION_ID);
    }

    @Test
    void whatIsCutStopsTheReading() {
        byte[] full = body(32, "00230003aabbcc");
        assertThat(offer(java.util.Arrays.copyOf(full, full.length - 4))).isEqualTo(SESSION_ID); // the ticket cut
        assertThat(offer(java.util.Arrays.copyOf(full, 30))).isZero();
        assertThat(HandshakeCounts.offer(null)).isZero();
    }
}
