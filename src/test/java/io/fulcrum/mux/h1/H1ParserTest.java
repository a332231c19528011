package io.fulcrum.mux.h1;

import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.AsciiString;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Well-formed requests and responses, and the parser's contract (pipelining, interim responses, limits). */
class H1ParserTest {

    private static H1Parser requests() {
        return new H1Parser(H1Parser.Kind.REQUEST, H1Limits.DEFAULT, false);
    }

    private static H1Parser responsesTo(String method) {
        H1Parser p = new H1Parser(H1Parser.Kind.RESPONSE, H1Limits.DEFAULT, false);
        p.responseTo(request(method));
        return p;
    }

    private static RequestHead request(String method) {
        return new RequestHead(AsciiString.of(method), AsciiString.of("/"), 11, new HttpHeaders());
    }

    private static ByteBuf bytes(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }

    @Test
    void aSimpleRequest() throws H1Exception {
        Recorder r = Feed.all(requests(), "GET /a?b=c HTTP/1.1\r\nHost: example.com\r\nUser-Agent: t/1\r\nX-Empty:\r\n\r\n");
        RequestHead h = (RequestHead) r.heads.get(0);
        assertThat(String.valueOf(h.method())).isEqualTo("GET");
        assertThat(String.valueOf(h.uri())).isEqualTo("/a?b=c");
        assertThat(h.version()).isEqualTo(11);
        assertThat(h.bodyLength()).isEqualTo(HttpHead.NO_BODY);
        assertThat(h.closeAfter()).isFalse();
        assertThat(String.valueOf(h.headers().get("host"))).isEqualTo("example.com");
        assertThat(String.valueOf(h.headers().get("User-Agent"))).isEqualTo("t/1");
        assertThat(String.valueOf(h.headers().get("x-empty"))).isEqualTo("");
        assertThat(h.headers().size()).isEqualTo(3);
        assertThat(r.events).last().isEqualTo("end");
    }

    /** HTTP/1.0 GET, HEAD and DELETE with a payload: 413 at the payload, unless h1-accept-payload-with-any-method. */
    @Test
    void aPayloadInAnHttp10GetIsRefusedUnlessAllowed() throws H1Exception {
        String get = "GET / HTTP/1.0\r\nContent-Length: 2\r\n\r\nab";
        H1Exception e = catchThrowableOfType(H1Exception.class, () -> Feed.all(requests(), get));
        assertThat(e.status()).isEqualTo(413);
        assertThat(e.position()).isEqualTo(get.indexOf("ab"));
        H1Parser allowing = new H1Parser(H1Parser.Kind.REQUEST, new H1Limits(16384, 1024, 101, true), false);
        Recorder r = Feed.all(allowing, get);
        assertThat(r.heads.get(0).bodyLength()).isEqualTo(2);
    }

