package io.fulcrum.it;

import io.fulcrum.it.HttpClientConn.Response;
import io.fulcrum.it.HttpOrigin.Received;
import io.fulcrum.it.HttpWire.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.fulcrum.it.HttpErrorsIT.E400;
import static io.fulcrum.it.HttpKit.config;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code h1-case-adjust}, {@code h1-case-adjust-file} and the options that apply them: header names are written
 * in the configured case to the clients of a frontend with {@code option h1-case-adjust-bogus-client} and to the
 * servers of a backend with {@code option h1-case-adjust-bogus-server} (the fields the proxy writes itself and
 * trailers included), and in lower case otherwise. HAProxy's own 400, sent as stored, is left alone.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpHeaderCaseIT {

    private static final String GLOBAL = """
            global
                h1-case-adjust content-length Content-Length
                h1-case-adjust transfer-encoding Transfer-ENCODING
                h1-case-adjust connection CONNECTION
                h1-case-adjust host Host
                h1-case-adjust x-forwarded-for X-Forwarded-For
                h1-case-adjust x-trailer X-Trailer
                h1-case-adjust cache-control Cache-Control
            """;

    @TempDir
    Path dir;

    @Test
    void namesToBogusServers() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve(GLOBAL + config("127.0.0.1:" + fe, "option forwardfor",
                     "option h1-case-adjust-bogus-server", origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("POST / HTTP/1.0\r\nhost: test\r\nx-other: 1\r\ncontent-length: 2\r\n\r\nab");
            assertThat(c.read().status()).isEqualTo(200);
            Received r = origin.nextRequest(5000);
            assertThat(r.head().fields()).extracting(Field::name)
                    .contains("Host", "x-other", "Content-Length", "X-Forwarded-For", "CONNECTION");
        }
        fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve(GLOBAL + config("127.0.0.1:" + fe, "", "option h1-case-adjust-bogus-server",
                     origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("POST / HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\nx-trailer: t\r\n\r\n");
            assertThat(c.read().status()).isEqualTo(200);
            Received r = origin.nextRequest(5000);
            assertThat(r.head().fields()).extracting(Field::name).contains("Transfer-ENCODING");
            assertThat(r.trailers()).extracting(Field::name).containsExactly("X-Trailer");
        }
    }

    @Test
    void namesToBogusClients() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.send(x.target().equals("/chunked")
                 ? "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nX-TRAILER: t\r\n\r\n"
                 : "HTTP/1.1 200 OK\r\ncache-control: private\r\ncontent-length: 2\r\n\r\nok"));
             FulcrumProcess proxy = serve(GLOBAL + config("127.0.0.1:" + fe, "option h1-case-adjust-bogus-client\nmonitor-uri /alive",
                     "", origin.port()), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                Response plain = c.exchange("GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
                assertThat(plain.head().fields()).extracting(Field::name)
                        .containsExactlyInAnyOrder("Cache-Control", "Content-Length", "CONNECTION");
            }
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                Response chunked = c.exchange(HttpKit.get("/chunked"));
                assertThat(chunked.head().fields()).extracting(Field::name).containsExactly("Transfer-ENCODING");
                assertThat(chunked.trailers()).extracting(Field::name).containsExactly("X-Trailer");
                // The proxy's own pages too, but not the 400 it sends as stored.
                assertThat(c.exchange(HttpKit.get("/alive")).head().fields()).extracting(Field::name)
                        .containsExactly("Content-Length", "Cache-Control", "content-type");
                c.send("GET / HTTP/1.1\r\nBad Field: x\r\n\r\n");
                assertThat(c.read().text()).isEqualTo(E400);
            }
        }
    }

    /** The case comes from the file too; without the option, names stay in lower case. */
    @Test
    void caseFile() throws Exception {
        Files.writeString(dir.resolve("names"), "# names\n\n  x-custom-name\tX-CUSTOM-Name  \nhost HOST\n");
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve("global\n    h1-case-adjust-file " + dir.resolve("names") + "\n"
                     + config("127.0.0.1:" + fe, "", "option h1-case-adjust-bogus-server", origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("GET / HTTP/1.1\r\nHost: test\r\nX-Custom-Name: 1\r\n\r\n");
            assertThat(c.read().status()).isEqualTo(200);
            assertThat(origin.nextRequest(5000).head().fields()).extracting(Field::name).containsExactly("HOST", "X-CUSTOM-Name");
        }
        fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve("global\n    h1-case-adjust-file " + dir.resolve("names") + "\n"
                     + config("127.0.0.1:" + fe, "", "", origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("GET / HTTP/1.1\r\nHost: test\r\nX-Custom-Name: 1\r\n\r\n");
            assertThat(c.read().head().fields()).extracting(Field::name).containsExactly("content-length");
            assertThat(origin.nextRequest(5000).head().fields()).extracting(Field::name).containsExactly("host", "x-custom-name");
        }
    }
}
