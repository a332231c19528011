package io.fulcrum.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The set-map, del-map, add-acl and del-acl actions over real sockets: a request changes a map or an ACL
 * file, a later request sees the change, and the CLI's "show map"/"show acl" list it. Run with
 * -Dit.proxy=haproxy to check the expectations against haproxy 2.6.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PatternActionsIT {
    private static Path admin;
    private static Path tags;
    private static Path blocked;
    private static int fe;
    private static HttpOrigin web;
    private static FulcrumProcess proxy;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("fulcrum-pattern-actions");
        admin = dir.resolve("admin.sock");
        tags = dir.resolve("tags.map");
        blocked = dir.resolve("blocked.acl");
        Files.writeString(tags, "/q/old old\n");
        Files.writeString(blocked, "");
        web = HttpOrigin.ok("web");
        fe = freePort();
        proxy = TcpProxyKit.serve("""
                global
                    stats socket %1$s level admin
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%2$d
                    acl blocked path_beg -f %3$s
                    http-request set-map(%4$s) %%[req.hdr(x-key)] %%[req.hdr(x-val)] if { req.hdr(x-key) -m found }
                    http-request del-map(%4$s) %%[req.hdr(x-del)] if { req.hdr(x-del) -m found }
                    http-request add-acl(%3$s) %%[req.hdr(x-block)] if { req.hdr(x-block) -m found }
                    http-request del-acl(%3$s) %%[req.hdr(x-unblock)] if { req.hdr(x-unblock) -m found }
                    http-request set-map(/no/such/file) a b
                    http-request deny if blocked
                    http-request return status 200 content-type text/plain lf-string "%%[path,map(%4$s,none)]" if { path_beg /q/ }
                    default_backend web
                backend web
                    http-response set-map(%4$s) /q/resp status-%%[status]
                    server s1 127.0.0.1:%5$d
                """.formatted(admin, fe, blocked, tags, web.port()), fe);
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
        web.close();
    }

    /** The body of the answer to a GET of {@code path} with {@code headers}, or its status when not 200. */
    private static String get(HttpClientConn c, String path, String headers) throws Exception {
        HttpClientConn.Response r = c.exchange("GET " + path + " HTTP/1.1\r\nHost: x\r\n" + headers + "\r\n");
        return r.status() == 200 ? r.bodyText() : String.valueOf(r.status());
    }

    @Test
    void aRequestSetsAndDeletesMapEntriesThatLaterRequestsFind() throws Exception {
        String map = tags.toString();
        try (HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(get(c, "/q/a", "")).isEqualTo("none");
            assertThat(get(c, "/", "x-key: /q/a\r\nx-val: one\r\n")).isEqualTo("web");
            assertThat(get(c, "/q/a", "")).isEqualTo("one");
            assertThat(get(c, "/", "x-key: /q/a\r\nx-val: two\r\n")).isEqualTo("web");
            assertThat(get(c, "/q/a", "")).isEqualTo("two");
            // set-map changed the entry in place: one entry for the key, after the file's own.
            assertThat(CliClient.send(admin, "show map " + map).lines().map(l -> l.replaceFirst("^0x[0-9a-f]+ ", "")))
                    .containsExactlyInAnyOrder("/q/old old", "/q/a two", "/q/resp status-200", "")
                    .startsWith("/q/old old");
            assertThat(get(c, "/q/resp", "")).isEqualTo("status-200"); // set by the http-response rule
            assertThat(get(c, "/", "x-del: /q/a\r\n")).isEqualTo("web");
            assertThat(get(c, "/q/a", "")).isEqualTo("none");
            assertThat(get(c, "/", "x-del: /q/old\r\n")).isEqualTo("web");
            assertThat(CliClient.send(admin, "show map " + map)).matches("0x[0-9a-f]+ /q/resp status-200\n\n");
        }
    }

    @Test
    void aRequestAddsAndDeletesAclPatterns() throws Exception {
        String acl = blocked.toString();
        try (HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(get(c, "/secret/x", "")).isEqualTo("web");
            // The rule adds the pattern before the deny rule runs: this request is already denied.
            assertThat(get(c, "/secret/x", "x-block: /secret\r\n")).isEqualTo("403");
        }
        try (HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(get(c, "/secret/y", "")).isEqualTo("403");
            assertThat(get(c, "/", "x-block: /secret\r\n")).isEqualTo("web"); // already there: not added twice
            assertThat(CliClient.send(admin, "show acl " + acl)).matches("0x[0-9a-f]+ /secret\n\n");
            assertThat(get(c, "/", "x-unblock: /secret\r\n")).isEqualTo("web");
            assertThat(get(c, "/secret/y", "")).isEqualTo("web");
            assertThat(CliClient.send(admin, "show acl " + acl)).isEqualTo("\n");
        }
    }
}
