package io.fulcrum.check;

import io.fulcrum.check.CheckRule.Verdict;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The answers of protocol checks that the integration tests do not meet: SPOE frames gone wrong, headers matched. */
class ProtocolJudgesTest {

    private static Verdict spop(String frameHex, boolean eof) {
        byte[] body = ByteBufUtil.decodeHexDump(frameHex);
        ByteBuf b = Unpooled.buffer().writeInt(body.length).writeBytes(body);
        try {
            return SpopHello.judge(b, eof);
        } finally {
            b.release();
        }
    }

    private static String kv(String key) {
        return String.format("%02x", key.length()) + ByteBufUtil.hexDump(key.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static final String META = "00000001" + "0000";
    private static final String VERSION = kv("version") + "08" + "03" + ByteBufUtil.hexDump("2.0".getBytes(StandardCharsets.ISO_8859_1));
    private static final String FRAME_SIZE = kv("max-frame-size") + "03" + "fcf006";

    @Test
    void anAgentHelloWithVersionAndFrameSizePasses() {
        assertThat(spop("65" + META + VERSION + FRAME_SIZE + kv("capabilities") + "0800", false).info()).isEqualTo("SPOA server is ok");
        assertThat(spop("65" + META + VERSION + FRAME_SIZE, false).passed()).isTrue();
    }

    @Test
    void spoeErrorsAreWordedAsHaproxys() {
        assertThat(spop("65" + META + VERSION, false).info()).isEqualTo("max-frame-size value not found");
        assertThat(spop("65" + META + FRAME_SIZE, false).info()).isEqualTo("version value not found");
        assertThat(spop("65" + "00000000" + "0000" + VERSION + FRAME_SIZE, false).info()).isEqualTo("fragmentation not supported");
        assertThat(spop("65" + META + VERSION + kv("max-frame-size") + "03" + "10", false).info()).isEqualTo("max-frame-size too big or too small");
        assertThat(spop("01" + META, false).info()).isEqualTo("invalid frame received");
        assertThat(spop("66" + META + kv("status-code") + "03" + "03" + kv("message") + "0800", false).info()).isEqualTo("frame is too big");
        assertThat(spop("66" + META + kv("status-code") + "03" + "63", false).info()).isEqualTo("an unknown error occurred");
        assertThat(spop("65" + META + VERSION + FRAME_SIZE, false).status()).isNull();
    }

    @Test
    void aFrameIsWaitedForUntilWhole() {
        ByteBuf b = Unpooled.buffer().writeInt(100).writeByte(0x65);
        try {
            assertThat(SpopHello.judge(b, false)).isNull();
            assertThat(SpopHello.judge(b, true).info()).isEqualTo("invalid frame received");
        } finally {
            b.release();
        }
    }

    @Test
    void hdrSplitsValuesOnCommasAndFhdrDoesNot() {
        List<String[]> headers = List.of(new String[]{"X-Ver", "1.2, 3.4"}, new String[]{"Server", "nginx/1.25"});
        HeaderMatch.Match xver = new HeaderMatch.Match("str", "x-ver", null, null);
        HeaderMatch.Match v34 = new HeaderMatch.Match("str", "3.4", null, null);
        assertThat(new HeaderMatch(xver, v34, false).test(headers, null)).isTrue();
        assertThat(new HeaderMatch(xver, v34, true).test(headers, null)).isFalse();
        assertThat(new HeaderMatch(xver, new HeaderMatch.Match("str", "1.2, 3.4", null, null), true).test(headers, null)).isTrue();
        assertThat(new HeaderMatch(new HeaderMatch.Match("end", "VER", null, null), null, false).test(headers, null)).isTrue();
        assertThat(new HeaderMatch(new HeaderMatch.Match("str", "server", null, null), new HeaderMatch.Match("beg", "Nginx", null, null), false)
                .test(headers, null)).as("values compare with case").isFalse();
    }
}