    @Test
    void methodsAreTokens() throws H1Exception {
        for (String m : List.of("GET", "POST", "PUT", "DELETE", "PATCH", "M-SEARCH", "PROPFIND", "X_Y.Z~1")) {
            Recorder r = Feed.all(requests(), m + " / HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(String.valueOf(((RequestHead) r.heads.get(0)).method())).isEqualTo(m);
        }
    }

    @Test
    void targetForms() throws H1Exception {
        Recorder r = Feed.all(requests(), "GET http://Example.com:80/x HTTP/1.1\r\nHost: example.com\r\n\r\n"
                + "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"
                + "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET https://u:p@[::1]:8443/ HTTP/1.1\r\nHost: [::1]:8443\r\n\r\n");
        assertThat(r.heads).extracting(h -> ((RequestHead) h).uri().toString())
                .containsExactly("http://Example.com/x", "example.com:443", "*", "https://u:p@[::1]:8443/");
        // As HAProxy: the scheme's default port leaves an absolute target and Host, 80 and 443 leave Host in CONNECT.
        assertThat(r.heads).extracting(h -> String.valueOf(h.headers().get("host")))
                .containsExactly("example.com", "example.com", "a", "[::1]:8443");
        assertThat(r.ends).isEqualTo(4);
    }

    /** As haproxy 2.6 (its h1_host_normalization.vtc): a CONNECT's Host without a port fits a target on 80 or 443. */
    @Test
    void connectHostWithoutAPortFitsTheWebPorts() throws H1Exception {
        for (String ok : List.of("CONNECT a:80 HTTP/1.1\r\nHost: a\r\n\r\n", "CONNECT a:443 HTTP/1.1\r\nHost: a\r\n\r\n",
                "CONNECT a:80 HTTP/1.1\r\nHost: a:\r\n\r\n", "CONNECT a:80 HTTP/1.1\r\nHost: a:80\r\n\r\n")) {
            assertThat(Feed.all(requests(), ok).heads).as(ok).hasSize(1);
        }
        for (String bad : List.of("CONNECT a:8080 HTTP/1.1\r\nHost: a\r\n\r\n", "CONNECT a:80 HTTP/1.1\r\nHost: a:443\r\n\r\n",
                "CONNECT a:443 HTTP/1.1\r\nHost: a:80\r\n\r\n", "CONNECT a:80 HTTP/1.1\r\nHost: b\r\n\r\n")) {
            assertThatThrownBy(() -> Feed.all(requests(), bad)).as(bad).isInstanceOf(H1Exception.class);
        }
    }

    @Test
    void aProbeInTheHeadFindsTheBadChunkThatCameWithItAndMovesNothing() throws H1Exception {
        String head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";
        for (String body : new String[] {"5\r\nhello\r\n0x5\r\nhello\r\n0\r\n\r\n", "5\r\nhelloX\r\n", "5\r\nhello\r\n0\r\n\r\n",
            "5\r\nhel"}) {
            H1Parser p = requests();
            ByteBuf in = bytes(head + body);
            List<H1Exception> found = new ArrayList<>();
            List<Integer> readerIndex = new ArrayList<>();
            MessageSink r = h -> {
                readerIndex.add(in.readerIndex());
                found.add(p.chunkedBodyError(in));
                readerIndex.add(in.readerIndex());
            };
            H1Exception thrown = null;
            try {
                p.parse(in, r);
            } catch (H1Exception e) {
                thrown = e;
            } finally {
                in.release();
            }
            assertThat(readerIndex.get(1)).as(body).isEqualTo(readerIndex.get(0)).isEqualTo(head.length());
            if (thrown == null) {
                assertThat(found.get(0)).as(body).isNull();
            } else {
                assertThat(found.get(0)).as(body).isNotNull();
                assertThat(found.get(0).position()).isEqualTo(thrown.position());
                assertThat(found.get(0).getMessage()).isEqualTo(thrown.getMessage());
            }
        }
    }

    @Test
    void theVersionIsKeptAsSpeltWhenItIsNotAsWritten() throws H1Exception {
        RequestHead v12 = (RequestHead) Feed.all(requests(), "GET / HTTP/1.2\r\nHost: a\r\n\r\n").heads.get(0);
        assertThat(v12.version()).isEqualTo(11);
        assertThat(v12.receivedVersion().toString()).isEqualTo("HTTP/1.2");
        for (String v : new String[] {"HTTP/1.0", "HTTP/1.1"}) {
            RequestHead h = (RequestHead) Feed.all(requests(), "GET / " + v + "\r\nHost: a\r\n\r\n").heads.get(0);
            assertThat(h.receivedVersion()).as("the shared constant, no copy").isSameAs(HttpHead.versionText(h.version()));
        }
        H1Parser lax = new H1Parser(H1Parser.Kind.REQUEST, H1Limits.DEFAULT, true);
        RequestHead other = (RequestHead) Feed.all(lax, "GET / RTSP/1.0\r\nHost: a\r\n\r\n").heads.get(0);
        assertThat(other.version()).isEqualTo(10);
        assertThat(other.receivedVersion().toString()).isEqualTo("RTSP/1.0");
    }

    @Test
    void acceptInvalidSaysWhereItLetAMessageThrough() throws H1Exception {
        H1Parser lax = new H1Parser(H1Parser.Kind.REQUEST, H1Limits.DEFAULT, true);
        Feed.all(lax, "GET /a#f HTTP/1.1\r\nHost: a\r\nX(A): b\r\n\r\n"
                + "GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
        assertThat(lax.relaxed()).isNull(); // the second request
        lax = new H1Parser(H1Parser.Kind.REQUEST, H1Limits.DEFAULT, true);
        Feed.all(lax, "GET /a#f HTTP/1.1\r\nHost: a\r\nX(A): b\r\n\r\n");
        assertThat(lax.relaxed().position()).isEqualTo(6); // the '#', before the name's '('
        lax = new H1Parser(H1Parser.Kind.REQUEST, H1Limits.DEFAULT, true);
        Feed.all(lax, "GET /a HTTP/1.1\r\nHost: a\r\nX(A): b\r\n\r\n");
        assertThat(lax.relaxed().position()).isEqualTo(27);
        H1Parser laxResponses = new H1Parser(H1Parser.Kind.RESPONSE, H1Limits.DEFAULT, true);
        Feed.all(laxResponses, "HTTP/1.1 200 OK\r\nBad(Name): 1\r\nContent-Length: 0\r\n\r\n");
        assertThat(laxResponses.relaxed().position()).isEqualTo(20);
    }

    @Test
    void contentLengthBody() throws H1Exception {
        Recorder r = Feed.all(requests(), "POST /f HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\nhello world");
        assertThat(r.heads.get(0).bodyLength()).isEqualTo(11);
        assertThat(String.valueOf(r.heads.get(0).headers().get("content-length"))).isEqualTo("11");
        assertThat(r.events).containsSubsequence("data hello world", "end");
    }

    @Test
    void chunkedBodyWithExtensionsAndTrailers() throws H1Exception {
        Recorder r = Feed.all(requests(), "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5;name=value\r\nhello\r\n6 ; a=\"q \\\" s\" ;b\r\n world\r\n0\r\nX-Checksum: 42\r\nX-Other: x\r\n\r\n");
        HttpHead h = r.heads.get(0);
        assertThat(h.bodyLength()).isEqualTo(HttpHead.CHUNKED);
        assertThat(h.headers().contains("transfer-encoding")).isTrue(); // as in HAProxy's HTX: rules see it
        assertThat(r.events.subList(1, r.events.size()))
                .containsExactly("data hello world", "trailers [x-checksum: 42; x-other: x; ]", "end");
        assertThat(r.wire()).endsWith("\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\nx-checksum: 42\r\nx-other: x\r\n\r\n");
    }

    @Test
    void chunkedWithoutTrailersCallsNoTrailers() throws H1Exception {
        Recorder r = Feed.all(requests(), "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n");
        assertThat(r.events.subList(1, r.events.size())).containsExactly("data abc", "end");
    }

    @Test
    void chunkedWinsOverContentLengthWhichIsRemovedAndTheConnectionCloses() throws H1Exception {
        Recorder r = Feed.all(requests(), "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "3\r\nabc\r\n0\r\n\r\n");
        HttpHead h = r.heads.get(0);
        assertThat(h.bodyLength()).isEqualTo(HttpHead.CHUNKED);
        assertThat(h.closeAfter()).isTrue();
        assertThat(h.headers().contains("content-length")).isFalse();
    }

    @Test
    void identicalContentLengthsBecomeOne() throws H1Exception {
        Recorder r = Feed.all(requests(), "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3, 3\r\nContent-Length: 3\r\n\r\nabc");
        HttpHeaders h = r.heads.get(0).headers();
        assertThat(h.size()).isEqualTo(2);
        assertThat(String.valueOf(h.get("content-length"))).isEqualTo("3");
    }

    @Test
    void pipelinedRequestsComeOneAtATime() throws H1Exception {
        H1Parser p = requests();
        ByteBuf in = bytes("GET /1 HTTP/1.1\r\nHost: a\r\n\r\nPOST /2 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nokGET /3 HTTP/1.1\r\nHost: a\r\n\r\n");
        Recorder r = new Recorder();
        try {
            p.parse(in, r);
            assertThat(r.ends).isEqualTo(1);
            assertThat(p.between()).isTrue();
            p.parse(in, r);
            assertThat(r.ends).isEqualTo(2);
            p.parse(in, r);
            assertThat(r.ends).isEqualTo(3);
            assertThat(in.isReadable()).isFalse();
        } finally {
            in.release();
        }
        assertThat(r.heads).extracting(h -> ((RequestHead) h).uri().toString()).containsExactly("/1", "/2", "/3");
    }

    @Test
    void bodyDataIsASliceOfTheInputNotACopy() throws H1Exception {
        ByteBuf in = bytes("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello");
        List<ByteBuf> slices = new ArrayList<>();
        MessageSink sink = new MessageSink() {
            @Override
            public void head(HttpHead head) {
            }

            @Override
            public void data(ByteBuf data) {
                slices.add(data);
            }

            @Override
            public void trailers(HttpHeaders trailers) {
            }

            @Override
            public void end() {
            }
        };
        requests().parse(in, sink);
        assertThat(slices).hasSize(1);
        ByteBuf data = slices.get(0);
        assertThat(data.array()).isSameAs(in.array());
        assertThat(in.refCnt()).isEqualTo(2);
        data.release();
        in.release();
        assertThat(in.refCnt()).isZero();
    }

    @Test
    void leadingEmptyLinesAreSkippedAndDoNotStartAMessage() throws H1Exception {
        H1Parser p = requests();
        ByteBuf in = bytes("\r\n\r\n");
        try {
            p.parse(in, new Recorder());
            assertThat(in.isReadable()).isFalse();
            assertThat(p.between()).isTrue();
            p.closed(new Recorder());
        } finally {
            in.release();
        }
    }

    @Test
    void aPartialHeadIsNotBetweenMessagesAndClosingInItFails() throws H1Exception {
        H1Parser p = requests();
        ByteBuf in = bytes("GET / HTTP/1.1\r\nHo");
        try {
            p.parse(in, new Recorder());
            assertThat(p.between()).isFalse();
            assertThat(in.readableBytes()).as("a partial line is left in the input").isEqualTo(2);
        } finally {
            in.release();
        }
        H1Exception e = catchThrowableOfType(H1Exception.class, () -> p.closed(new Recorder()));
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.position()).isEqualTo(18);
    }

    @Test
    void closingInABodyFails() {
        H1Parser p = requests();
        assertThatThrownBy(() -> Feed.all(p, "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhel"))
                .isInstanceOf(H1Exception.class).hasMessage("connection closed in a message body");
    }

    @Test
    void anInterimResponseThenTheFinalOne() throws H1Exception {
        Recorder r = Feed.all(responsesTo("POST"), "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </s>\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        assertThat(r.heads).extracting(h -> ((ResponseHead) h).status()).containsExactly(100, 103, 200);
        assertThat(r.ends).isEqualTo(1);
        assertThat(r.events).endsWith("data ok", "end");
    }

    @Test
    void noBodyAfterAnInterimResponseEvenWithContentLength() throws H1Exception {
        Recorder r = Feed.all(responsesTo("GET"), "HTTP/1.1 100 Continue\r\nContent-Length: 5\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n");
        assertThat(r.heads).hasSize(2);
        assertThat(r.heads.get(0).headers().contains("content-length")).isFalse();
    }

    @Test
    void aResponseToHeadHasNoBodyButKeepsItsContentLength() throws H1Exception {
        H1Parser p = responsesTo("HEAD");
        ByteBuf in = bytes("HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        Recorder r = new Recorder();
        try {
            p.parse(in, r);
            assertThat(r.ends).isEqualTo(1);
            assertThat(r.heads.get(0).bodyLength()).isEqualTo(HttpHead.NO_BODY);
            assertThat(String.valueOf(r.heads.get(0).headers().get("content-length"))).isEqualTo("1234");
            p.responseTo(request("GET"));
            p.parse(in, r);
        } finally {
            in.release();
        }
        assertThat(r.events).endsWith("data ok", "end");
        assertThat(r.wire()).startsWith("HTTP/1.1 200 OK\r\ncontent-length: 1234\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
    }

    @Test
    void noContentAndNotModifiedHaveNoBody() throws H1Exception {
        Recorder r = Feed.all(responsesTo("GET"), "HTTP/1.1 204 No Content\r\nContent-Length: 3\r\n\r\n");
        assertThat(r.heads.get(0).bodyLength()).isEqualTo(HttpHead.NO_BODY);
        assertThat(r.heads.get(0).headers().contains("content-length")).as("RFC 9110 8.6: none in a 204").isFalse();
        r = Feed.all(responsesTo("GET"), "HTTP/1.1 304 Not Modified\r\nContent-Length: 3\r\nETag: \"x\"\r\n\r\n");
        assertThat(r.heads.get(0).bodyLength()).isEqualTo(HttpHead.NO_BODY);
        assertThat(String.valueOf(r.heads.get(0).headers().get("content-length"))).isEqualTo("3");
        assertThat(r.ends).isEqualTo(1);
    }

    @Test
    void aCloseDelimitedResponseEndsWhenTheServerCloses() throws H1Exception {
        H1Parser p = responsesTo("GET");
        Recorder r = new Recorder();
        Feed feed = new Feed(p, r);
        try {
            feed.add(Recorder.ascii("HTTP/1.0 200 OK\r\nServer: old\r\n\r\nsome "));
            feed.add(Recorder.ascii("bytes"));
            assertThat(r.ends).isZero();
            assertThat(r.heads.get(0).bodyLength()).isEqualTo(HttpHead.UNTIL_CLOSE);
            feed.close();
        } finally {
            feed.release();
        }
        assertThat(r.events.subList(1, r.events.size())).containsExactly("data some bytes", "end");
    }

    @Test
    void aTwoHundredToConnectOpensATunnel() throws H1Exception {
        H1Parser p = responsesTo("CONNECT");
        ByteBuf in = bytes("HTTP/1.1 200 Connection established\r\nContent-Length: 10\r\n\r\n\u0016\u0003\u0001tls bytes");
        Recorder r = new Recorder();
        try {
            p.parse(in, r);
            p.parse(in, r);
            assertThat(r.ends).isEqualTo(1);
            assertThat(p.tunnel()).isTrue();
            assertThat(in.readableBytes()).as("tunnel bytes are left to the caller").isEqualTo(12);
            assertThat(r.heads.get(0).headers().contains("content-length")).isFalse();
        } finally {
            in.release();
        }
    }

    @Test
    void switchingProtocolsOpensATunnel() throws H1Exception {
        H1Parser p = responsesTo("GET");
        ByteBuf in = bytes("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n\u0081\u0000");
        Recorder r = new Recorder();
        try {
            p.parse(in, r);
            assertThat(p.tunnel()).isTrue();
            assertThat(r.ends).isEqualTo(1);
            assertThat(in.readableBytes()).isEqualTo(2);
            p.closed(r);
        } finally {
            in.release();
        }
    }

    @Test
    void aSwitchToWebSocketWithoutAcceptIsInvalid() throws H1Exception {
        String head = "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: foo, WebSocket\r\n\r\n";
        assertThatThrownBy(() -> Feed.all(responsesTo("GET"), head))
                .isInstanceOfSatisfying(H1Exception.class, e -> assertThat(e.status()).isEqualTo(502))
                .hasMessage("WebSocket upgrade without Sec-WebSocket-Accept");
        // Another protocol, or no Connection: upgrade (which the stream refuses itself), needs no proof.
        Feed.all(responsesTo("GET"), "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: foo\r\n\r\n");
        Feed.all(responsesTo("GET"), "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n");
    }

    @Test
    void onlyAResponseParserAnswersARequest() {
        assertThatThrownBy(() -> requests().responseTo(request("GET"))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aFailedParserStaysFailed() {
        H1Parser p = requests();
        ByteBuf in = bytes("GET / HTTP/1.1\r\nHost: a\r\nBad Name: x\r\n\r\n");
        try {
            assertThatThrownBy(() -> p.parse(in, new Recorder())).isInstanceOf(H1Exception.class);
            assertThatThrownBy(() -> p.parse(in, new Recorder())).isInstanceOf(IllegalStateException.class);
        } finally {
            in.release();
        }
    }

    @Test
    void everyControlCharacterInAValueIsFoundWhereverItIs() throws H1Exception {
        // Values are checked 8 bytes at a time: try each byte class at each place of a long value.
        String head = "GET / HTTP/1.1\r\nHost: a\r\nX: ";
        for (int at = 0; at < 21; at++) {
            for (char bad : new char[] {0, 1, 8, 0x0b, 0x1f, 0x7f, '\r'}) {
                String value = "v".repeat(at) + bad + "w".repeat(20 - at);
                H1Exception e = catchThrowableOfType(H1Exception.class,
                        () -> Feed.all(requests(), head + value + "\r\n\r\n"));
                assertThat(e).as("0x%02x at %d", (int) bad, at).isNotNull();
                assertThat(e.position()).isEqualTo(head.length() + at);
            }
            for (char good : new char[] {'\t', ' ', '!', '~', 0x80, 0xff}) {
                String value = "a" + "v".repeat(at) + good + "w".repeat(20 - at) + "z";
                Recorder r = Feed.all(requests(), head + value + "\r\n\r\n");
                assertThat(String.valueOf(r.heads.get(0).headers().get("x"))).isEqualTo(value);
            }
        }
    }

    @Test
    void fieldsUpToMaxhdrMinusOne() throws H1Exception {
        StringBuilder fields = new StringBuilder("Host: a\r\n");
        for (int i = 1; i < 100; i++) {
            fields.append("X-").append(i).append(": v\r\n");
        }
        Recorder r = Feed.all(requests(), "GET / HTTP/1.1\r\n" + fields + "\r\n");
        assertThat(r.heads.get(0).headers().size()).isEqualTo(100);
        H1Exception e = catchThrowableOfType(H1Exception.class,
                () -> Feed.all(requests(), "GET / HTTP/1.1\r\n" + fields + "X-100: v\r\n\r\n"));
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.reason()).isEqualTo("too many header fields");
        H1Parser small = new H1Parser(H1Parser.Kind.REQUEST, new H1Limits(16384, 1024, 3), false);
        assertThatThrownBy(() -> Feed.all(small, "GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\n\r\n"))
                .hasMessage("too many header fields");
    }

    @Test
    void aHeadMustFitInBufsizeMinusMaxrewrite() throws H1Exception {
        H1Limits limits = new H1Limits(1024, 256, 101);
        String start = "GET / HTTP/1.1\r\nHost: a\r\nX: ";
        String fits = start + "v".repeat(768 - start.length() - 4) + "\r\n\r\n";
        assertThat(fits).hasSize(768);
        Feed.all(new H1Parser(H1Parser.Kind.REQUEST, limits, false), fits);
        H1Exception e = catchThrowableOfType(H1Exception.class,
                () -> Feed.all(new H1Parser(H1Parser.Kind.REQUEST, limits, false), start + "v" + fits.substring(start.length())));
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.reason()).isEqualTo("header section too large");
        // Without an end in sight: refused as soon as the limit is passed.
        H1Parser p = new H1Parser(H1Parser.Kind.REQUEST, limits, false);
        ByteBuf in = bytes("GET /" + "a".repeat(800));
        try {
            assertThatThrownBy(() -> p.parse(in, new Recorder())).hasMessage("header section too large");
        } finally {
            in.release();
        }
    }

    @Test
    void aResponseErrorIsA502() {
        H1Exception e = catchThrowableOfType(H1Exception.class,
                () -> Feed.all(responsesTo("GET"), "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok!"));
        assertThat(e.status()).isEqualTo(502);
        assertThat(e.position()).isEqualTo(52);
    }

    @Test
    void aResponseOverTheLimitsIsA502() {
        String fields = "X: v\r\n".repeat(101);
        assertThatThrownBy(() -> Feed.all(responsesTo("GET"), "HTTP/1.1 200 OK\r\n" + fields + "\r\n"))
                .isInstanceOfSatisfying(H1Exception.class, e -> assertThat(e.status()).isEqualTo(502))
                .hasMessage("too many header fields");
        String big = "HTTP/1.1 200 OK\r\nX: " + "v".repeat(16000) + "\r\n\r\n";
        assertThatThrownBy(() -> Feed.all(responsesTo("GET"), big))
                .isInstanceOfSatisfying(H1Exception.class, e -> assertThat(e.status()).isEqualTo(502))
                .hasMessage("header section too large");
    }

    @Test
    void errorsInTheBodySayWhereInTheMessage() {
        String head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";
        H1Exception e = catchThrowableOfType(H1Exception.class, () -> Feed.all(requests(), head + "3\r\nabcXY"));
        assertThat(e.reason()).isEqualTo("no CRLF after chunk data");
        assertThat(e.position()).isEqualTo(head.length() + 6);
    }

    @Test
    void acceptInvalidRelaxesWhatHaproxyDocuments() throws H1Exception {
        H1Parser lax = new H1Parser(H1Parser.Kind.REQUEST, H1Limits.DEFAULT, true);
        Recorder r = Feed.all(lax, "GET /caf\u00e9#top HTTP/1.1\nHost: a\nX[1]: y\n\n");
        RequestHead h = (RequestHead) r.heads.get(0);
        assertThat(String.valueOf(h.uri())).isEqualTo("/caf\u00e9#top");
        assertThat(String.valueOf(h.headers().get("x[1]"))).isEqualTo("y");
        r = Feed.all(new H1Parser(H1Parser.Kind.REQUEST, H1Limits.DEFAULT, true), "GET /old\r\n");
        h = (RequestHead) r.heads.get(0);
        assertThat(h.version()).isEqualTo(10);
        assertThat(h.closeAfter()).isTrue();
        assertThat(r.wire()).isEqualTo("GET /old HTTP/1.0\r\n\r\n[close]");
    }

    @Test
    void http10Requests() throws H1Exception {
        Recorder r = Feed.all(requests(), "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
        assertThat(r.heads.get(0).version()).isEqualTo(10);
        assertThat(r.wire()).isEqualTo("GET / HTTP/1.0\r\nconnection: keep-alive\r\n\r\n");
    }

    @Test
    void headsOfAnySizeOneAfterTheOtherOnOneParser() throws H1Exception {
        // Heads longer than what is copied at first, with their body in the same input, then shorter ones: each
        // head keeps its own bytes whatever the parser reads next.
        String big = "POST /big HTTP/1.1\r\nHost: a\r\nCookie: " + "c".repeat(3000) + "\r\nX-Long-Header-Name-Here: "
                + "v".repeat(600) + "\r\nContent-Length: 5\r\n\r\nhello";
        String small = "GET /small HTTP/1.1\r\nHOST: b\r\nX_Odd.Name~: 1\r\nUser-AGENT: u\r\n\r\n";
        String huge = "GET /huge HTTP/1.1\r\nHost: c\r\nX: " + "h".repeat(9000) + "\r\n\r\n";
        Recorder r = Feed.all(requests(), big + small + huge + small + big);
        assertThat(r.heads).hasSize(5);
        assertThat(r.heads).extracting(h -> ((RequestHead) h).uri().toString())
                .containsExactly("/big", "/small", "/huge", "/small", "/big");
        for (int i : new int[] {0, 4}) {
            HttpHeaders h = r.heads.get(i).headers();
            assertThat(String.valueOf(h.get("cookie"))).hasSize(3000);
            assertThat(String.valueOf(h.get("x-long-header-name-here"))).isEqualTo("v".repeat(600));
            assertThat(r.heads.get(i).bodyLength()).isEqualTo(5);
        }
        for (int i : new int[] {1, 3}) {
            assertThat(r.heads.get(i).headers().toString()).isEqualTo("host: b\nx_odd.name~: 1\nuser-agent: u\n");
        }
        assertThat(String.valueOf(r.heads.get(2).headers().get("x"))).isEqualTo("h".repeat(9000));
        assertThat(r.events).filteredOn(e -> e.startsWith("data ")).containsExactly("data hello", "data hello");
    }
}
