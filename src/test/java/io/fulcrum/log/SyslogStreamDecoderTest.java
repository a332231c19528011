package io.fulcrum.log;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The framing of syslog over TCP: octet counting and LF-terminated messages, in any cut, and its bound. */
class SyslogStreamDecoderTest {
    private final List<String> messages = new ArrayList<>();
    private final EmbeddedChannel channel = new EmbeddedChannel(
            new SyslogStreamDecoder(m -> messages.add(new String(m, StandardCharsets.ISO_8859_1))));

    private void write(String bytes) {
        channel.writeInbound(Unpooled.copiedBuffer(bytes, StandardCharsets.ISO_8859_1));
    }

    @Test
    void splitsBothFramingsWhereverTheBytesAreCut() {
        write("5 <1>ab<2>line\r\n<3>li");
        assertThat(messages).containsExactly("<1>ab", "<2>line");
        write("ne\n1");
        write("0 <4>a\nb c d");
        assertThat(messages).containsExactly("<1>ab", "<2>line", "<3>line", "<4>a\nb c d");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void anOversizedFrameClosesTheConnection() {
        write("70000 <1>x");
        assertThat(channel.isOpen()).isFalse();
        assertThat(messages).isEmpty();
    }

    @Test
    void aLineLongerThanTheBoundClosesTheConnection() {
        write("<1>" + "x".repeat(SyslogStreamDecoder.MAX));
        assertThat(channel.isOpen()).isFalse();
    }
}
