package io.fulcrum.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CLI's map and ACL commands over a real stats socket, changing the rules of a running proxy: a
 * frontend routes by a map ({@code use_backend %[req.hdr(host),lower,map(...)]}) and denies by an ACL
 * read from a file, and each change made on the CLI is seen by the next request. Expected outputs are
 * haproxy 2.6's (run with -Dit.proxy=haproxy to check them against it).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MapCliIT {
    private static Path dir;
    private static Path admin;
    private static Path hosts;
    private static Path blocked;
    private static Path tags;
    private static Path nets;
    private static int fe;
    private static HttpOrigin a;
    private static HttpOrigin b;
    private static HttpOrigin web;
    private static FulcrumProcess proxy;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("fulcrum-maps");
        admin = dir.resolve("admin.sock");
        hosts = dir.resolve("hosts.map");
        blocked = dir.resolve("blocked.acl");
        tags = dir.resolve("tags.map");
        nets = dir.resolve("nets.map");
        Files.writeString(nets, "10.0.0.0/8 be_a\n10.1.0.0/16 be_b\n");
        Files.writeString(hosts, "a.example be_a\n# comment\nold.example be_b\n");
        Files.writeString(blocked, "/blocked\n");
        Files.writeString(tags, "/img img\n/api api\n");
        a = HttpOrigin.ok("a");
        b = HttpOrigin.ok("b");
        // The default backend shows the tag that the tags map gave the request, if any.
        web = HttpOrigin.start(x -> {
            String tag = x.head.get("x-tag");
            x.reply(200, tag == null || tag.equals("none") ? "web" : "web:" + tag);
        });
        fe = freePort();
        proxy = TcpProxyKit.serve("""
                global
                    stats socket %s level admin
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d
                    acl blocked path_beg -f %s
                    http-request deny if blocked
                    http-request set-header x-tag %%[path,map_beg(%s,none)]
                    use_backend %%[req.hdr(x-ip),map_ip(%s)] if { req.hdr(x-ip) -m found }
                    use_backend %%[req.hdr(host),lower,map(%s)]
                    default_backend web
                backend be_a
                    server s1 127.0.0.1:%d
                backend be_b
                    server s1 127.0.0.1:%d
                backend web
                    server s1 127.0.0.1:%d
                """.formatted(admin, fe, blocked, tags, nets, hosts, a.port(), b.port(), web.port()), fe);
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
        a.close();
        b.close();
        web.close();
    }

    private static String cli(String line) throws Exception {
        return CliClient.send(admin, line);
    }

    /** The body of the answer to a GET of {@code path} with {@code host}, or its status when not 200. */
    private static String route(HttpClientConn c, String host, String path) throws Exception {
        HttpClientConn.Response r = c.exchange("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
        return r.status() == 200 ? r.bodyText() : String.valueOf(r.status());
    }

    @Test
    void changesMadeOnTheCliAreSeenByTheNextRequest() throws Exception {
        String map = hosts.toString();
        try (HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(route(c, "A.example", "/")).isEqualTo("a");
            assertThat(route(c, "new.example", "/")).isEqualTo("web"); // no such key: the default backend

            assertThat(cli("add map " + map + " new.example be_b")).isEqualTo("\n");
            assertThat(route(c, "new.example", "/")).isEqualTo("b");
            assertThat(cli("set map " + map + " new.example be_a")).isEqualTo("\n");
            assertThat(route(c, "new.example", "/")).isEqualTo("a");
            assertThat(cli("set map " + map + " new.example nosuchbackend")).isEqualTo("\n");
            assertThat(route(c, "new.example", "/")).isEqualTo("web"); // a name that is no backend: the default
            assertThat(cli("del map " + map + " new.example")).isEqualTo("\n");
            assertThat(cli("del map " + map + " new.example")).isEqualTo("Key not found.\n\n");
            assertThat(route(c, "new.example", "/")).isEqualTo("web");

            assertThat(route(c, "a.example", "/secret/x")).isEqualTo("a");
            assertThat(cli("add acl " + blocked + " /secret")).isEqualTo("\n");
            assertThat(route(c, "a.example", "/secret/x")).isEqualTo("403");
            String ref = cli("show acl " + blocked).lines().filter(l -> l.endsWith(" /secret")).findFirst().orElseThrow();
            assertThat(cli("del acl " + blocked + " #" + ref.substring(0, ref.indexOf(' ')))).isEqualTo("\n");
            assertThat(route(c, "a.example", "/secret/x")).isEqualTo("a");
            assertThat(route(c, "a.example", "/blocked")).isEqualTo("403");
        }
    }

    /** The longest network holding the address routes: changes inside, around and to the networks of the file. */
    @Test
    void anIpMapChangedOnTheCliRoutesByTheLongestNetwork() throws Exception {
        String map = nets.toString();
        try (HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(byIp(c, "10.1.2.3")).isEqualTo("b");
            assertThat(byIp(c, "10.2.2.3")).isEqualTo("a");
            assertThat(cli("add map " + map + " 10.1.2.0/24 be_a")).isEqualTo("\n");
            assertThat(byIp(c, "10.1.2.3")).isEqualTo("a");
            assertThat(byIp(c, "10.1.3.3")).isEqualTo("b");
            assertThat(cli("set map " + map + " 10.1.0.0/16 be_a")).isEqualTo("\n");
            assertThat(byIp(c, "10.1.3.3")).isEqualTo("a");
            assertThat(cli("del map " + map + " 10.1.2.0/24")).isEqualTo("\n");
            assertThat(cli("set map " + map + " 10.1.0.0/16 be_b")).isEqualTo("\n");
            assertThat(byIp(c, "10.1.2.3")).isEqualTo("b"); // the /16 again
            String ref = cli("show map " + map).lines().filter(l -> l.endsWith(" 10.1.0.0/16 be_b")).findFirst().orElseThrow();
            assertThat(cli("del map " + map + " #" + ref.substring(0, ref.indexOf(' ')))).isEqualTo("\n");
            assertThat(byIp(c, "10.1.2.3")).isEqualTo("a"); // the enclosing /8
            assertThat(cli("del map " + map + " 10.0.0.0/8")).isEqualTo("\n");
            assertThat(byIp(c, "10.1.2.3")).isEqualTo("web"); // no network: the next rules, then the default backend
            assertThat(cli("add map " + map + " <<\n10.0.0.0/8 be_a\n10.1.0.0/16 be_b\n")).isEqualTo("\n");
            assertThat(byIp(c, "10.1.2.3")).isEqualTo("b");
            assertThat(cli("show map " + map)).matches("0x[0-9a-f]+ 10\\.0\\.0\\.0/8 be_a\n0x[0-9a-f]+ 10\\.1\\.0\\.0/16 be_b\n\n");
        }
    }

    private static String byIp(HttpClientConn c, String ip) throws Exception {
        HttpClientConn.Response r = c.exchange("GET / HTTP/1.1\r\nHost: nowhere\r\nx-ip: " + ip + "\r\n\r\n");
        return r.status() == 200 ? r.bodyText() : String.valueOf(r.status());
    }

    @Test
    void aPreparedVersionReplacesTheMapAtCommit() throws Exception {
        String map = hosts.toString();
        String listing = cli("show map");
        assertThat(listing).startsWith("# id (file) description\n");
        String line = listing.lines().filter(l -> l.contains("(" + map + ")")).findFirst().orElseThrow();
        String id = line.substring(0, line.indexOf(' '));
        assertThat(line).contains(") pattern loaded from file '" + map + "' used by map at file '").contains(" curr_ver=0 next_ver=0 ");

        String version = cli("prepare map #" + id);
        assertThat(version).startsWith("New version created: ");
        String v = version.substring("New version created: ".length()).trim();
        try (HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(cli("add map @" + v + " #" + id + " <<\nv.example be_b\nb.example be_b\n")).isEqualTo("\n");
            assertThat(cli("show map @" + v + " #" + id)).matches("0x[0-9a-f]+ v\\.example be_b\n0x[0-9a-f]+ b\\.example be_b\n\n");
            assertThat(route(c, "v.example", "/")).isEqualTo("web"); // not yet committed
            assertThat(cli("get map #" + id + " v.example")).isEqualTo("type=str, case=sensitive, found=no\n\n");
            assertThat(cli("commit map @" + (Long.parseLong(v) + 1) + " #" + id)).isEqualTo("Version number out of range.\n\n");

            assertThat(cli("commit map @" + v + " #" + id)).isEqualTo("\n");
            assertThat(route(c, "v.example", "/")).isEqualTo("b");
            assertThat(route(c, "a.example", "/")).isEqualTo("web"); // the older version is gone
            assertThat(cli("get map #" + id + " v.example"))
                    .isEqualTo("type=str, case=sensitive, found=yes, idx=tree, key=\"v.example\", value=\"be_b\", type=\"str\"\n\n");
            // Put the file's first entry back for the other tests.
            assertThat(cli("add map #" + id + " a.example be_a")).isEqualTo("\n");
            assertThat(route(c, "a.example", "/")).isEqualTo("a");
        }
    }

    @Test
    void getAndShowReportAsHaproxyDoes() throws Exception {
        String map = tags.toString();
        assertThat(cli("show map " + map)).matches("0x[0-9a-f]+ /img img\n0x[0-9a-f]+ /api api\n\n");
        assertThat(cli("get map " + map + " /img/x.png"))
                .isEqualTo("type=beg, case=sensitive, found=yes, idx=tree, key=\"/img\", value=\"img\", type=\"str\"\n\n");
        assertThat(cli("get acl " + blocked + " /blocked/x"))
                .isEqualTo("type=beg, case=sensitive, match=yes, idx=tree, pattern=\"/blocked\"\n\n");
        assertThat(cli("add acl " + map + " /x"))
                .isEqualTo("This ACL is shared with a map containing samples. You must use the command 'add map' to add values.\n\n");
        assertThat(cli("show map #999")).isEqualTo("Unknown map identifier. Please use #<id> or <file>.\n\n");
        assertThat(cli("show acl " + map)).isEqualTo("Unknown ACL identifier. Please use #<id> or <file>.\n\n");
        assertThat(cli("add map " + map + " <<\n/css css\n/js\n")).isEqualTo("Missing value for key '/js'.\n\n");
        assertThat(cli("show map " + map)).endsWith(" /css css\n\n");
        assertThat(cli("del map " + map + " /css")).isEqualTo("\n");
    }

    @Test
    void requestsKeepBeingRoutedWhileTheMapIsRebuiltAndCleared() throws Exception {
        // The tags map, so that the routing map stays as the other tests expect.
        String map = tags.toString();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        AtomicInteger requests = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long deadline = System.nanoTime() + 20_000_000_000L;
        Thread load = Thread.ofPlatform().start(() -> {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                while (requests.get() < 20_000 && System.nanoTime() < deadline && !Thread.currentThread().isInterrupted()) {
                    HttpClientConn.Response r = c.exchange(get("/img/a.png"));
                    seen.add(r.status() + " " + r.bodyText());
                    requests.incrementAndGet();
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        List<String> answers = new ArrayList<>();
        for (int round = 0; round < 2; round++) {
            // 20000 entries in payloads that fit HAProxy's buffer (it refuses a longer one).
            for (int chunk = 0; chunk < 40; chunk++) {
                StringBuilder payload = new StringBuilder();
                for (int i = chunk * 500; i < (chunk + 1) * 500; i++) {
                    payload.append("/k").append(i).append(" v").append(i).append('\n');
                }
                answers.add(cli("add map " + map + " <<\n" + payload));
            }
            answers.add(cli("clear map " + map));
            answers.add(cli("add map " + map + " /img img"));
        }
        load.interrupt();
        load.join(30_000);
        assertThat(failure.get()).isNull();
        assertThat(answers).containsOnly("\n");
        assertThat(requests.get()).isGreaterThan(0);
        assertThat(seen).contains("200 web:img").isSubsetOf("200 web:img", "200 web"); // each saw a whole map, old or new
        assertThat(cli("get map " + map + " /k1")).isEqualTo("type=beg, case=sensitive, found=no\n\n");
        assertThat(cli("show map " + map)).matches("0x[0-9a-f]+ /img img\n\n");
        assertThat(cli("add map " + map + " /api api")).isEqualTo("\n");
    }
}
