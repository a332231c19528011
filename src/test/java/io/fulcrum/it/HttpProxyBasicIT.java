package io.fulcrum.it;

import io.fulcrum.it.HttpClientConn.Response;
import io.fulcrum.it.HttpOrigin.Received;
import io.fulcrum.it.HttpWire.Field;
import io.fulcrum.it.HttpWire.Head;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

import static io.fulcrum.it.HttpKit.config;
import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.jdkClient;
import static io.fulcrum.it.HttpKit.request;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests and responses through {@code mode http}: methods, both body framings with trailers, responses
 * without a body (HEAD, 204, 304), interim responses, and bodies delimited by the server's close.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpProxyBasicIT {

    private static long crc(byte[] b) {
        CRC32 c = new CRC32();
        c.update(b);
        return c.getValue();
    }

    private static byte[] pattern(int n, long seed) {
        byte[] b = new byte[n];
        new PatternStream(seed).next(b, 0, n);
        return b;
    }

    /** The JDK's client: GET, HEAD and POST (with a length, then chunked) on one keep-alive connection. */
    @Test
    void jdkClientGetHeadPost() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 x.readBody();
                 String body = x.method() + " " + x.target() + " " + x.body.count() + " " + x.body.crc();
                 if (x.method().equals("HEAD")) {
                     x.send("HTTP/1.1 200 OK\r\nContent-Length: 999\r\nX-Origin: yes\r\n\r\n");
                 } else {
                     x.reply(200, body, "X-Origin: yes");
                 }
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe)) {
            HttpClient client = jdkClient();
            HttpResponse<String> r = client.send(request(fe, "/hello?a=1").GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("GET /hello?a=1 0 0");
            assertThat(r.headers().firstValue("x-origin")).hasValue("yes");

            HttpResponse<String> head = client.send(request(fe, "/h").method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(head.statusCode()).isEqualTo(200);
            assertThat(head.headers().firstValue("content-length")).hasValue("999");
            assertThat(head.body()).isEmpty();

            byte[] data = pattern(300_000, 7);
            HttpResponse<String> post = client.send(request(fe, "/up").POST(HttpRequest.BodyPublishers.ofByteArray(data)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(post.body()).isEqualTo("POST /up " + data.length + " " + crc(data));

            // Without a known length the JDK client sends the body chunked.
            HttpResponse<String> chunked = client.send(request(fe, "/chunked")
                            .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(data))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(chunked.body()).isEqualTo("POST /chunked " + data.length + " " + crc(data));
            Received last = origin.requests(4).get(3);
            assertThat(last.head().get("transfer-encoding")).isEqualToIgnoringCase("chunked");

            // Four requests, one client connection, one server connection.
            assertThat(origin.requests(4)).hasSize(4);
            assertThat(origin.accepted()).isEqualTo(1);
        }
    }

    /** A request's head reaches the origin as sent (names lower-cased), with the proxy's framing of the body. */
    @Test
    void requestHeadAndBodyAsSent() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.readBody().reply(200, "got " + x.body.count()));
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("PUT /a/b?c=d%20e HTTP/1.1\r\nHost: example.com:8080\r\nX-One: 1\r\nX-Two:   two words  \r\n"
                    + "X-One: again\r\nContent-Length: 11\r\n\r\nhello world");
            Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.bodyText()).isEqualTo("got 11");
            Received got = origin.requests(1).get(0);
            assertThat(got.head().startLine()).isEqualTo("PUT /a/b?c=d%20e HTTP/1.1");
            assertThat(got.head().get("host")).isEqualTo("example.com:8080");
            assertThat(got.head().all("x-one")).containsExactly("1", "again");
            assertThat(got.head().get("x-two")).isEqualTo("two words");
            assertThat(got.head().get("content-length")).isEqualTo("11");
            assertThat(got.bodyLength()).isEqualTo(11);
            assertThat(got.bodyCrc()).isEqualTo(crc("hello world".getBytes(StandardCharsets.US_ASCII)));
        }
    }

    /** A chunked request body with trailers reaches the origin chunked, data and trailers intact. */
    @Test
    void chunkedRequestWithTrailers() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.reply(200, "ok"));
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("POST /c HTTP/1.1\r\nHost: test\r\nTE: trailers\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nhello\r\n1;ext=1\r\n \r\n10\r\n0123456789abcdef\r\n0\r\nX-Checksum: abc\r\nX-Other: 2\r\n\r\n");
            assertThat(c.read().bodyText()).isEqualTo("ok");
            Received got = origin.nextRequest(5000);
            assertThat(got.head().get("transfer-encoding")).isEqualToIgnoringCase("chunked");
            assertThat(got.head().has("content-length")).isFalse();
            assertThat(got.bodyLength()).isEqualTo(22);
            assertThat(got.bodyCrc()).isEqualTo(crc("hello 0123456789abcdef".getBytes(StandardCharsets.US_ASCII)));
            assertThat(got.trailers()).extracting(f -> f.name().toLowerCase() + "=" + f.value())
                    .containsExactly("x-checksum=abc", "x-other=2");
            // The connection goes on.
            assertThat(c.exchange(get("/next")).status()).isEqualTo(200);
            assertThat(origin.accepted()).isEqualTo(1);
        }
    }

    /** A chunked response with trailers reaches an HTTP/1.1 client chunked, with its trailers. */
    @Test
    void chunkedResponseWithTrailers() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-T\r\n\r\n"
                 + "5\r\nhello\r\n6;a=b\r\n world\r\n0\r\nX-T: done\r\n\r\n"));
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Response r = c.exchange("GET / HTTP/1.1\r\nHost: test\r\nTE: trailers\r\n\r\n");
            assertThat(r.get("transfer-encoding")).isEqualToIgnoringCase("chunked");
            assertThat(r.bodyText()).isEqualTo("hello world");
            assertThat(r.trailers()).extracting(f -> f.name().toLowerCase() + "=" + f.value()).containsExactly("x-t=done");
            Response again = c.exchange("GET / HTTP/1.1\r\nHost: test\r\n\r\n");
            assertThat(again.bodyText()).isEqualTo("hello world");
            assertThat(origin.accepted()).isEqualTo(1);
        }
    }

    /**
     * An HTTP/1.0 client cannot read chunks: whatever the proxy sends it, the body it reads by the response's
     * own framing must be the data, not the chunk framing.
     */
    @Test
    void chunkedResponseToHttp10Client() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                 + "5\r\nhello\r\n6\r\n world\r\n0\r\nX-T: done\r\n\r\n"));
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Response r = c.exchange("GET / HTTP/1.0\r\n\r\n");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.bodyText()).isEqualTo("hello world");
        }
    }

    /** HEAD: the response's Content-Length describes a body that is not sent; the next response follows at once. */
    @Test
    void headResponseHasLengthButNoBody() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 if (x.method().equals("HEAD")) {
                     x.send("HTTP/1.1 200 OK\r\nContent-Length: 12345\r\nContent-Type: text/plain\r\n\r\n");
                 } else {
                     x.reply(200, "after head");
                 }
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("HEAD /big HTTP/1.1\r\nHost: test\r\n\r\n");
            Response head = c.read("HEAD");
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.get("content-length")).isEqualTo("12345");
            c.assertSilent(300, "after a HEAD response");
            Response next = c.exchange(get("/after"));
            assertThat(next.bodyText()).isEqualTo("after head");
            assertThat(origin.accepted()).isEqualTo(1);
        }
    }

    /** 204 and 304 have no body (a 304 may carry the Content-Length of the resource); the connection goes on. */
    @Test
    void responses204And304HaveNoBody() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 switch (x.target()) {
                     case "/204" -> x.send("HTTP/1.1 204 No Content\r\nX-A: 1\r\n\r\n");
                     case "/304" -> x.send("HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\nContent-Length: 500\r\n\r\n");
                     default -> x.reply(200, "plain");
                 }
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send(get("/204"));
            Response r204 = c.read();
            assertThat(r204.status()).isEqualTo(204);
            assertThat(r204.get("x-a")).isEqualTo("1");
            assertThat(r204.head().has("transfer-encoding")).isFalse();
            c.assertSilent(300, "after a 204");
            c.send("GET /304 HTTP/1.1\r\nHost: test\r\nIf-None-Match: \"x\"\r\n\r\n");
            Response r304 = c.read();
            assertThat(r304.status()).isEqualTo(304);
            assertThat(r304.get("content-length")).isEqualTo("500");
            c.assertSilent(300, "after a 304");
            assertThat(c.exchange(get("/plain")).bodyText()).isEqualTo("plain");
            assertThat(origin.accepted()).isEqualTo(1);
        }
    }

    /**
     * Expect: 100-continue: the origin's 100 Continue reaches the client before it sends the body; the body
     * then reaches the origin and the final response follows.
     */
    @Test
    void expectContinue() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 if ("100-continue".equalsIgnoreCase(x.head.get("expect"))) {
                     x.send("HTTP/1.1 100 Continue\r\n\r\n");
                 }
                 x.readBody();
                 x.reply(201, "stored " + x.body.count());
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("POST /upload HTTP/1.1\r\nHost: test\r\nExpect: 100-continue\r\nContent-Length: 10\r\n\r\n");
            Head interim = c.readHead();
            assertThat(interim.startLine()).startsWith("HTTP/1.1 100");
            c.send("0123456789");
            Response r = c.read();
            assertThat(r.status()).isEqualTo(201);
            assertThat(r.bodyText()).isEqualTo("stored 10");
            assertThat(origin.nextRequest(5000).head().get("expect")).isEqualToIgnoringCase("100-continue");
            // And the connection is still good.
            assertThat(c.exchange(get("/again")).bodyText()).isEqualTo("stored 0");
        }
    }

    /** Other interim responses (102, 103) are forwarded too, and the final response follows them. */
    @Test
    void severalInterimResponses() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.send("HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n"
                 + "HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\ndone"));
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send(get("/"));
            Head h1 = c.readHead();
            assertThat(h1.startLine()).startsWith("HTTP/1.1 103");
            assertThat(h1.get("link")).isEqualTo("</s.css>; rel=preload");
            assertThat(c.readHead().startLine()).startsWith("HTTP/1.1 102");
            Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.bodyText()).isEqualTo("done");
        }
    }

    /**
     * A response without a length ends when the origin closes: the HTTP/1.1 client gets the whole body, is
     * told {@code connection: close}, and its connection is closed after.
     */
    @Test
    void closeDelimitedResponseToHttp11Client() throws Exception {
        byte[] data = pattern(1 << 20, 3);
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 x.send("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n\r\n");
                 x.send(data);
                 x.close();
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send(get("/stream"));
            Head h = c.readHead();
            assertThat(HttpWire.status(h)).isEqualTo(200);
            assertThat(h.connectionHas("close")).as("connection: close in %s", h.raw()).isTrue();
            byte[] body;
            if (h.has("transfer-encoding")) {
                body = c.body(h, "GET").readAllBody();
                c.awaitClosed(5000);
            } else {
                assertThat(h.has("content-length")).isFalse();
                body = HttpWire.Body.untilClose(c.in()).readAllBody(); // ends with the close
            }
            assertThat(crc(body)).isEqualTo(crc(data));
            assertThat(body).hasSize(data.length);
        }
    }

    /** The same for an HTTP/1.0 client. */
    @Test
    void closeDelimitedResponseToHttp10Client() throws Exception {
        byte[] data = pattern(100_000, 4);
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 x.send("HTTP/1.0 200 OK\r\n\r\n");
                 x.send(data);
                 x.close();
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("GET /old HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            Head h = c.readHead();
            assertThat(HttpWire.status(h)).isEqualTo(200);
            assertThat(h.has("transfer-encoding")).isFalse();
            assertThat(h.connectionHas("keep-alive")).isFalse();
            byte[] body = HttpWire.Body.untilClose(c.in()).readAllBody();
            assertThat(body).isEqualTo(data);
        }
    }

    /** Fields the origin sends reach the client as sent (names lower-cased as HAProxy does, values as they are). */
    @Test
    void responseFieldsForwarded() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.send("HTTP/1.1 404 Nothing Here\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n"
                 + "X-Spaces: a  b\r\nContent-Length: 3\r\n\r\nnot"));
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Response r = c.exchange(get("/"));
            assertThat(r.head().startLine()).isEqualTo("HTTP/1.1 404 Nothing Here");
            assertThat(r.head().all("set-cookie")).containsExactly("a=1", "b=2");
            assertThat(r.get("x-spaces")).isEqualTo("a  b");
            assertThat(r.bodyText()).isEqualTo("not");
            for (Field f : r.head().fields()) {
                assertThat(f.name()).isLowerCase();
            }
        }
    }
}
