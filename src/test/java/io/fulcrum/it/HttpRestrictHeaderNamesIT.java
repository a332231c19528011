package io.fulcrum.it;

import io.fulcrum.it.HttpClientConn.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.fulcrum.it.HttpKit.config;
import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code option http-restrict-req-hdr-names}: request fields whose name has a character other than a letter, a
 * digit or '-' are kept, removed, or make the request refused with HAProxy's 403, the frontend's policy first, then
 * the backend's (each with its own error pages).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpRestrictHeaderNamesIT {

    private static final String ODD_NAMES = "GET /odd HTTP/1.1\r\nHost: test\r\nX_Under: 1\r\nX.Dot: 2\r\nX-Ok-9: 3\r\n\r\n";

    @TempDir
    Path dir;

    /** What the client got for a request with odd names, and the names of the fields the origin got (null: none came). */
    private record Outcome(Response response, List<String> forwarded) {
    }

    private static Outcome send(String frontend, String backend) throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve(config("127.0.0.1:" + fe, frontend, backend, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Response r = c.exchange(ODD_NAMES);
            // The connection stays, and what comes next goes through.
            assertThat(c.exchange(get("/")).bodyText()).isEqualTo("ok");
            HttpOrigin.Received first = origin.nextRequest(5000);
            return new Outcome(r, first.target().equals("/odd") ? first.head().names() : null);
        }
    }

    @Test
    void preserveIsTheDefault() throws Exception {
        assertThat(send("", "option http-restrict-req-hdr-names preserve").forwarded())
                .containsExactly("host", "x_under", "x.dot", "x-ok-9");
    }

    @Test
    void deleteRemovesTheFields() throws Exception {
        assertThat(send("option http-restrict-req-hdr-names delete", "").forwarded()).containsExactly("host", "x-ok-9");
    }

    /** reject: the 403 page through HTTP/1 output; nothing reaches the origin. */
    @Test
    void rejectAnswers403() throws Exception {
        Outcome o = send("option http-restrict-req-hdr-names reject", "");
        assertThat(o.response().text()).isEqualTo(HttpErrorsIT.E403);
        assertThat(o.forwarded()).isNull();
    }

    /** The backend's refusal uses the backend's error page; a frontend that deleted the fields leaves nothing to refuse. */
    @Test
    void backendPolicyComesAfterTheFrontendsWithItsOwnPages() throws Exception {
        Files.writeString(dir.resolve("fe.http"), "HTTP/1.1 403 Forbidden\r\nContent-Length: 3\r\n\r\nfe\n");
        Files.writeString(dir.resolve("be.http"), "HTTP/1.1 403 Forbidden\r\nContent-Length: 3\r\n\r\nbe\n");
        assertThat(send("errorfile 403 " + dir.resolve("fe.http"),
                "errorfile 403 " + dir.resolve("be.http") + "\noption http-restrict-req-hdr-names reject").response().bodyText())
                .isEqualTo("be\n");
        assertThat(send("option http-restrict-req-hdr-names delete", "option http-restrict-req-hdr-names reject").forwarded())
                .containsExactly("host", "x-ok-9");
    }
}
