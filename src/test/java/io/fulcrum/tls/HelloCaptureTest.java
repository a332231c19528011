package io.fulcrum.tls;

import io.fulcrum.sample.Hashes;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

class HelloCaptureTest {
    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    /** A ClientHello record: GREASE 0A0A first, 3 suites, extensions: GREASE, supported groups, point formats, SNI. */
    private static byte[] hello() {
        byte[] ciphers = HEX.parseHex("0A0A1301C02F");
        byte[] extensions = HEX.parseHex("2A2A0000" + "000A0006" + "0004001D0017" + "000B0002" + "0100" + "00000000");
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(HEX.parseHex("0303"));
        body.writeBytes(new byte[32]);
        body.write(0); // no session id
        body.writeBytes(new byte[] {0, (byte) ciphers.length});
        body.writeBytes(ciphers);
        body.writeBytes(HEX.parseHex("0100")); // null compression
        body.writeBytes(new byte[] {0, (byte) extensions.length});
        body.writeBytes(extensions);
        byte[] b = body.toByteArray();
        ByteArrayOutputStream record = new ByteArrayOutputStream();
        record.writeBytes(new byte[] {0x16, 3, 1, 0, (byte) (b.length + 4), 1, 0, 0, (byte) b.length});
        record.writeBytes(b);
        return record.toByteArray();
    }

    @Test
    void theListsShareTheBufferInOrder() {
        byte[] r = hello();
        HelloCapture all = HelloCapture.parse(r, r.length, 1000);
        assertThat(all.version()).isEqualTo(0x0303);
        assertThat(HEX.formatHex(all.ciphers())).isEqualTo("0A0A1301C02F");
        assertThat(all.ciphersHash()).isEqualTo(Hashes.xxh64(HEX.parseHex("0A0A1301C02F"), 0, 6, 0));
        assertThat(HEX.formatHex(all.extensions())).isEqualTo("2A2A000A000B0000");
        assertThat(HEX.formatHex(all.groups())).isEqualTo("001D0017");
        assertThat(HEX.formatHex(all.formats())).isEqualTo("00");
        // 15 bytes: the 6 of the suites, the 4 extension types (8), 1 byte of the groups, nothing of the formats.
        HelloCapture cut = HelloCapture.parse(r, r.length, 15);
        assertThat(HEX.formatHex(cut.ciphers())).isEqualTo("0A0A1301C02F");
        assertThat(HEX.formatHex(cut.extensions())).isEqualTo("2A2A000A000B0000");
        assertThat(HEX.formatHex(cut.groups())).isEqualTo("00");
        assertThat(cut.formats()).isEmpty();
        HelloCapture small = HelloCapture.parse(r, r.length, 3);
        assertThat(HEX.formatHex(small.ciphers())).isEqualTo("0A0A13");
        assertThat(small.extensions()).isEmpty();
        assertThat(small.ciphersHash()).isEqualTo(all.ciphersHash()); // the whole list
    }

    @Test
    void namesAndGrease() {
        assertThat(CaptureFetches.names(HEX.parseHex("0A0A1301C02F00FF")))
                .isEqualTo("UNKNOWN(0a0a),TLS_AES_128_GCM_SHA256,ECDHE-RSA-AES128-GCM-SHA256,TLS_EMPTY_RENEGOTIATION_INFO_SCSV");
        assertThat(HEX.formatHex(CaptureFetches.withoutGrease(HEX.parseHex("0A0A1301FAFAC02F0A1A")))).isEqualTo("1301C02F0A1A");
    }

    @Test
    void theCollectorWaitsForTheWholeRecordAndIgnoresTheRest() {
        byte[] r = hello();
        HelloCapture.Collector c = new HelloCapture.Collector(1000);
        c.read(Unpooled.wrappedBuffer(r, 0, 3));
        assertThat(c.capture).isNull();
        c.read(Unpooled.wrappedBuffer(r, 3, r.length - 3));
        assertThat(c.capture).isNotNull();
        assertThat(HEX.formatHex(c.capture.groups())).isEqualTo("001D0017");
        HelloCapture.Collector broken = new HelloCapture.Collector(1000);
        broken.read(Unpooled.wrappedBuffer(HEX.parseHex("474554202F20485454502F312E310D0A")));
        assertThat(broken.capture).isNull();
        byte[] truncated = r.clone();
        truncated[4] = 20; // a record too short for its ClientHello
        HelloCapture.Collector shortRecord = new HelloCapture.Collector(1000);
        shortRecord.read(Unpooled.wrappedBuffer(truncated));
        assertThat(shortRecord.capture).isNull();
    }
}
