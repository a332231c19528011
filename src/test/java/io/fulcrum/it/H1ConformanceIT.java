package io.fulcrum.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.fulcrum.it.HttpKit.haproxy;
import static io.fulcrum.it.LogIT.like;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * What the differential sweep against the real HAProxy 2.6 ({@code tools/h1-diff.py}) found, one finding a test: raw
 * request bytes in, and the bytes the server received, the bytes the client got, whether the client connection
 * stayed, the httplog line and {@code show errors} out. Each expectation is HAProxy's (run with
 * {@code -Dit.proxy=haproxy}) but where Fulcrum differs on purpose: those tests are skipped there and say why.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class H1ConformanceIT {
    private static final String AIR = "option accept-invalid-http-request";
    private static final String AIS = "option accept-invalid-http-response";
    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
    /** HAProxy's 400 as its stream sends it. */
    private static final String PRI_REFUSED = "HTTP/1.1 400 Bad request\r\ncontent-length: 90\r\ncache-control: no-cache\r\n"
            + "content-type: text/html\r\nconnection: close\r\n\r\n<html><body><h1>400 Bad request</h1>\n"
            + "Your browser sent an invalid request.\n</body></html>\n";
    private static final Map<String, Setup> SETUPS = new HashMap<>();

    @AfterAll
    static void stop() throws Exception {
        for (Setup s : SETUPS.values()) {
            s.close();
        }
        SETUPS.clear();
    }

    // --- request targets and Host ------------------------------------------------------------------------

    @Test
    void anAbsoluteTargetAndHostLoseTheDefaultPortOfTheScheme() throws Exception {
        Exchange e = exchange(get("http://a:80/x", "Host: a:80\r\n"), OK);
        assertThat(e.server()).containsExactly("GET http://a/x HTTP/1.1\r\nhost: a\r\n\r\n");
        assertThat(e.log()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N}/{N}/{N} 200 {N} - - ---- "
                + "1/1/0/0/0 0/0 \"GET http://a/x HTTP/1.1\""));
        assertThat(exchange(get("https://a:443/x", "Host: a:443\r\n"), OK).server())
                .containsExactly("GET https://a/x HTTP/1.1\r\nhost: a\r\n\r\n");
        assertThat(exchange(get("http://a:/x", "Host: a:\r\n"), OK).server())
                .containsExactly("GET http://a/x HTTP/1.1\r\nhost: a\r\n\r\n");
        // Not the default port of the scheme, or an origin-form target: as received.
        assertThat(exchange(get("http://a:443/x", "Host: a:443\r\n"), OK).server())
                .containsExactly("GET http://a:443/x HTTP/1.1\r\nhost: a:443\r\n\r\n");
        assertThat(exchange(get("/x", "Host: a:80\r\n"), OK).server())
                .containsExactly("GET /x HTTP/1.1\r\nhost: a:80\r\n\r\n");
    }

    @Test
    void theHostOfAConnectLosesPorts80And443() throws Exception {
        String established = "HTTP/1.1 200 OK\r\n\r\n";
        assertThat(exchange("CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n", established).server())
                .containsExactly("CONNECT a:443 HTTP/1.1\r\nhost: a\r\n\r\n");
        assertThat(exchange("CONNECT a:80 HTTP/1.1\r\nHost: a:80\r\n\r\n", established).server())
                .containsExactly("CONNECT a:80 HTTP/1.1\r\nhost: a\r\n\r\n");
        assertThat(exchange("CONNECT a:8080 HTTP/1.1\r\nHost: a:8080\r\n\r\n", established).server())
                .containsExactly("CONNECT a:8080 HTTP/1.1\r\nhost: a:8080\r\n\r\n");
    }

    /**
     * {@code option disable-h2-upgrade}: the HTTP/2 preface is read as an HTTP/1 request and refused with a 400
     * (haproxy 2.6 without the option would switch to HTTP/2, which Fulcrum does not speak yet). HAProxy's stream refuses
     * the PRI method, in any case and any request, whatever the version: its 400 as the proxy's own answers go (lower-case
     * fields, %B 206), logged as a bad request refused before its line was captured, and no {@code show errors} entry.
     */
    @Test
    void withoutTheH2UpgradeThePrefaceIsABadRequest() throws Exception {
        for (String request : new String[] {"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "PRI / HTTP/1.1\r\nHost: a\r\n\r\n",
                "pri / HTTP/1.0\r\n\r\n", "PRI / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc"}) {
            Exchange e = exchange(request, OK, false, "option disable-h2-upgrade");
            assertThat(e.client()).as(request).isEqualTo(PRI_REFUSED);
            assertThat(e.closed()).as(request).isTrue();
            assertThat(e.server()).as(request).isEmpty();
            assertThat(e.log()).as(request).matches(like("127.0.0.1:{N} [{DATE}] fe fe/<NOSRV> -1/-1/-1/-1/{N} 400 206 - - PR-- "
                    + "1/1/0/0/0 0/0 \"<BADREQ>\""));
            assertThat(e.errors()).as(request).isZero();
        }
        Exchange fields = exchange("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", OK, false, "option disable-h2-upgrade",
                "log-format \"%ST %B %tsc %r %TR %HM|%HU|%HV\"");
        assertThat(fields.log()).isEqualTo("400 206 PR-- <BADREQ> -1 <BADREQ>|<BADREQ>|<BADREQ>");
    }

    /** The same on a {@code proto h1} bind line, where haproxy 2.6 never switches to HTTP/2. */
    @Test
    void aProtoH1BindRefusesThePrefaceToo() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             FulcrumProcess proxy = TcpProxyKit.serve("""
                     defaults
                         mode http
                         timeout client 5s
                     frontend f
                         bind 127.0.0.1:%d proto h1
                         log 127.0.0.1:%d format raw local0
                         log-format "%%ST %%B %%tsc %%r"
                         http-request return status 200 content-type text/plain string ok
                     """.formatted(fe, logs.port()), fe);
             Socket s = TcpProxyKit.connect(fe)) {
            TcpProxyKit.send(s, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
            assertThat(TcpProxyKit.readToEof(s, 1000)).isEqualTo(PRI_REFUSED);
            assertThat(logs.next()).isEqualTo("400 206 PR-- <BADREQ>\n");
        }
    }

    @Test
    void theLogShowsTheVersionAsTheClientSpeltIt() throws Exception {
        Exchange e = exchange(get("/", "Host: a\r\n").replace("HTTP/1.1", "HTTP/1.2"), OK);
        assertThat(e.server()).containsExactly("GET / HTTP/1.1\r\nhost: a\r\n\r\n");
        assertThat(e.log()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N}/{N}/{N} 200 {N} - - ---- "
                + "1/1/0/0/0 0/0 \"GET / HTTP/1.2\""));
        Exchange fields = exchange("GET http://a/x?q=1 HTTP/1.9\r\nHost: a\r\n\r\n", OK, false,
                "log-format \"%r|%HM|%HU|%HP|%HPO|%HQ|%HV|%ST\"");
        assertThat(fields.log()).isEqualTo("GET http://a/x?q=1 HTTP/1.9|GET|http://a/x?q=1|http://a/x|/x|?q=1|HTTP/1.9|200");
        Exchange other = exchange("GET / RTSP/1.0\r\nHost: a\r\n\r\n", OK, false, AIR);
        assertThat(other.log()).endsWith(" \"GET / RTSP/1.0\"");
    }

    // --- framing --------------------------------------------------------------------------------------------

    @Test
    void transferEncodingKeepsItsPlaceAndChunkSizesAreWrittenInUpperCase() throws Exception {
        Exchange e = exchange("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nHost: a\r\nX-A: 1\r\n\r\n"
                + "1a\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\n\r\n", OK);
        assertThat(e.server()).containsExactly("POST / HTTP/1.1\r\ntransfer-encoding: chunked\r\nhost: a\r\nx-a: 1\r\n\r\n"
                + "1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\n\r\n");
        assertThat(e.closed()).isFalse();
    }

    @Test
    void aResponseToHeadKeepsItsTransferEncoding() throws Exception {
        Exchange e = exchange(get("/", "Host: a\r\n").replace("GET", "HEAD"),
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
        assertThat(e.client()).isEqualTo("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n");
        assertThat(e.closed()).isFalse();
    }

    @Test
    void anHttp10ResponseOnAKeptConnectionSaysKeepAlive() throws Exception {
        Exchange e = exchange(get("/", "Host: a\r\n"), "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok");
        assertThat(e.client()).isEqualTo("HTTP/1.0 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok");
        assertThat(e.closed()).isFalse();
    }

    @Test
    void anHttp10ResponseThatClosesSaysNothingOfIt() throws Exception {
        Exchange e = exchange(get("/", "Host: a\r\nConnection: close\r\n"), "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok");
        assertThat(e.client()).isEqualTo("HTTP/1.0 200 OK\r\ncontent-length: 2\r\n\r\nok");
        e = exchange(get("/", "Host: a\r\n"), "HTTP/1.0 200 OK\r\n\r\nuntil the close", true);
        assertThat(e.client()).isEqualTo("HTTP/1.0 200 OK\r\n\r\nuntil the close");
        assertThat(e.closed()).isTrue();
    }

    @Test
    void aBadChunkThatCameWithTheResponseHeadIsABadResponse() throws Exception {
        Exchange e = exchange(get("/", "Host: a\r\n"), "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nok\r\n0\r\n\r\n");
        assertThat(e.client()).startsWith("HTTP/1.1 502 Bad Gateway\r\n");
        assertThat(e.log()).contains(" 502 ").contains(" PH-- ");
    }

    // --- termination states ---------------------------------------------------------------------------------

    @Test
    void aServerClosingInsideItsResponseIsAServerAbort() throws Exception {
        Exchange body = exchange(get("/", "Host: a\r\n"), "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nok", true);
        assertThat(body.client()).isEqualTo("HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nok");
        assertThat(body.closed()).isTrue();
        assertThat(body.log()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N}/{N}/{N} 200 {N} - - SD-- "
                + "1/1/0/0/0 0/0 \"GET / HTTP/1.1\""));
        Exchange head = exchange(get("/", "Host: a\r\n"), "HTTP/1.1 200 OK\r\nContent-Le", true);
        assertThat(head.client()).startsWith("HTTP/1.1 502 Bad Gateway\r\n");
        assertThat(head.log()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N}/{N}/{N} 502 {N} - - SH-- "
                + "1/1/0/0/0 0/0 \"GET / HTTP/1.1\""));
        assertThat(head.errors()).isZero();
    }

    @Test
    void aServerClosingAfterAnInterimResponseIsAnAbortDuringTheHead() throws Exception {
        Exchange e = exchange(get("/", "Host: a\r\n"), "HTTP/1.1 100 Continue\r\n\r\n", true);
        assertThat(e.client()).startsWith("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 502 Bad Gateway\r\n");
        assertThat(e.log()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N}/{N}/{N} 502 {N} - - SH-- "
                + "1/1/0/0/0 0/0 \"GET / HTTP/1.1\""));
    }

    @Test
    void switchingProtocolsThatTheRequestDidNotOfferIsAnInvalidResponse() throws Exception {
        Exchange e = exchange(get("/", "Host: a\r\n"), "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n");
        assertThat(e.client()).startsWith("HTTP/1.1 502 Bad Gateway\r\n");
        assertThat(e.closed()).isFalse();
        assertThat(e.log()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N}/{N}/{N} 502 {N} - - PH-- "
                + "1/1/0/0/0 0/0 \"GET / HTTP/1.1\""));
    }

    // --- upgrades ------------------------------------------------------------------------------------------

    private static final String WS_KEY = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    private static final String WS_ACCEPT = "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n";

    @Test
    void anUpgradeKeepsItsConnectionFieldsInPlaceWithoutCloseOrKeepAlive() throws Exception {
        Exchange e = exchange(get("/", "Host: a\r\nConnection: keep-alive, Upgrade\r\nUpgrade: websocket\r\n" + WS_KEY),
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nX-B: 2\r\n" + WS_ACCEPT
                        + "connection: keep-alive, UPGRADE\r\n\r\n");
        assertThat(e.server()).containsExactly("GET / HTTP/1.1\r\nhost: a\r\nconnection: Upgrade\r\nupgrade: websocket\r\n"
                + "sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n");
        assertThat(e.client()).isEqualTo("HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nx-b: 2\r\n"
                + "sec-websocket-accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\nconnection: UPGRADE\r\n\r\n");
        assertThat(e.log()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N}/{N}/{N} 101 {N} - - ---- "
                + "1/1/0/0/0 0/0 \"GET / HTTP/1.1\""));
        // Two Connection fields: the one left empty goes, the other stays where it was.
        Exchange two = exchange(get("/", "Host: a\r\nConnection: keep-alive\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + WS_KEY), "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n" + WS_ACCEPT + "\r\n");
        assertThat(two.server().get(0)).startsWith("GET / HTTP/1.1\r\nhost: a\r\nupgrade: websocket\r\nconnection: Upgrade\r\n");
    }

    @Test
    void anH2cUpgradeKeepsWhatItsConnectionFieldNames() throws Exception {
        Exchange e = exchange(get("/", "Host: a\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
                + "HTTP2-Settings: AAMAAABkAAQAAP__\r\n"), "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n");
        assertThat(e.server()).containsExactly("GET / HTTP/1.1\r\nhost: a\r\nconnection: Upgrade, HTTP2-Settings\r\n"
                + "upgrade: h2c\r\nhttp2-settings: AAMAAABkAAQAAP__\r\n\r\n");
        assertThat(e.client()).isEqualTo("HTTP/1.1 101 Switching Protocols\r\nconnection: Upgrade\r\nupgrade: h2c\r\n\r\n");
    }

    @Test
    void aSwitchWithoutConnectionUpgradeOrWebSocketProofIsAnInvalidResponse() throws Exception {
        String request = get("/", "Host: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n" + WS_KEY);
        Exchange noAccept = exchange(request, "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n");
        assertThat(noAccept.client()).startsWith("HTTP/1.1 502 Bad Gateway\r\n");
        assertThat(noAccept.log()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N}/{N}/{N} 502 {N} - - PH-- "
                + "1/1/0/0/0 0/0 \"GET / HTTP/1.1\""));
        assertThat(noAccept.errors()).isEqualTo(1);
        Exchange noConnection = exchange(request, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n" + WS_ACCEPT + "\r\n");
        assertThat(noConnection.client()).startsWith("HTTP/1.1 502 Bad Gateway\r\n");
        assertThat(noConnection.log()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N}/{N}/{N} 502 {N} - - PH-- "
                + "1/1/0/0/0 0/0 \"GET / HTTP/1.1\""));
        assertThat(noConnection.errors()).isZero();
    }

    @Test
    void anHttp10RequestIsNotToldToCloseInServerCloseModes() throws Exception {
        for (String mode : new String[] {"option http-server-close", "option httpclose"}) {
            Exchange e = exchange("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", OK, false, mode);
            assertThat(e.server()).as(mode).containsExactly("GET / HTTP/1.0\r\n\r\n");
        }
    }

    @Test
    void aBadChunkInTheHeadsPacketIsABadRequest() throws Exception {
        Exchange e = exchange("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0x5\r\nhello\r\n0\r\n\r\n", OK);
        assertThat(e.client()).startsWith("HTTP/1.1 400 Bad request\r\n");
        assertThat(e.closed()).isTrue();
        assertThat(e.server()).isEmpty();
        assertThat(e.log()).matches(like("127.0.0.1:{N} [{DATE}] fe fe/<NOSRV> {N}/{N}/{N}/{N}/{N} 400 {N} - - PR-- "
                + "1/1/0/0/0 0/0 \"<BADREQ>\""));
        assertThat(e.errors()).isEqualTo(1);
    }

    @Test
    void aRequestBodyCutShortAfterTheResponseIsAClientAbort() throws Exception {
        // The last chunk lacks the empty line that ends the trailers; the server answers meanwhile.
        Exchange e = exchange("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n", OK);
        assertThat(e.client()).isEqualTo("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
        assertThat(e.log()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N}/{N}/{N} 200 {N} - - CD-- "
                + "1/1/0/0/0 0/0 \"POST / HTTP/1.1\""));
    }

    // --- accept-invalid-http-request/response ---------------------------------------------------------------

    @Test
    void whatAcceptInvalidLetsThroughIsStillKeptForShowErrors() throws Exception {
        Exchange name = exchange(get("/", "Host: a\r\nX(A): b\r\n"), OK, false, AIR);
        assertThat(name.server()).containsExactly("GET / HTTP/1.1\r\nhost: a\r\nx(a): b\r\n\r\n");
        assertThat(name.errors()).isEqualTo(1);
        Exchange fragment = exchange(get("/a#f", "Host: a\r\n"), OK, false, AIR);
        assertThat(fragment.server()).containsExactly("GET /a#f HTTP/1.1\r\nhost: a\r\n\r\n");
        assertThat(fragment.errors()).isEqualTo(1);
        Exchange valid = exchange(get("/a", "Host: a\r\n"), OK, false, AIR);
        assertThat(valid.errors()).isZero();
        Exchange response = exchange(get("/", "Host: a\r\n"), "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nBad(Name): 1\r\n\r\nok",
                false, AIS);
        assertThat(response.client()).isEqualTo("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nbad(name): 1\r\n\r\nok");
        assertThat(response.errors()).isEqualTo(1);
    }

    // --- where Fulcrum differs on purpose -------------------------------------------------------------------

    @Test
    void aMajorVersionOtherThanOneGets505() throws Exception {
        assumeFalse(haproxy(), "HAProxy 2.6 takes HTTP/2.0 as HTTP/1.1 (docs/http1-strictness.md, [major-version])");
        Exchange e = exchange(get("/", "Host: a\r\n").replace("HTTP/1.1", "HTTP/2.0"), OK);
        assertThat(e.client()).startsWith("HTTP/1.1 505 HTTP Version not supported\r\n").endsWith("</body></html>\n");
        assertThat(e.closed()).isTrue();
        assertThat(e.server()).isEmpty();
        assertThat(e.log()).matches(like("127.0.0.1:{N} [{DATE}] fe fe/<NOSRV> {N}/{N}/{N}/{N}/{N} 505 {N} - - PR-- "
                + "1/1/0/0/0 0/0 \"<BADREQ>\""));
        assertThat(e.errors()).isEqualTo(1);
    }

    @Test
    void aChunkedResponseToAnHttp10ClientIsDelimitedByTheClose() throws Exception {
        assumeFalse(haproxy(), "HAProxy 2.6 sends chunks to an HTTP/1.0 client (docs/differences.md)");
        Exchange e = exchange("GET / HTTP/1.0\r\n\r\n",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nX-T: 1\r\n\r\n");
        assertThat(e.client()).isEqualTo("HTTP/1.1 200 OK\r\nconnection: close\r\n\r\nok");
        assertThat(e.closed()).isTrue();
    }

    // --- the kit --------------------------------------------------------------------------------------------

    /** What one exchange gave: the client's bytes, whether it was closed, each server connection's bytes, the log line. */
    record Exchange(String client, boolean closed, List<String> server, String log, int errors) {
    }

    private static String get(String target, String fields) {
        return "GET " + target + " HTTP/1.1\r\n" + fields + "\r\n";
    }

    private static Exchange exchange(String request, String response) throws Exception {
        return exchange(request, response, false);
    }

    /**
     * Sends {@code request} on a new client connection of a proxy with {@code options} in its defaults, whose
     * server answers each request head with {@code response} (then closes if {@code closeAfter}); reads until the
     * connection closes or stays silent for 800 ms after its first byte (5 s before it).
     */
    private static Exchange exchange(String request, String response, boolean closeAfter, String... options)
            throws Exception {
        String key = String.join("\n", options);
        Setup setup = SETUPS.get(key);
        if (setup == null) {
            setup = new Setup(options);
            SETUPS.put(key, setup);
        }
        return setup.exchange(request, response, closeAfter);
    }

    /** A proxy with a capturing server, a syslog target and a stats socket. */
    private static final class Setup implements AutoCloseable {
        private final CapturingServer server;
        private final SyslogListener logs;
        private final Path admin;
        private final FulcrumProcess proxy;
        private final int fe;

        Setup(String... options) throws Exception {
            server = new CapturingServer();
            logs = SyslogListener.open();
            admin = Files.createTempDirectory("fulcrum-h1conf").resolve("admin.sock");
            fe = freePort();
            StringBuilder extra = new StringBuilder();
            for (String o : options) {
                extra.append("    ").append(o).append('\n');
            }
            proxy = TcpProxyKit.serve("""
                    global
                        log 127.0.0.1:%d format raw local0
                        stats socket %s level admin
                    defaults
                        mode http
                        log global
                        option httplog
                        timeout connect 2s
                        timeout client 5s
                        timeout server 5s
                        timeout http-keep-alive 5s
                    %sfrontend fe
                        bind 127.0.0.1:%d
                        default_backend be
                    backend be
                        http-reuse never
                        server s1 127.0.0.1:%d
                    """.formatted(logs.port(), admin, extra, fe, server.origin.port()), fe);
        }

        Exchange exchange(String request, String response, boolean closeAfter) throws Exception {
            server.answer(response, closeAfter);
            int errorsBefore = errors();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            boolean closed = false;
            try (Socket s = TcpProxyKit.connect(fe)) {
                TcpProxyKit.send(s, request);
                InputStream in = s.getInputStream();
                byte[] b = new byte[16384];
                long deadline = System.nanoTime() + 8_000_000_000L;
                while (System.nanoTime() < deadline) {
                    int n;
                    try {
                        // The first byte may be slow on a loaded machine; then 800 ms of silence ends the answer.
                        s.setSoTimeout(got.size() == 0 ? 5000 : 800);
                        n = in.read(b);
                    } catch (SocketTimeoutException silent) {
                        break;
                    } catch (java.net.SocketException reset) {
                        closed = true;
                        break;
                    }
                    if (n < 0) {
                        closed = true;
                        break;
                    }
                    got.write(b, 0, n);
                }
            }
            String log = logs.next().strip();
            return new Exchange(TcpProxyKit.text(got.toByteArray()), closed, server.received(), log,
                    errors() - errorsBefore);
        }

        private static final Pattern EVENTS = Pattern.compile("Total events captured on \\[[^]]*] : (\\d+)");

        private int errors() throws Exception {
            Matcher m = EVENTS.matcher(CliClient.send(admin, "show errors"));
            assertThat(m.find()).isTrue();
            return Integer.parseInt(m.group(1));
        }

        @Override
        public void close() throws Exception {
            try (proxy; logs) {
                server.origin.close();
            }
        }
    }

    /**
     * A raw server: keeps what each connection sends, and answers each request head (counted by its empty line)
     * once the connection has been silent for 150 ms, so that a body sent with the head is received first.
     */
    private static final class CapturingServer {
        private final List<ByteArrayOutputStream> connections = new CopyOnWriteArrayList<>();
        private volatile String response;
        private volatile boolean closeAfter;
        final Origin origin;

        CapturingServer() throws Exception {
            origin = Origin.start(this::serve);
        }

        void answer(String response, boolean closeAfter) {
            connections.clear();
            this.response = response;
            this.closeAfter = closeAfter;
        }

        List<String> received() throws InterruptedException {
            Thread.sleep(200); // what the proxy sent after the client's exchange ended
            List<String> r = new ArrayList<>();
            for (ByteArrayOutputStream c : connections) {
                synchronized (c) {
                    r.add(TcpProxyKit.text(c.toByteArray()));
                }
            }
            return r;
        }

        private void serve(Socket s) throws Exception {
            ByteArrayOutputStream seen = new ByteArrayOutputStream();
            connections.add(seen);
            String answer = response;
            boolean close = closeAfter;
            s.setSoTimeout(150);
            InputStream in = s.getInputStream();
            byte[] b = new byte[16384];
            int answered = 0;
            while (true) {
                try {
                    int n = in.read(b);
                    if (n < 0) {
                        return;
                    }
                    synchronized (seen) {
                        seen.write(b, 0, n);
                    }
                } catch (SocketTimeoutException quiet) {
                    int heads;
                    synchronized (seen) {
                        heads = TcpProxyKit.text(seen.toByteArray()).split("\r\n\r\n", -1).length - 1;
                    }
                    if (heads > answered) {
                        answered = heads;
                        s.getOutputStream().write(TcpProxyKit.bytes(answer));
                        s.getOutputStream().flush();
                        if (close) {
                            return;
                        }
                    }
                }
            }
        }
    }
}
