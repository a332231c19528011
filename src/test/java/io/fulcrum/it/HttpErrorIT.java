package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code http-error}: the proxy's own error messages written as {@code return} replies (a string or file payload with
 * its content-type, header fields, log-format parts made for each transaction), inherited from defaults, and
 * {@code default-errorfiles} going back to the usual message. The same bytes as HAProxy 2.6 (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpErrorIT {
    /** Servers that refuse at once: a 503 without waiting. */
    private static final String DEFAULTS = """
            defaults
                mode http
                timeout connect 100ms
                retries 0
                timeout client 5s
                timeout server 5s
            """;

    @TempDir
    Path dir;

    @Test
    void errorsAnsweredWithTheProxysMessages() throws Exception {
        Path file = dir.resolve("body.txt");
        Files.writeString(file, "custom file body\n");
        int fe = freePort();
        int reset = freePort();
        try (FulcrumProcess proxy = serve(DEFAULTS + """
                    http-error status 503 content-type text/plain string "down for now" hdr x-a b hdr x-b "c d"
                frontend fe
                    bind 127.0.0.1:%d
                    http-error status 403 content-type "text/plain; charset=utf-8" file %s
                    http-error status 404
                    http-error status 400 content-type text/plain string "not this one"
                    http-error status 400 default-errorfiles
                    http-request deny if { path /d }
                    http-request deny deny_status 404 if { path /n }
                    http-request deny deny_status 400 if { path /b }
                    default_backend down
                frontend reset
                    bind 127.0.0.1:%d
                    http-request return status 200 content-type text/plain string ok if { path /ok }
                    http-error status 503 default-errorfiles
                    use_backend plain
                backend down
                    server s1 127.0.0.1:%d
                backend plain
                    http-error status 503 default-errorfiles
                    server s1 127.0.0.1:%4$d
                """.formatted(fe, file, reset, freePort()), fe)) {
            assertThat(text(fe, "/")).isEqualTo("HTTP/1.1 503 Service Unavailable\r\nx-a: b\r\nx-b: c d\r\ncontent-length: 12\r\n"
                    + "content-type: text/plain\r\n\r\ndown for now");
            assertThat(text(fe, "/d")).isEqualTo("HTTP/1.1 403 Forbidden\r\ncontent-length: 17\r\n"
                    + "content-type: text/plain; charset=utf-8\r\n\r\ncustom file body\n");
            assertThat(text(fe, "/n")).isEqualTo("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n");
            assertThat(text(fe, "/b")).as("reset to HAProxy's page").contains("<h1>400 Bad request</h1>");
            assertThat(text(reset, "/")).as("reset in the backend: HAProxy's page").contains("<h1>503 Service Unavailable</h1>");
        }
    }

    /**
     * A message whose body or header values are log-formats is made for each failing transaction, with its samples,
     * as a {@code return} reply is; a later errorfile line still replaces it.
     */
    @Test
    void logFormatPartsAreMadeForEachTransaction() throws Exception {
        Path file = dir.resolve("lf.txt");
        Files.writeString(file, "from file for %[path]\n");
        int fe = freePort();
        try (FulcrumProcess proxy = serve(DEFAULTS + """
                frontend fe
                    bind 127.0.0.1:%d
                    http-error status 503 content-type text/plain lf-string "no server for %%[req.hdr(host)]%%[path]" hdr x-m "%%[method]"
                    http-error status 403 content-type text/plain lf-file %s
                    http-error status 404 content-type text/plain lf-string "%%[path]"
                    errorfile 404 /dev/null
                    http-request deny if { path_beg /d }
                    http-request deny deny_status 404 if { path /n }
                    default_backend down
                backend down
                    server s1 127.0.0.1:%d
                """.formatted(fe, file, freePort()), fe)) {
            assertThat(text(fe, "/a?b")).isEqualTo("HTTP/1.1 503 Service Unavailable\r\nx-m: GET\r\ncontent-length: 17\r\n"
                    + "content-type: text/plain\r\n\r\nno server for x/a");
            assertThat(text(fe, "/d/x")).isEqualTo("HTTP/1.1 403 Forbidden\r\ncontent-length: 19\r\n"
                    + "content-type: text/plain\r\n\r\nfrom file for /d/x\n");
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send("GET /n HTTP/1.1\r\nHost: x\r\n\r\n");
                c.awaitClosed(3000); // the later errorfile: empty, nothing is sent
            }
        }
    }

    /**
     * {@code errorfiles <name>} takes the section's message for the status, as the proxy keyword {@code errorfiles
     * <name> <status>} would; a section without that status leaves the usual message (HAProxy's warning at load).
     */
    @Test
    void errorfilesTakesTheSectionsMessageForTheStatus() throws Exception {
        Path e503 = dir.resolve("503.http");
        Files.writeString(e503, "HTTP/1.0 503 Service Unavailable\r\nContent-Type: text/plain\r\nX-From: file\r\n\r\nfrom errorfiles\n");
        Path e403 = dir.resolve("403.http");
        Files.writeString(e403, "HTTP/1.0 403 Forbidden\r\nContent-Type: text/plain\r\n\r\nforbidden file\n");
        int fe = freePort();
        int other = freePort();
        try (FulcrumProcess proxy = serve(DEFAULTS + """
                http-errors mine
                    errorfile 503 %s
                http-errors others
                    errorfile 403 %s
                frontend fe
                    bind 127.0.0.1:%d
                    http-error status 503 errorfiles mine
                    http-error status 403 errorfiles mine
                    http-request deny if { path /d }
                    default_backend down
                frontend other
                    bind 127.0.0.1:%d
                    http-error status 503 errorfiles others
                    default_backend down
                backend down
                    server s1 127.0.0.1:%d
                """.formatted(e503, e403, fe, other, freePort()), fe)) {
            assertThat(text(fe, "/")).isEqualTo("HTTP/1.0 503 Service Unavailable\r\ncontent-type: text/plain\r\nx-from: file\r\n\r\n"
                    + "from errorfiles\n");
            assertThat(text(fe, "/d")).as("not in the section: HAProxy's page").contains("<h1>403 Forbidden</h1>");
            assertThat(text(other, "/")).contains("<h1>503 Service Unavailable</h1>");
        }
    }

    private static String text(int port, String path) throws Exception {
        try (HttpClientConn c = HttpClientConn.open(port)) {
            return c.exchange("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n").text();
        }
    }
}
