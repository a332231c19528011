package io.fulcrum.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.AsciiString;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class HttpHeadersTest {

    /** Headers over a head's bytes as the parser indexes them: "name: value CRLF" lines, names in lower case. */
    private static HttpHeaders parsed(String lines) {
        byte[] bytes = lines.getBytes(StandardCharsets.ISO_8859_1);
        int[] index = new int[4 * 16];
        int count = 0;
        for (int p = 0; p < bytes.length; ) {
            int lf = lines.indexOf('\n', p);
            int colon = lines.indexOf(':', p);
            int value = colon + 1;
            while (lines.charAt(value) == ' ' || lines.charAt(value) == '\t') {
                value++;
            }
            int end = lines.charAt(lf - 1) == '\r' ? lf - 1 : lf;
            while (end > value && (lines.charAt(end - 1) == ' ' || lines.charAt(end - 1) == '\t')) {
                end--;
            }
            index[4 * count] = p;
            index[4 * count + 1] = colon - p;
            index[4 * count + 2] = value;
            index[4 * count + 3] = end - value;
            count++;
            p = lf + 1;
        }
        return new HttpHeaders(bytes, bytes.length, index, count);
    }

    /** What writeField writes for each field present, one at a time. */
    private static String oneByOne(HttpHeaders h) {
        ByteBuf out = Unpooled.buffer();
        for (int i = 0; i < h.slots(); i++) {
            if (!h.removed(i)) {
                h.writeField(i, out);
            }
        }
        return text(out);
    }

    private static String writeTo(HttpHeaders h) {
        ByteBuf out = Unpooled.buffer();
        h.writeTo(out);
        return text(out);
    }

    private static String text(ByteBuf b) {
        try {
            return b.toString(StandardCharsets.ISO_8859_1);
        } finally {
            b.release();
        }
    }

    @Test
    void fieldsAsParsedAreWrittenAsTheyAre() {
        HttpHeaders h = parsed("host: a\r\nuser-agent: x y\r\naccept: */*\r\n");
        assertThat(writeTo(h)).isEqualTo("host: a\r\nuser-agent: x y\r\naccept: */*\r\n").isEqualTo(oneByOne(h));
        assertThat(h.size()).isEqualTo(3);
    }

    @Test
    void fieldsNotAsWrittenAreRewritten() {
        // No space, two spaces, trailing whitespace, a lone LF: each is written in the usual form.
        HttpHeaders h = parsed("a:1\r\nb:  2\r\nc: 3 \t\r\nd: 4\ne: 5\r\n");
        assertThat(writeTo(h)).isEqualTo("a: 1\r\nb: 2\r\nc: 3\r\nd: 4\r\ne: 5\r\n").isEqualTo(oneByOne(h));
    }

    @Test
    void removedSetAndAddedFieldsAreWrittenInPlace() {
        HttpHeaders h = parsed("host: a\r\nconnection: close\r\nx-a: 1\r\nx-b: 2\r\nx-c: 3\r\n");
        h.remove(1);
        h.setValue(3, "two");
        h.add("x-d", "4");
        h.set("x-a", "one");
        assertThat(writeTo(h)).isEqualTo("host: a\r\nx-a: one\r\nx-b: two\r\nx-c: 3\r\nx-d: 4\r\n").isEqualTo(oneByOne(h));
        ByteBuf out = Unpooled.buffer();
        h.writeFields(2, 4, out);
        assertThat(text(out)).isEqualTo("x-a: one\r\nx-b: two\r\n");
        assertThat(h.size()).isEqualTo(5);
    }

    @Test
    void namesCompareIgnoringCase() {
        HttpHeaders h = parsed("host: a\r\nx-long-name: 1\r\nhost: b\r\n");
        h.add("X-Added", "2");
        assertThat(h.indexOf("Host", 0)).isZero();
        assertThat(h.indexOf("HOST", 1)).isEqualTo(2);
        assertThat(h.indexOf(AsciiString.of("x-LONG-name"), 0)).isEqualTo(1);
        assertThat(h.indexOf("x-added", 0)).isEqualTo(3);
        assertThat(h.indexOf("x-long-namf", 0)).isEqualTo(-1);
        assertThat(h.indexOf("", 0)).isEqualTo(-1);
        h.remove(0);
        assertThat(h.indexOf("host", 0)).isEqualTo(2);
        assertThat(h.get("HOST").toString()).isEqualTo("b");
        assertThat(h.removeAll("host")).isOne();
        assertThat(h.contains("host")).isFalse();
    }

    /** The HTX size a rewrite is checked against: kept up to date by each change once asked for. */
    @Test
    void htxSizeFollowsTheChanges() {
        HttpHeaders h = parsed("host: x\r\nx-a: 12\r\nx-a: 345\r\n");
        assertThat(h.htxSize()).isEqualTo(3 * 8 + "hostx".length() + "x-a12".length() + "x-a345".length());
        h.add("x-b", "v");
        h.set("x-a", "zz");
        h.setValue(0, "longer");
        h.remove(3); // x-b
        h.remove(3); // removed already: nothing changes
        assertThat(h.htxSize()).isEqualTo(2 * 8 + "host".length() + "longer".length() + "x-a".length() + "zz".length());
        RequestHead r = new RequestHead(new AsciiString("GET"), new AsciiString("/on"), 11, h);
        assertThat(r.htxSize()).isEqualTo(HttpHead.HTX_FIXED + "GET/onHTTP/1.1".length() + h.htxSize());
    }

    /** The HTX data HAProxy counts in %U/%B: 20 for the start line and its strings, names and values, 1 for the end. */
    @Test
    void htxDataIsWhatHaproxyCounts() {
        HttpHeaders h = parsed("content-length: 2\r\n");
        ResponseHead ok = new ResponseHead(11, 200, new AsciiString("OK"), h);
        assertThat(ok.htxData()).as("HAProxy 2.6 logs 51 for it with its 2-byte body").isEqualTo(49);
        h.add("x-a", "12");
        assertThat(h.htxData()).isEqualTo("content-length2x-a12".length());
        h.remove(1);
        assertThat(ok.htxData()).isEqualTo(49);
        RequestHead get = new RequestHead(new AsciiString("GET"), new AsciiString("/ok"), 11, parsed("host: a\r\n"));
        assertThat(get.htxData()).isEqualTo(40);
    }
}
