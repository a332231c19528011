package io.fulcrum.mux.h1;

import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.netty.util.AsciiString;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Any split of the input into pieces gives the same heads, data, trailers, ends, and the same error at the same
 * position: every cut into two pieces, and random cuts into many (seeded, so that a failure repeats).
 */
class H1SplitTest {

    record Input(String name, H1Parser.Kind kind, String method, boolean acceptInvalid, String raw) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Input> inputs() {
        String chunked = "POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip;q=0, chunked\r\n\r\n";
        return Stream.of(
                request("pipelined requests",
                        "\r\nGET /a HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\n\r\n"
                                + "POST /b HTTP/1.1\r\nHost: example.com\r\nContent-Length: 12\r\n\r\nhello, world"
                                + "PUT /c HTTP/1.1\r\nHost: example.com\r\nTransfer-Encoding: chunked\r\n\r\n"
                                + "4;ext=\"a b\"\r\nwiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nX-T: 1\r\nX-U: 2\r\n\r\n"
                                + "DELETE /d HTTP/1.0\r\n\r\n"),
                request("chunked body with CRLF in data", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "a\r\n\r\n\r\n\r\n\r\n\r\n\r\n0\r\n\r\n"),
                new Input("accept-invalid with lone LFs", H1Parser.Kind.REQUEST, null, true,
                        "GET /x#y HTTP/1.1\nHost: a\nX(1): v\n\nPOST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n"
                                + "3\nabc\n0\n\nGET /0.9\r\n"),
                response("responses", "GET", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
                        + "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-T: t\r\n\r\n"
                        + "\r\nHTTP/1.1 204 No Content\r\n\r\nHTTP/1.0 200 OK\nServer: x\n\nuntil the end"),
                response("response to HEAD", "HEAD", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n"
                        + "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc"),
                request("error in a field", "GET / HTTP/1.1\r\nHost: a\r\nX-Ok: 1\r\nX-Bad: a\u0000b\r\n\r\n"),
                request("error in the request line", "GET /a b c HTTP/1.1\r\nHost: a\r\n\r\n"),
                request("error in a chunk size", chunked.replace("gzip;q=0, ", "") + "5\r\nhello\r\n5x\r\nhello\r\n0\r\n\r\n"),
                request("error in a trailer", chunked.replace("gzip;q=0, ", "") + "0\r\nX T: 1\r\n\r\n"),
                request("422", chunked + "0\r\n\r\n"),
                request("bare LF at the end of a head", "GET / HTTP/1.1\r\nHost: a\r\n\n"),
                request("too many fields", "GET / HTTP/1.1\r\n" + "X: 1\r\n".repeat(101) + "\r\n"),
                response("502", "GET", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\nzz\r\n"));
    }

    private static Input request(String name, String raw) {
        return new Input(name, H1Parser.Kind.REQUEST, null, false, raw);
    }

    private static Input response(String name, String method, String raw) {
        return new Input(name, H1Parser.Kind.RESPONSE, method, false, raw);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void everyCutInTwoGivesTheSameEvents(Input input) {
        byte[] raw = input.raw().getBytes(StandardCharsets.ISO_8859_1);
        List<String> whole = events(input, List.of(raw));
        assertThat(whole).isNotEmpty();
        for (int cut = 0; cut <= raw.length; cut++) {
            List<byte[]> pieces = List.of(Arrays.copyOfRange(raw, 0, cut), Arrays.copyOfRange(raw, cut, raw.length));
            assertThat(events(input, pieces)).as("cut at %d", cut).isEqualTo(whole);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void randomCutsGiveTheSameEvents(Input input) {
        byte[] raw = input.raw().getBytes(StandardCharsets.ISO_8859_1);
        List<String> whole = events(input, List.of(raw));
        Random random = new Random(input.name().hashCode());
        for (int run = 0; run < 300; run++) {
            List<byte[]> pieces = new ArrayList<>();
            int maxPiece = 1 + random.nextInt(run % 3 == 0 ? 4 : 64);
            for (int from = 0; from < raw.length; ) {
                int to = Math.min(raw.length, from + random.nextInt(maxPiece + 1));
                pieces.add(Arrays.copyOfRange(raw, from, to));
                from = to;
            }
            assertThat(events(input, pieces)).as("run %d, %d pieces", run, pieces.size()).isEqualTo(whole);
        }
    }

    /** What the parser reports when fed {@code pieces}: the events, then the error, or what is left. */
    private static List<String> events(Input input, List<byte[]> pieces) {
        H1Parser parser = new H1Parser(input.kind(), H1Limits.DEFAULT, input.acceptInvalid());
        if (input.method() != null) {
            parser.responseTo(new RequestHead(AsciiString.of(input.method()), AsciiString.of("/"), 11, new HttpHeaders()));
        }
        Recorder r = new Recorder();
        Feed feed = new Feed(parser, r);
        List<String> events = r.events;
        try {
            for (byte[] piece : pieces) {
                feed.add(piece);
            }
            feed.close();
            events.add("left " + feed.left());
        } catch (H1Exception e) {
            events.add("error " + e);
        } finally {
            feed.release();
        }
        return events;
    }
}
