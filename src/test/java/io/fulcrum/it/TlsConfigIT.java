package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bad TLS configuration is refused with HAProxy's words at the bind line (as {@code haproxy -c} prints them, checked
 * with HAProxy 2.6): missing or broken certificate files, a key that is not the certificate's, bad option values.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TlsConfigIT {
    @TempDir
    Path dir;

    private FulcrumRun check(String... binds) throws Exception {
        StringBuilder cfg = new StringBuilder("defaults\n    mode http\n    timeout client 1s\n    timeout server 1s\n"
                + "    timeout connect 1s\nfrontend f\n");
        for (String b : binds) {
            cfg.append("    bind ").append(b).append('\n');
        }
        Files.writeString(dir.resolve("t.cfg"), cfg.toString());
        return FulcrumRun.in(dir, "-c", "-f", "t.cfg");
    }

    @Test
    void certificateFiles() throws Exception {
        TlsKit.selfSigned(dir, "good", "good.test");
        TlsKit.selfSigned(dir, "other", "other.test");
        Files.writeString(dir.resolve("bad.pem"), "garbage\n");
        Files.copy(dir.resolve("good.crt"), dir.resolve("nokey.pem"));
        Files.writeString(dir.resolve("mismatch.pem"), Files.readString(dir.resolve("good.crt")) + Files.readString(dir.resolve("other.key")));
        FulcrumRun r = check(":8443 ssl crt missing.pem", ":8444 ssl crt bad.pem", ":8445 ssl crt nokey.pem",
                ":8446 ssl crt mismatch.pem", ":8447 ssl crt good.pem");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.maskedStderr()).contains(
                "[ALERT]    (PID) : config : parsing [t.cfg:7] : 'bind :8443' in section 'frontend' : unable to stat SSL certificate"
                        + " from file 'missing.pem' : No such file or directory.\n",
                "[ALERT]    (PID) : config : parsing [t.cfg:8] : 'bind :8444' in section 'frontend' : unable to load certificate"
                        + " from file 'bad.pem'.\n",
                "[ALERT]    (PID) : config : parsing [t.cfg:9] : 'bind :8445' in section 'frontend' : No Private Key found in"
                        + " 'nokey.pem.key'.\n",
                "[ALERT]    (PID) : config : parsing [t.cfg:10] : 'bind :8446' in section 'frontend' : inconsistencies between"
                        + " private key and certificate loaded 'mismatch.pem'.\n")
                .doesNotContain("t.cfg:11");
        // The key may sit beside the certificate, in <file>.key.
        Files.copy(dir.resolve("good.key"), dir.resolve("nokey.pem.key"));
        assertThat(check(":8445 ssl crt nokey.pem").exit()).isZero();
    }

    /**
     * A certificate's name is crt-base, a slash and the name as written: a trailing slash after a file is refused
     * as stat() refuses it, a crt-list naming a directory reads as empty, and a crt-list's own name is not under
     * crt-base (haproxy 2.6's messages).
     */
    @Test
    void certificatePathsAsWritten() throws Exception {
        Files.createDirectories(dir.resolve("sub"));
        TlsKit.selfSigned(dir.resolve("sub"), "a", "a.test");
        Files.writeString(dir.resolve("list.txt"), "sub/a.pem\n");
        Files.writeString(dir.resolve("t.cfg"), "global\n    crt-base " + dir + "/\ndefaults\n    mode http\n    timeout client 1s\n"
                + "frontend f\n    bind :8443 ssl crt sub/a.pem/\n    bind :8444 ssl crt nope/\n    bind :8445 ssl crt-list " + dir.resolve("sub")
                + "\n    bind :8446 ssl crt-list list.txt\n    bind :8447 ssl crt-list " + dir.resolve("list.txt") + " crt ./sub//a.pem\n");
        FulcrumRun r = FulcrumRun.in(dir.resolve("sub"), "-c", "-f", "../t.cfg");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.maskedStderr()).contains(
                "parsing [../t.cfg:7] : 'bind :8443' in section 'frontend' : unable to stat SSL certificate from file '" + dir
                        + "//sub/a.pem/' : Not a directory.\n",
                "parsing [../t.cfg:8] : 'bind :8444' in section 'frontend' : unable to stat SSL certificate from file '" + dir
                        + "//nope/' : No such file or directory.\n",
                "config : Proxy 'f': no SSL certificate specified for bind ':8445' at [../t.cfg:9] (use 'crt').\n",
                "parsing [../t.cfg:10] : 'bind :8446' in section 'frontend' : 'crt-list' : cannot open file 'list.txt' : No such file or"
                        + " directory\n")
                .doesNotContain("t.cfg:11");
    }

    /** An option's error on a crt-list line is told without the line's place, as haproxy 2.6 tells it. */
    @Test
    void crtListOptionErrors() throws Exception {
        TlsKit.selfSigned(dir, "good", "good.test");
        Files.writeString(dir.resolve("verify.txt"), "good.pem [verify bogus] x.test\n");
        Files.writeString(dir.resolve("version.txt"), "good.pem [ssl-min-ver TLSv9] x.test\n");
        FulcrumRun r = check(":8443 ssl crt-list verify.txt", ":8444 ssl crt-list version.txt");
        assertThat(r.maskedStderr()).contains(
                "parsing [t.cfg:7] : 'bind :8443' in section 'frontend' : 'crt-list' : 'verify' : unknown verify method 'bogus', only"
                        + " 'none', 'optional', and 'required' are supported\n",
                "parsing [t.cfg:8] : 'bind :8444' in section 'frontend' : 'crt-list' : 'TLSv9' : unknown ssl/tls version\n");
    }

    /** A certificate out of its dates is loaded with a warning (HAProxy 2.6 says nothing; issue 8 asks for one). */
    @Test
    void expiredCertificateWarns() throws Exception {
        TlsKit.authority(dir, "ca");
        Files.writeString(dir.resolve("index.txt"), "");
        Files.writeString(dir.resolve("serial"), "1000\n");
        Files.writeString(dir.resolve("dates.cnf"), """
                [ca]
                default_ca = test
                [test]
                database = index.txt
                serial = serial
                new_certs_dir = .
                default_md = sha256
                policy = any
                [any]
                commonName = supplied
                """);
        for (String[] c : new String[][] {{"old", "20200101000000Z", "20200131000000Z"}, {"future", "20990101000000Z", "20991231000000Z"}}) {
            TlsKit.run(dir, "", "openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", c[0] + ".key", "-subj", "/CN=" + c[0] + ".test",
                    "-out", c[0] + ".csr");
            TlsKit.run(dir, "", "openssl", "ca", "-batch", "-notext", "-config", "dates.cnf", "-keyfile", "ca.key", "-cert", "ca.pem",
                    "-in", c[0] + ".csr", "-out", c[0] + ".crt", "-startdate", c[1], "-enddate", c[2]);
            Files.writeString(dir.resolve(c[0] + ".pem"), Files.readString(dir.resolve(c[0] + ".crt")) + Files.readString(dir.resolve(c[0] + ".key")));
        }
        FulcrumRun r = check(":8443 ssl crt old.pem", ":8444 ssl crt future.pem");
        assertThat(r.exit()).isZero();
        assertThat(r.maskedStderr()).contains(
                "[WARNING]  (PID) : config : Loading 'old.pem': the certificate expired on Jan 31 00:00:00 2020 GMT; it is served all the same.\n",
                "[WARNING]  (PID) : config : Loading 'future.pem': the certificate is not valid before Jan  1 00:00:00 2099 GMT; it is served"
                        + " all the same.\n");
        TlsKit.selfSigned(dir, "good", "good.test");
        assertThat(check(":8443 ssl crt good.pem").maskedStderr()).doesNotContain("Loading");
    }

    /** npn (bind, server, crt-list line) is refused with a message naming alpn. */
    @Test
    void npnIsRefused() throws Exception {
        TlsKit.selfSigned(dir, "good", "good.test");
        Files.writeString(dir.resolve("t.cfg"), "defaults\n    mode http\n    timeout client 1s\nbackend b\n"
                + "    server s 127.0.0.1:1 ssl verify none npn http/1.1\nfrontend f\n    bind :8443 ssl crt good.pem npn http/1.1\n");
        assertThat(FulcrumRun.in(dir, "-c", "-f", "t.cfg").maskedStderr()).contains(
                "config : [t.cfg:5] : 'server b/s' : 'npn' : Fulcrum does not offer NPN (replaced by ALPN); use 'alpn' instead\n",
                "parsing [t.cfg:7] : 'bind :8443' in section 'frontend' : 'npn' : Fulcrum does not offer NPN (replaced by ALPN);"
                        + " use 'alpn' instead\n");
    }

    @Test
    void optionValues() throws Exception {
        TlsKit.selfSigned(dir, "good", "good.test");
        FulcrumRun r = check(":8445 ssl crt good.pem ssl-min-ver TLSv9", ":8448 ssl crt good.pem alpn ,");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.maskedStderr()).contains(
                "[ALERT]    (PID) : config : parsing [t.cfg:7] : 'bind :8445' in section 'frontend' : 'TLSv9' : unknown ssl/tls version\n",
                "[ALERT]    (PID) : config : parsing [t.cfg:8] : 'bind :8448' in section 'frontend' : 'alpn' : missing the"
                        + " comma-delimited ALPN protocol suite\n");
        // Found once the whole file is read, as HAProxy does.
        r = check(":8443 ssl", ":8444 ssl crt good.pem ciphers FOO", ":8446 ssl crt good.pem curves FOO",
                ":8447 ssl crt good.pem ciphersuites FOO");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.maskedStderr()).contains(
                "[ALERT]    (PID) : config : Proxy 'f': no SSL certificate specified for bind ':8443' at [t.cfg:7] (use 'crt').\n",
                "[ALERT]    (PID) : config : Proxy 'f': unable to set SSL cipher list to 'FOO' for bind ':8444' at [t.cfg:8].\n",
                "[ALERT]    (PID) : config : Proxy 'f': unable to set SSL curves list to 'FOO' for bind ':8446' at [t.cfg:9].\n",
                "[ALERT]    (PID) : config : Proxy 'f': unable to set TLS 1.3 cipher suites to 'FOO' for bind ':8447' at [t.cfg:10].\n");
    }

    @Test
    void ticketKeysFiles() throws Exception {
        TlsKit.selfSigned(dir, "good", "good.test");
        java.util.function.IntFunction<String> key = n -> java.util.Base64.getEncoder().encodeToString(new byte[n]);
        String k = key.apply(48);
        Files.writeString(dir.resolve("two.txt"), k + "\n" + k + "\n");
        Files.writeString(dir.resolve("bad.txt"), k + "\nnot*base64\n" + k + "\n");
        Files.writeString(dir.resolve("mixed.txt"), k + "\n" + key.apply(40) + "\n" + k + "\n");
        Files.writeString(dir.resolve("blank.txt"), k + "\n" + k + "\n" + k + "\n\n");
        FulcrumRun r = check(":8443 ssl crt good.pem tls-ticket-keys missing.txt", ":8444 ssl crt good.pem tls-ticket-keys two.txt",
                ":8445 ssl crt good.pem tls-ticket-keys bad.txt", ":8446 ssl crt good.pem tls-ticket-keys mixed.txt",
                ":8447 ssl crt good.pem tls-ticket-keys blank.txt");
        assertThat(r.exit()).isEqualTo(1);
        String at = "[ALERT]    (PID) : config : parsing [t.cfg:%d] : 'bind :%d' in section 'frontend' : '%s' : ";
        assertThat(r.maskedStderr()).contains(
                at.formatted(7, 8443, "missing.txt") + "unable to load ssl tickets keys file\n",
                at.formatted(8, 8444, "two.txt") + "please supply at least 3 keys in the tls-tickets-file\n",
                at.formatted(9, 8445, "bad.txt") + "unable to decode base64 key on line 2\n",
                at.formatted(10, 8446, "mixed.txt") + "wrong sized key on line 2\n",
                at.formatted(11, 8447, "blank.txt") + "wrong sized key on line 4\n");
        Files.writeString(dir.resolve("three.txt"), k + "\n" + k + "\n" + k + "\n");
        assertThat(check(":8445 ssl crt good.pem tls-ticket-keys three.txt").exit()).isZero();
        // 80-byte (AES-256) keys are taken too, as HAProxy takes them (docs/differences.md: their strength).
        String k80 = key.apply(80);
        Files.writeString(dir.resolve("aes256.txt"), k80 + "\n" + k80 + "\n" + k80 + "\n");
        assertThat(check(":8443 ssl crt good.pem tls-ticket-keys aes256.txt").exit()).isZero();
    }

    @Test
    void curvesAndTunables() throws Exception {
        TlsKit.selfSigned(dir, "good", "good.test");
        FulcrumRun r = check(":8443 ssl crt good.pem ecdhe foo", ":8444 ssl crt good.pem ecdhe secp384r1 allow-0rtt prefer-client-ciphers");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.maskedStderr())
                .contains("[ALERT]    (PID) : config : Proxy 'f': unable to set elliptic named curve to 'foo' for bind ':8443' at [t.cfg:7].\n")
                .doesNotContain("t.cfg:8");
        Files.writeString(dir.resolve("g.cfg"), """
                global
                    tune.ssl.cachesize -1
                    tune.ssl.lifetime x
                    tune.ssl.lifetime
                    tune.ssl.maxrecord -1
                    tune.ssl.default-dh-param 512
                    tune.ssl.force-private-cache 1
                    tune.ssl.capture-cipherlist-size 10
                    tune.ssl.hard-maxrecord 1000
                    tune.ssl.ssl-ctx-cache-size 10
                """);
        r = FulcrumRun.in(dir, "-c", "-f", "g.cfg");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.maskedStderr()).contains(
                "[ALERT]    (PID) : config : parsing [g.cfg:2] : 'tune.ssl.cachesize' expects a positive numeric value.\n",
                "[ALERT]    (PID) : config : parsing [g.cfg:3] : unexpected character 'x'",
                "[ALERT]    (PID) : config : parsing [g.cfg:4] : 'tune.ssl.lifetime' expects ssl sessions <lifetime> in seconds as argument.\n",
                "[ALERT]    (PID) : config : parsing [g.cfg:5] : 'tune.ssl.maxrecord' expects a positive numeric value.\n",
                "[ALERT]    (PID) : config : parsing [g.cfg:6] : 'tune.ssl.default-dh-param' expects a value >= 1024.\n",
                "[ALERT]    (PID) : config : parsing [g.cfg:7] : 'tune.ssl.force-private-cache' cannot handle unexpected argument '1'.\n",
                "[WARNING]  (PID) : config : parsing [g.cfg:8] : 'tune.ssl.capture-cipherlist-size' is deprecated")
                .doesNotContain("g.cfg:9", "g.cfg:10");
    }
}
