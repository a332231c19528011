package io.fulcrum.it;

import io.fulcrum.it.HttpClientConn.Response;
import io.fulcrum.it.HttpWire.Head;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.GZIPInputStream;

import static io.fulcrum.it.HttpKit.config;
import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.jdkClient;
import static io.fulcrum.it.HttpKit.request;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/** A real server behind the proxy: nginx serving files, conditional requests, gzip (chunked), WebDAV uploads. */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpNginxIT {

    private static final String HTTP = """
            log_format conns '$connection $connection_requests $request';
            types { text/plain txt; }
            gzip on;
            gzip_types text/plain;
            gzip_min_length 0;
            gzip_http_version 1.0;
            """;

    private static final String SERVER = """
            access_log %s conns;
            keepalive_requests 1000;
            client_max_body_size 100m;
            location /dav/ {
                dav_methods PUT DELETE;
                create_full_put_path on;
            }
            location = /headers {
                return 200 "connection=[$http_connection] keep-alive=[$http_keep_alive] host=[$http_host] proto=[$server_protocol]\\n";
            }
            """;

    private static byte[] pattern(int n, long seed) {
        byte[] b = new byte[n];
        new PatternStream(seed).next(b, 0, n);
        return b;
    }

    private static long crc(byte[] b) {
        CRC32 c = new CRC32();
        c.update(b);
        return c.getValue();
    }

    private static NginxOrigin nginx() throws Exception {
        java.nio.file.Path log = java.nio.file.Files.createTempFile("nginx-conns", ".log");
        return NginxOrigin.start(HTTP, SERVER.formatted(log));
    }

    /** A 20 MB file, by GET (raw and JDK client) and HEAD, on one connection. */
    @Test
    void staticFile() throws Exception {
        int fe = freePort();
        byte[] data = pattern(20 << 20, 5);
        try (NginxOrigin nginx = nginx();
             FulcrumProcess proxy = serve(config(fe, nginx.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Files.write(nginx.root().resolve("big.bin"), data);
            Response r = c.exchange(get("/big.bin"));
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.get("content-length")).isEqualTo(Integer.toString(data.length));
            assertThat(crc(r.body())).isEqualTo(crc(data));

            c.send("HEAD /big.bin HTTP/1.1\r\nHost: test\r\n\r\n");
            Response head = c.read("HEAD");
            assertThat(head.get("content-length")).isEqualTo(Integer.toString(data.length));
            c.assertSilent(300, "after HEAD");

            Response missing = c.exchange(get("/nothing-here"));
            assertThat(missing.status()).isEqualTo(404);
            assertThat(missing.bodyText()).contains("404 Not Found");

            HttpResponse<byte[]> jdk = jdkClient().send(request(fe, "/big.bin").build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(jdk.statusCode()).isEqualTo(200);
            assertThat(crc(jdk.body())).isEqualTo(crc(data));
        }
    }

    /** If-None-Match with the file's ETag: 304 without a body; the connection goes on. */
    @Test
    void conditionalRequest() throws Exception {
        int fe = freePort();
        try (NginxOrigin nginx = nginx();
             FulcrumProcess proxy = serve(config(fe, nginx.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Files.writeString(nginx.root().resolve("page.txt"), "some text\n");
            Response first = c.exchange(get("/page.txt"));
            String etag = first.get("etag");
            assertThat(etag).isNotBlank();
            c.send("GET /page.txt HTTP/1.1\r\nHost: test\r\nIf-None-Match: " + etag + "\r\n\r\n");
            Response notModified = c.read();
            assertThat(notModified.status()).isEqualTo(304);
            assertThat(notModified.body()).isEmpty();
            c.assertSilent(300, "after the 304");
            c.send("GET /page.txt HTTP/1.1\r\nHost: test\r\nRange: bytes=5-8\r\n\r\n");
            Response partial = c.read();
            assertThat(partial.status()).isEqualTo(206);
            assertThat(partial.bodyText()).isEqualTo("text");
        }
    }

    /** gzip makes nginx answer chunked: the client gets the chunks, and they inflate to the file. */
    @Test
    void gzipChunkedResponse() throws Exception {
        int fe = freePort();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 50_000; i++) {
            text.append("line ").append(i).append(" of a compressible text file\n");
        }
        try (NginxOrigin nginx = nginx();
             FulcrumProcess proxy = serve(config(fe, nginx.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Files.writeString(nginx.root().resolve("text.txt"), text);
            for (int i = 0; i < 2; i++) {
                Response r = c.exchange("GET /text.txt HTTP/1.1\r\nHost: test\r\nAccept-Encoding: gzip\r\n\r\n");
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.get("transfer-encoding")).isEqualToIgnoringCase("chunked");
                assertThat(r.get("content-encoding")).isEqualTo("gzip");
                byte[] inflated = new GZIPInputStream(new ByteArrayInputStream(r.body())).readAllBytes();
                assertThat(new String(inflated, StandardCharsets.US_ASCII)).isEqualTo(text.toString());
            }
            // To an HTTP/1.0 request nginx sends the gzipped body without a length, and closes.
            try (HttpClientConn old = HttpClientConn.open(fe)) {
                Response r = old.exchange("GET /text.txt HTTP/1.0\r\nAccept-Encoding: gzip\r\n\r\n");
                assertThat(r.get("content-encoding")).isEqualTo("gzip");
                assertThat(r.head().has("transfer-encoding")).isFalse();
                byte[] inflated = new GZIPInputStream(new ByteArrayInputStream(r.body())).readAllBytes();
                assertThat(new String(inflated, StandardCharsets.US_ASCII)).isEqualTo(text.toString());
            }
        }
    }

    /** Uploads with a length and chunked (WebDAV PUT), read back intact. */
    @Test
    void uploads() throws Exception {
        int fe = freePort();
        byte[] data = pattern(10 << 20, 8);
        try (NginxOrigin nginx = nginx();
             FulcrumProcess proxy = serve(config(fe, nginx.port()), fe)) {
            HttpClient client = jdkClient();
            HttpResponse<String> put = client.send(request(fe, "/dav/a.bin").PUT(HttpRequest.BodyPublishers.ofByteArray(data)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(put.statusCode()).isEqualTo(201);
            // The JDK sends a body of unknown length chunked; nginx takes chunked request bodies.
            HttpResponse<String> chunked = client.send(request(fe, "/dav/b.bin")
                            .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(data))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(chunked.statusCode()).isEqualTo(201);
            assertThat(crc(Files.readAllBytes(nginx.root().resolve("dav/a.bin")))).isEqualTo(crc(data));
            assertThat(crc(Files.readAllBytes(nginx.root().resolve("dav/b.bin")))).isEqualTo(crc(data));
            HttpResponse<byte[]> back = client.send(request(fe, "/dav/b.bin").build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(crc(back.body())).isEqualTo(crc(data));
        }
    }

    /** Expect: 100-continue against nginx, which answers 100 itself when it wants the body. */
    @Test
    void expectContinue() throws Exception {
        int fe = freePort();
        try (NginxOrigin nginx = nginx();
             FulcrumProcess proxy = serve(config(fe, nginx.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("PUT /dav/c.txt HTTP/1.1\r\nHost: test\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
            Head interim = c.readHead();
            assertThat(interim.startLine()).startsWith("HTTP/1.1 100");
            c.send("hello");
            assertThat(c.read().status()).isEqualTo(201);
            assertThat(Files.readString(nginx.root().resolve("dav/c.txt"))).isEqualTo("hello");
        }
    }

    /**
     * Keep-alive to a real server: requests on one client connection, sequential and pipelined, all reach
     * nginx on one connection (its $connection number, in its log), and nginx never sees the client's
     * Connection or Keep-Alive fields.
     */
    @Test
    void keepAliveAndPipelining() throws Exception {
        int fe = freePort();
        try (NginxOrigin nginx = nginx();
             FulcrumProcess proxy = serve(config(fe, nginx.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Files.writeString(nginx.root().resolve("a.txt"), "A");
            for (int i = 0; i < 3; i++) {
                c.send("GET /headers HTTP/1.1\r\nHost: example.org\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n");
                // (HAProxy 2.6 forwards Keep-Alive: docs/differences.md)
                assertThat(c.read().bodyText()).isEqualTo("connection=[] keep-alive=[" + (HttpKit.haproxy() ? "timeout=5" : "")
                        + "] host=[example.org] proto=[HTTP/1.1]\n");
            }
            c.send(get("/a.txt") + get("/a.txt") + get("/a.txt"));
            for (int i = 0; i < 3; i++) {
                assertThat(c.read().bodyText()).isEqualTo("A");
            }
            c.send("GET /headers HTTP/1.0\r\nHost: example.org\r\n\r\n");
            Response last = c.read();
            assertThat(last.bodyText()).contains("proto=[HTTP/1.0]");
            c.awaitClosed(3000);
        }
        // (the log is read after nginx stopped: it is complete)
    }

    /** Same, checking nginx's own view of the connections: one server connection for all the requests. */
    @Test
    void oneServerConnection() throws Exception {
        int fe = freePort();
        java.nio.file.Path log = java.nio.file.Files.createTempFile("nginx-conns", ".log");
        try (NginxOrigin nginx = NginxOrigin.start(HTTP, SERVER.formatted(log));
             FulcrumProcess proxy = serve(config(fe, nginx.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Files.writeString(nginx.root().resolve("a.txt"), "A");
            for (int i = 0; i < 5; i++) {
                assertThat(c.exchange(get("/a.txt")).bodyText()).isEqualTo("A");
            }
        }
        List<String> lines = Files.readAllLines(log);
        assertThat(lines).hasSize(5);
        assertThat(lines.stream().map(l -> l.split(" ")[0]).distinct()).as(String.join("\n", lines)).hasSize(1);
        assertThat(lines.stream().map(l -> l.split(" ")[1])).containsExactly("1", "2", "3", "4", "5");
    }
}
