package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The global {@code default-path}: the files a configuration names by a relative path (errorfile, ACL pattern file,
 * map, http-request return file) are found from the configuration file's directory, its parent, or an origin, while
 * the proxy runs from another directory (the project's). Passes against HAProxy 2.6 too (-Dit.proxy=haproxy).
 */
@Timeout(90)
class DefaultPathIT {

    /** A frontend whose every answer comes from a relative file: /a matches acl.lst, answers body.txt, map gives m.map. */
    private static String config(String defaultPath, int port, String prefix) {
        return """
                global
                    default-path %s
                defaults
                    mode http
                    timeout client 10s
                    timeout connect 1s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d
                    acl listed path -f %sacl.lst
                    http-request return status 200 content-type text/plain file %sbody.txt hdr x-m %%[path,map(%sm.map)] if listed
                    errorfile 503 %se503.http
                    default_backend none
                backend none
                """.formatted(defaultPath, port, prefix, prefix, prefix, prefix);
    }

    /** The files of {@link #config} in {@code dir}. */
    private static void files(Path dir) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("acl.lst"), "/a\n");
        Files.writeString(dir.resolve("m.map"), "/a mapped\n");
        Files.writeString(dir.resolve("body.txt"), "from body.txt\n");
        Files.writeString(dir.resolve("e503.http"), "HTTP/1.0 503 Service Unavailable\r\nContent-Type: text/plain\r\n\r\nsorry\n");
    }

    private static FulcrumProcess serve(Path config, int port) throws Exception {
        List<String> args = new ArrayList<>(List.of("-db", "-f", config.toString()));
        FulcrumProcess p = TcpProxyKit.haproxy()
                ? FulcrumProcess.start(List.of(System.getProperty("it.haproxy", "/usr/sbin/haproxy")), args)
                : FulcrumProcess.start(args);
        p.awaitPort(port, java.time.Duration.ofSeconds(60));
        return p;
    }

    /** Serves {@code cfg} (listening on {@code port}) and checks that every answer came from its files. */
    private static void answersFromTheFiles(Path cfg, int port) throws Exception {
        try (FulcrumProcess p = serve(cfg, port); HttpClientConn c = HttpClientConn.open(port)) {
            HttpClientConn.Response r = c.exchange(get("/a"));
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.bodyText()).isEqualTo("from body.txt\n");
            assertThat(r.get("x-m")).isEqualTo("mapped");
            HttpClientConn.Response error = c.exchange(get("/b"));
            assertThat(error.status()).isEqualTo(503);
            assertThat(error.bodyText()).isEqualTo("sorry\n");
        }
    }

    @Test
    void configFindsTheFilesBesideTheConfiguration() throws Exception {
        Path dir = Files.createTempDirectory("fulcrum-dp").resolve("conf");
        files(dir);
        int port = freePort();
        answersFromTheFiles(Files.writeString(dir.resolve("h.cfg"), config("config", port, "")), port);
    }

    @Test
    void parentFindsThemInTheParentOfItsDirectory() throws Exception {
        Path root = Files.createTempDirectory("fulcrum-dp");
        files(root.resolve("maps"));
        int port = freePort();
        Files.createDirectories(root.resolve("conf"));
        answersFromTheFiles(Files.writeString(root.resolve("conf/h.cfg"), config("parent", port, "maps/")), port);
    }

    @Test
    void originFindsThemInTheNamedDirectory() throws Exception {
        Path root = Files.createTempDirectory("fulcrum-dp");
        files(root.resolve("data"));
        int port = freePort();
        answersFromTheFiles(Files.writeString(root.resolve("h.cfg"), config("origin " + root.resolve("data"), port, "")), port);
    }

    /**
     * TLS files by relative names: a bind line's crt, ca-file and crl-file and a server's ca-file and crl-file, all
     * beside the configuration. A client certificate of the CA passes, a revoked one does not; the server line
     * verifies the TLS frontend with the CA (and its CRL) through the plain one.
     */
    @Test
    void tlsAuthorityFilesAreFoundBesideTheConfiguration() throws Exception {
        Path dir = Files.createTempDirectory("fulcrum-dp").resolve("tls");
        Files.createDirectories(dir);
        TlsKit.authority(dir, "ca");
        TlsKit.signed(dir, "server", "server.test");
        TlsKit.signed(dir, "client", "client.test");
        TlsKit.signed(dir, "revoked", "revoked.test");
        TlsKit.crl(dir, "revoked");
        int tls = freePort();
        int plain = freePort();
        Path cfg = Files.writeString(dir.resolve("t.cfg"), """
                global
                    default-path config
                defaults
                    mode http
                    timeout client 10s
                    timeout connect 1s
                    timeout server 10s
                frontend tls
                    bind 127.0.0.1:%d ssl crt server.pem ca-file ca.pem crl-file crl.pem verify optional
                    http-request return status 200 content-type text/plain lf-string "verify=%%[ssl_c_verify] crt=%%[ssl_c_used]"
                frontend plain
                    bind 127.0.0.1:%d
                    default_backend verified
                backend verified
                    server s1 127.0.0.1:%d ssl ca-file ca.pem crl-file crl.pem verify required
                """.formatted(tls, plain, tls));
        try (FulcrumProcess p = serve(cfg, plain)) {
            assertThat(curl(dir, tls, "client")).isEqualTo("verify=0 crt=1 code=200");
            assertThat(curl(dir, tls, "revoked")).endsWith("code=000");
            try (HttpClientConn c = HttpClientConn.open(plain)) {
                HttpClientConn.Response r = c.exchange(get("/"));
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.bodyText()).isEqualTo("verify=0 crt=0");
            }
        }
    }

    /** curl's answer over TLS with {@code cert}'s certificate and key, then its status code (000 when the handshake failed). */
    private static String curl(Path dir, int port, String cert) throws Exception {
        return TlsKit.run(dir, "", "curl", "-sk", "--max-time", "10", "-w", " code=%{http_code}", "--cert", cert + ".crt",
                "--key", cert + ".key", "https://127.0.0.1:" + port + "/");
    }

    /** "current", the default, leaves the names to the working directory: there, the files are not found. */
    @Test
    void currentLeavesTheNamesToTheWorkingDirectory() throws Exception {
        Path dir = Files.createTempDirectory("fulcrum-dp");
        files(dir);
        Path cfg = Files.writeString(dir.resolve("h.cfg"), config("current", freePort(), ""));
        FulcrumRun r = FulcrumRun.in(FulcrumProcess.home(), "-c", "-f", cfg.toString());
        assertThat(r.exit()).as(r.describe()).isEqualTo(1);
        assertThat(r.stderr()).as(r.describe()).contains("failed to open pattern file <acl.lst>");
        // and "config" on the same files is valid
        Files.writeString(cfg, config("config", freePort(), ""));
        FulcrumRun ok = FulcrumRun.in(FulcrumProcess.home(), "-c", "-f", cfg.toString());
        assertThat(ok.exit()).as(ok.describe()).isZero();
    }

    /** HAProxy's messages, taken from haproxy 2.6 -c (its chdir failure names the starting directory). */
    @Test
    void badLinesAreRefusedWithHaproxysWords() throws Exception {
        Path dir = Files.createTempDirectory("fulcrum-dp");
        Path cfg = dir.resolve("e.cfg");
        for (String[] c : new String[][] {
                {"", "missing default-path mode '' for 'default-path', supported modes include 'current', 'config', 'parent', and 'origin'."},
                {"here", "unsupported default-path mode 'here' for 'default-path', supported modes include 'current', 'config', 'parent', and 'origin'."},
                {"origin", "'default-path origin' expects a directory as an argument."},
                {"origin /nonexistent", "couldn't set 'default-path' to origin '/nonexistent': Impossible to get back to directory '"
                        + dir + "': No such file or directory."}}) {
            Files.writeString(cfg, "global\n    default-path " + c[0] + "\n");
            FulcrumRun r = FulcrumRun.in(dir, "-c", "-f", "e.cfg");
            assertThat(r.exit()).as(r.describe()).isEqualTo(1);
            assertThat(r.stderr()).as(r.describe()).contains("parsing [e.cfg:2] : " + c[1]);
        }
    }
}
