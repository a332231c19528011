package io.fulcrum.mux.h1;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** What the parser keeps of a refused message for {@code show errors}. */
class H1CaptureTest {

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Feeds {@code raw} in two pieces cut at {@code cut} (none when 0); returns the capture and the error. */
    private static Object[] refuse(H1Parser.Kind kind, String raw, int cut, int max) {
        Feed feed = new Feed(new H1Parser(kind, H1Limits.DEFAULT, false), new Recorder());
        try {
            byte[] b = bytes(raw);
            H1Exception e = catchThrowableOfType(H1Exception.class, () -> {
                if (cut > 0) {
                    feed.add(Arrays.copyOfRange(b, 0, cut));
                }
                feed.add(Arrays.copyOfRange(b, cut, b.length));
            });
            assertThat(e).as("refused when cut at %d", cut).isNotNull();
            return new Object[] {feed.capture(max), e};
        } finally {
            feed.release();
        }
    }

    @Test
    void aHeadIsKeptWholeWhateverItsPiecesAndTheErrorPointsAtTheBadByte() {
        String raw = "\r\nGET /x HTTP/1.1\r\nHost: a\r\nX-Some: b\r\nBad Name: x\r\n\r\nbody";
        for (int cut = 0; cut < raw.length(); cut++) {
            Object[] r = refuse(H1Parser.Kind.REQUEST, raw, cut, 16384);
            H1Capture c = (H1Capture) r[0];
            H1Exception e = (H1Exception) r[1];
            // Refused in the first piece when it has the whole bad line: only that piece came.
            boolean first = cut > raw.indexOf('\n', raw.indexOf("Bad Name"));
            // An empty line before the request consumed with an earlier piece is no longer there.
            int start = cut >= 2 && !first ? 2 : 0;
            assertThat(c.start()).as("cut at %d", cut).isEqualTo(start);
            // The lines complete before the last piece have their names lower-cased, nothing else changes.
            assertThat(new String(c.bytes(), StandardCharsets.ISO_8859_1)).as("cut at %d", cut)
                    .isEqualToIgnoringCase(raw.substring(start, first ? cut : raw.length()));
            assertThat(e.position()).as("cut at %d", cut).isEqualTo(raw.indexOf("Bad Name") + 3);
        }
    }

    @Test
    void aHeadRefusedOnceCompleteIsKeptWithItsEndAndWhatFollows() {
        String raw = "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab";
        H1Capture c = (H1Capture) refuse(H1Parser.Kind.REQUEST, raw, 0, 16384)[0];
        assertThat(c.start()).isZero();
        assertThat(c.bytes()).isEqualTo(bytes(raw));
    }

    @Test
    void aBodyErrorIsKeptFromWhereTheParserStands() {
        String raw = "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n";
        Object[] r = refuse(H1Parser.Kind.REQUEST, raw, 0, 16384);
        H1Capture c = (H1Capture) r[0];
        assertThat(c.start()).isEqualTo(raw.indexOf("zz"));
        assertThat(c.bytes()).isEqualTo(bytes("zz\r\n"));
        assertThat(((H1Exception) r[1]).position()).isEqualTo(c.start());
    }

    @Test
    void aResponseIsKeptAndACaptureNeverExceedsItsLimit() {
        String raw = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nBad\u0001Header: x\r\n\r\n";
        Object[] r = refuse(H1Parser.Kind.RESPONSE, raw, 0, 16384);
        assertThat(((H1Capture) r[0]).bytes()).isEqualTo(bytes(raw));
        assertThat(((H1Exception) r[1]).position()).isEqualTo(39);
        assertThat(((H1Capture) refuse(H1Parser.Kind.RESPONSE, raw, 0, 20)[0]).bytes()).isEqualTo(bytes(raw.substring(0, 20)));
    }
}
