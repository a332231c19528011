package io.fulcrum.it;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Client certificates on bind lines ({@code ca-file}, {@code verify}, {@code crl-file}, {@code ca-ignore-err},
 * {@code crt-ignore-err}) and the {@code ssl_c_*} fetches, with curl as the client; crt-list files with their SNI
 * filters and per-line options. Runs against HAProxy too ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TlsClientCertIT {
    static final String FETCHES = "http-request return status 200 content-type text/plain lf-string "
            + "\"used=%[ssl_c_used] verify=%[ssl_c_verify] err=%[ssl_c_err] caerr=%[ssl_c_ca_err] hascrt=%[ssl_fc_has_crt]"
            + " s=%[ssl_c_s_dn] cn=%[ssl_c_s_dn(CN)] i=%[ssl_c_i_dn] ver=%[ssl_c_version] key=%[ssl_c_key_alg] sig=%[ssl_c_sig_alg]"
            + " f=%[ssl_f_s_dn(CN)] v=%[ssl_fc_protocol]\"";

    @TempDir
    Path dir;

    @BeforeEach
    void certificates() throws Exception {
        TlsKit.authority(dir, "ca");
        TlsKit.signed(dir, "server", "server.test");
        TlsKit.signed(dir, "client", "client.test");
        TlsKit.signed(dir, "revoked", "revoked.test");
        TlsKit.selfSigned(dir, "rogue", "rogue.test");
    }

    private String config(int port, String options) {
        return "defaults\n    mode http\n    timeout client 5s\n    timeout server 5s\n    timeout connect 5s\n"
                + "frontend f\n    bind 127.0.0.1:" + port + " ssl crt " + dir.resolve("server.pem") + " " + options + "\n    " + FETCHES + "\n";
    }

    /** curl's answer (or its exit code when it has none) with {@code cert}'s certificate and key, or without one. */
    private String curl(int port, String cert, String... more) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("curl", "-sk", "--max-time", "10", "-w", " code=%{http_code}"));
        if (cert != null) {
            cmd.addAll(List.of("--cert", dir.resolve(cert + ".crt").toString(), "--key", dir.resolve(cert + ".key").toString()));
        }
        cmd.addAll(List.of(more));
        cmd.add("https://127.0.0.1:" + port + "/");
        return TlsKit.run(dir, "", cmd.toArray(String[]::new));
    }

    @Test
    void requiredCertificate() throws Exception {
        int port = freePort();
        try (FulcrumProcess p = serve(config(port, "verify required ca-file " + dir.resolve("ca.pem")), port)) {
            assertThat(curl(port, "client")).isEqualTo("used=1 verify=0 err=0 caerr=0 hascrt=1 s=/CN=client.test cn=client.test"
                    + " i=/CN=ca test CA ver=3 key=rsaEncryption sig=RSA-SHA256 f=server.test v=TLSv1.3 code=200");
            assertThat(curl(port, null)).endsWith("code=000");
            assertThat(curl(port, "rogue")).endsWith("code=000");
        }
    }

    @Test
    void optionalCertificate() throws Exception {
        int port = freePort();
        try (FulcrumProcess p = serve(config(port, "verify optional ca-file " + dir.resolve("ca.pem")), port)) {
            assertThat(curl(port, null)).startsWith("used=0 verify=0 err=0 caerr=0 hascrt=0 s= cn= ").endsWith("code=200");
            assertThat(curl(port, "client")).startsWith("used=1 verify=0 ").endsWith("code=200");
            assertThat(curl(port, "rogue", "-S")).as("OpenSSL's alert for the error").contains("alert unknown ca").endsWith("code=000");
        }
    }

    /** ssl_c_chain_der: what the client sent after its own certificate (OpenSSL's peer chain on a server). */
    @Test
    void clientChain() throws Exception {
        int port = freePort();
        String cfg = config(port, "verify optional ca-file " + dir.resolve("ca.pem"))
                .replace(FETCHES, "http-request return status 200 content-type text/plain lf-string \"chain=%[ssl_c_chain_der,hex]\"");
        Files.writeString(dir.resolve("chained.crt"), Files.readString(dir.resolve("client.crt")) + Files.readString(dir.resolve("ca.pem")));
        String ca = TlsKit.run(dir, "", "openssl", "x509", "-in", "ca.pem", "-outform", "der", "-out", "ca.der");
        byte[] der = Files.readAllBytes(dir.resolve("ca.der"));
        try (FulcrumProcess p = serve(cfg, port)) {
            assertThat(curl(port, "client")).as(ca).isEqualTo("chain= code=200");
            assertThat(curl(port, null, "--cert", dir.resolve("chained.crt").toString(), "--key", dir.resolve("client.key").toString()))
                    .isEqualTo("chain=" + java.util.HexFormat.of().withUpperCase().formatHex(der) + " code=200");
        }
    }

    /**
     * The fields of the client's and the frontend's certificates, as openssl x509 reads them from the same files:
     * serial, validity (ASN.1 UTCTime), SHA-1 of the DER, DER. Over TLS 1.3 HAProxy's {@code ssl_fc_session_id} is 32
     * bytes (OpenSSL's); BoringSSL gives TLS 1.3 sessions no id (docs/differences.md).
     */
    @Test
    void certificateFields() throws Exception {
        int port = freePort();
        String fields = "%[ssl_c_serial,hex] %[ssl_c_notbefore] %[ssl_c_notafter] %[ssl_c_sha1,hex] %[ssl_c_der,hex]"
                + " %[ssl_f_serial,hex] %[ssl_f_notbefore] %[ssl_f_notafter] %[ssl_f_sha1,hex] %[ssl_f_der,hex]"
                + " sid=%[ssl_fc_session_id,hex]";
        String cfg = config(port, "verify required ca-file " + dir.resolve("ca.pem"))
                .replace(FETCHES, "http-request return status 200 content-type text/plain lf-string \"" + fields + "\"");
        String expected = x509("client.crt") + " " + x509("server.crt");
        try (FulcrumProcess p = serve(cfg, port)) {
            String tls12 = curl(port, "client", "--tlsv1.2", "--tls-max", "1.2");
            assertThat(tls12).startsWith(expected + " sid=").matches(".* sid=[0-9A-F]{64} code=200");
            String tls13 = curl(port, "client", "--tlsv1.3");
            assertThat(tls13).startsWith(expected + " sid=").endsWith("code=200");
            assertThat(tls13.replaceAll(".* sid=(\\S*) code=200", "$1")).hasSize(TcpProxyKit.haproxy() ? 64 : 0);
        }
    }

    /** What the ssl_x_ fetches give of a certificate file, by openssl x509: serial, validity, SHA-1, DER (hex). */
    private String x509(String file) throws Exception {
        String out = TlsKit.run(dir, "", "openssl", "x509", "-in", file, "-noout", "-serial", "-startdate", "-enddate",
                "-dateopt", "iso_8601", "-fingerprint", "-sha1");
        TlsKit.run(dir, "", "openssl", "x509", "-in", file, "-outform", "der", "-out", file + ".der");
        String der = java.util.HexFormat.of().withUpperCase().formatHex(Files.readAllBytes(dir.resolve(file + ".der")));
        return field(out, "serial") + " " + utcTime(field(out, "notBefore")) + " " + utcTime(field(out, "notAfter")) + " "
                + field(out, "sha1 Fingerprint").replace(":", "") + " " + der;
    }

    private static String field(String out, String name) {
        return out.lines().filter(l -> l.startsWith(name + "=")).findFirst().orElseThrow().substring(name.length() + 1);
    }

    /** "2026-12-01 16:00:00Z" as ASN.1's UTCTime, "261201160000Z". */
    private static String utcTime(String iso) {
        return iso.substring(2, 4) + iso.substring(5, 7) + iso.substring(8, 10) + iso.substring(11, 13) + iso.substring(14, 16)
                + iso.substring(17, 19) + "Z";
    }

    /**
     * An error that crt-ignore-err or ca-ignore-err lets pass is still told by the fetches, and the verification goes
     * on as OpenSSL's: ssl_c_verify is the last error, a client certificate alone from an unknown CA adding 21
     * (unable to verify the leaf signature) to the 20 of its issuer; each error must be let pass.
     */
    @Test
    void ignoredErrors() throws Exception {
        TlsKit.authority(dir, "other");
        TlsKit.certificate(dir, "foreign", "rsa:2048", "foreign.test", "other");
        Files.writeString(dir.resolve("chained.crt"), Files.readString(dir.resolve("foreign.crt")) + Files.readString(dir.resolve("other.pem")));
        String[] chained = {"--cert", dir.resolve("chained.crt").toString(), "--key", dir.resolve("foreign.key").toString()};
        String verify = "verify required ca-file " + dir.resolve("ca.pem");
        int port = freePort();
        try (FulcrumProcess p = serve(config(port, verify + " crt-ignore-err all ca-ignore-err all"), port)) {
            assertThat(curl(port, "rogue")).startsWith("used=1 verify=18 err=18 caerr=0 ").endsWith("code=200");
            assertThat(curl(port, "foreign")).startsWith("used=1 verify=21 err=20 caerr=0 ").endsWith("code=200");
            // The CA sent above the client's certificate is self-signed and unknown: 19 at depth 1.
            assertThat(curl(port, null, chained)).startsWith("used=1 verify=19 err=0 caerr=19 ").endsWith("code=200");
        }
        port = freePort();
        try (FulcrumProcess p = serve(config(port, verify + " crt-ignore-err 20 ca-ignore-err all"), port)) {
            assertThat(curl(port, "foreign")).endsWith("code=000"); // 21 is not let pass
            assertThat(curl(port, null, chained)).startsWith("used=1 verify=19 err=0 caerr=19 ").endsWith("code=200");
        }
    }

    /**
     * ca-verify-file verifies without being named in the certificate request, no-ca-names names none (what
     * {@code openssl s_client} prints of the request); on a bind line or a crt-list line.
     */
    @Test
    void caNames() throws Exception {
        TlsKit.authority(dir, "other");
        String request = "GET / HTTP/1.0\r\n\r\n";
        String[] withCert = {"-cert", "client.crt", "-key", "client.key"};
        int port = freePort();
        String verify = "verify required ca-file " + dir.resolve("other.pem") + " ca-verify-file " + dir.resolve("ca.pem");
        try (FulcrumProcess p = serve(config(port, verify), port)) {
            String out = TlsKit.sClient(dir, port, request, withCert);
            assertThat(out).contains("Acceptable client certificate CA names\nCN = other test CA\nRequested Signature Algorithms")
                    .contains("verify=0 ");
            assertThat(curl(port, "client")).startsWith("used=1 verify=0 ").endsWith("code=200");
            assertThat(curl(port, "rogue", "-S")).as("OpenSSL's alert for the error").contains("alert unknown ca").endsWith("code=000");
        }
        port = freePort();
        try (FulcrumProcess p = serve(config(port, verify + " no-ca-names"), port)) {
            assertThat(TlsKit.sClient(dir, port, request, withCert)).contains("No client certificate CA names sent").contains("verify=0 ");
            assertThat(curl(port, "client")).startsWith("used=1 verify=0 ").endsWith("code=200");
        }
        Files.writeString(dir.resolve("list.txt"), dir.resolve("server.pem") + " [verify required ca-verify-file " + dir.resolve("ca.pem")
                + " no-ca-names]\n");
        port = freePort();
        try (FulcrumProcess p = serve(config(port, "").replace("crt " + dir.resolve("server.pem"), "crt-list " + dir.resolve("list.txt")), port)) {
            assertThat(TlsKit.sClient(dir, port, request, withCert)).contains("No client certificate CA names sent").contains("verify=0 ");
            assertThat(curl(port, "client")).startsWith("used=1 verify=0 ").endsWith("code=200");
            assertThat(curl(port, null)).endsWith("code=000");
        }
    }

    @Test
    void revokedCertificates() throws Exception {
        TlsKit.crl(dir, "revoked");
        int port = freePort();
        String verify = "verify required ca-file " + dir.resolve("ca.pem") + " crl-file " + dir.resolve("crl.pem");
        try (FulcrumProcess p = serve(config(port, verify), port)) {
            assertThat(curl(port, "client")).startsWith("used=1 verify=0 ").endsWith("code=200");
            assertThat(curl(port, "revoked")).endsWith("code=000");
        }
        port = freePort();
        try (FulcrumProcess p = serve(config(port, verify + " crt-ignore-err 23"), port)) {
            assertThat(curl(port, "revoked")).startsWith("used=1 verify=23 err=23 ").endsWith("code=200");
        }
    }

    /**
     * crl-file: the CAs of the chain are looked up too (HAProxy sets OpenSSL's CRL_CHECK_ALL), each needing its
     * issuer's CRL: a revoked intermediate CA, or one whose issuer's CRL is missing, refuses the client.
     */
    @Test
    void revokedAuthority() throws Exception {
        TlsKit.intermediate(dir, "inter", "ca");
        TlsKit.certificate(dir, "sub", "rsa:2048", "sub.test", "inter");
        Files.writeString(dir.resolve("sub-chain.crt"), Files.readString(dir.resolve("sub.crt")) + Files.readString(dir.resolve("inter.crt")));
        String inter = Files.readString(TlsKit.crlOf(dir, "inter"));
        Files.writeString(dir.resolve("clean.pem"), Files.readString(TlsKit.crl(dir)) + inter);
        Files.writeString(dir.resolve("revoking.pem"), Files.readString(TlsKit.crl(dir, "inter")) + inter);
        Files.writeString(dir.resolve("inter-only.pem"), inter);
        int[] ports = {freePort(), freePort(), freePort(), freePort(), freePort()};
        StringBuilder cfg = new StringBuilder("defaults\n    mode http\n    timeout client 5s\nfrontend f\n");
        String[] crls = {"clean.pem", "revoking.pem", "revoking.pem", "inter-only.pem", "inter-only.pem"};
        for (int i = 0; i < ports.length; i++) {
            cfg.append("    bind 127.0.0.1:").append(ports[i]).append(" ssl crt ").append(dir.resolve("server.pem")).append(" verify required ca-file ")
                    .append(dir.resolve("ca.pem")).append(" crl-file ").append(dir.resolve(crls[i])).append(i % 2 == 0 && i > 0 ? " ca-ignore-err all\n" : "\n");
        }
        cfg.append("    ").append(FETCHES).append("\n");
        String[] sub = {"--cert", dir.resolve("sub-chain.crt").toString(), "--key", dir.resolve("sub.key").toString()};
        try (FulcrumProcess p = serve(cfg.toString(), ports[0])) {
            assertThat(curl(ports[0], null, sub)).startsWith("used=1 verify=0 err=0 caerr=0 ").endsWith("code=200");
            assertThat(curl(ports[1], null, sub)).endsWith("code=000");
            assertThat(curl(ports[2], null, sub)).startsWith("used=1 verify=23 err=0 caerr=23 ").endsWith("code=200");
            assertThat(curl(ports[3], null, sub)).endsWith("code=000");
            assertThat(curl(ports[4], null, sub)).startsWith("used=1 verify=3 err=0 caerr=3 ").endsWith("code=200");
        }
    }

    /** A resumed session keeps its client certificate's verification result (with a ticket or from the cache, TLS 1.2 and 1.3). */
    @Test
    void resumedVerification() throws Exception {
        TlsKit.crl(dir, "revoked");
        int port = freePort();
        String verify = "verify optional ca-file " + dir.resolve("ca.pem") + " crl-file " + dir.resolve("crl.pem") + " crt-ignore-err all";
        try (FulcrumProcess p = serve(config(port, verify).replace("verify=%[ssl_c_verify]", "resumed=%[ssl_fc_is_resumed] verify=%[ssl_c_verify]"), port)) {
            String request = "GET / HTTP/1.0\r\n\r\n";
            for (String v : new String[] {"-tls1_2", "-tls1_3"}) {
                for (String args : new String[] {"-sess_out", "-sess_in"}) {
                    String out = TlsKit.sClient(dir, port, request, v, "-cert", "revoked.crt", "-key", "revoked.key", args, "sess" + v);
                    // Resumed: the session's result, without the errors of a verification (nor a certificate sent).
                    boolean resumed = args.equals("-sess_in");
                    assertThat(out).as(v + args).contains(resumed ? "resumed=1 verify=23 err=0 caerr=0 hascrt=0 " : "resumed=0 verify=23 err=23 caerr=0 hascrt=1 ");
                }
            }
        }
    }

    /** crt-list: SNI filters replace a certificate's names (wildcards, negative filters), options per line. */
    @Test
    void crtList() throws Exception {
        TlsKit.selfSigned(dir, "default", "default.test");
        TlsKit.selfSigned(dir, "old", "old.test");
        TlsKit.selfSigned(dir, "wild", "wild.example", "*.wild.test");
        Files.writeString(dir.resolve("list.txt"), """
                # comment, then an empty line

                %1$s/old.pem [ssl-max-ver TLSv1.2 alpn http/1.1]
                %1$s/wild.pem *.wild.test !no.wild.test
                """.formatted(dir));
        int port = freePort();
        String cfg = "defaults\n    mode http\n    timeout client 5s\n    timeout server 5s\n    timeout connect 5s\n"
                + "frontend f\n    bind 127.0.0.1:" + port + " ssl crt " + dir.resolve("default.pem") + " crt-list "
                + dir.resolve("list.txt") + "\n    http-request return status 200 content-type text/plain lf-string"
                + " \"f=%[ssl_f_s_dn(CN)] v=%[ssl_fc_protocol] alpn=%[ssl_fc_alpn]\"\n";
        try (FulcrumProcess p = serve(cfg, port)) {
            assertThat(sni(port, "old.test")).isEqualTo("f=old.test v=TLSv1.2 alpn=http/1.1 code=200");
            assertThat(sni(port, "x.wild.test")).startsWith("f=wild.example v=TLSv1.3 ");
            assertThat(sni(port, "no.wild.test")).startsWith("f=default.test ");
            assertThat(sni(port, "wild.example")).startsWith("f=default.test "); // the filters replace its names
            assertThat(sni(port, "default.test")).startsWith("f=default.test ");
        }
    }

    private String sni(int port, String name) throws Exception {
        return TlsKit.run(dir, "", "curl", "-sk", "--max-time", "10", "-w", " code=%{http_code}", "--http1.1", "--resolve",
                name + ":" + port + ":127.0.0.1", "https://" + name + ":" + port + "/");
    }

    @Test
    void configErrors() throws Exception {
        Files.writeString(dir.resolve("l.txt"), "server.pem\nserver.pem [foo bar]\n");
        Files.writeString(dir.resolve("l2.txt"), "nope.pem\n");
        Files.writeString(dir.resolve("t.cfg"), "defaults\n    mode http\n    timeout client 1s\nfrontend f\n"
                + "    bind :8443 ssl crt-list l.txt\n    bind :8444 ssl crt-list missing.txt\n    bind :8445 ssl crt-list l2.txt\n"
                + "    bind :8446 ssl crt server.pem verify foo\n");
        FulcrumRun r = FulcrumRun.in(dir, "-c", "-f", "t.cfg");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.maskedStderr()).contains(
                "'bind :8446' in section 'frontend' : 'verify' : unknown verify method 'foo', only 'none', 'optional', and"
                        + " 'required' are supported\n");
        Files.writeString(dir.resolve("t.cfg"), "defaults\n    mode http\n    timeout client 1s\nfrontend f\n"
                + "    bind :8443 ssl crt-list l.txt\n    bind :8444 ssl crt-list missing.txt\n    bind :8445 ssl crt-list l2.txt\n");
        r = FulcrumRun.in(dir, "-c", "-f", "t.cfg");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.maskedStderr()).contains(
                "[ALERT]    (PID) : config : parsing [t.cfg:5] : 'bind :8443' in section 'frontend' : 'crt-list' : parsing [l.txt:2]:"
                        + " unknown ssl keyword foo\n",
                "[ALERT]    (PID) : config : parsing [t.cfg:6] : 'bind :8444' in section 'frontend' : 'crt-list' : cannot open file"
                        + " 'missing.txt' : No such file or directory\n",
                "[ALERT]    (PID) : config : parsing [t.cfg:7] : 'bind :8445' in section 'frontend' : 'crt-list' : unable to stat SSL"
                        + " certificate from file 'nope.pem' : No such file or directory.\n");
        Files.writeString(dir.resolve("t.cfg"), "defaults\n    mode http\n    timeout client 1s\nfrontend f\n"
                + "    bind :8446 ssl crt server.pem verify required\n");
        assertThat(FulcrumRun.in(dir, "-c", "-f", "t.cfg").maskedStderr()).contains(
                "[ALERT]    (PID) : config : Proxy 'f': verify is enabled but no CA file specified for bind ':8446' at [t.cfg:5].\n");
        Files.writeString(dir.resolve("t.cfg"), "defaults\n    mode http\n    timeout client 1s\nfrontend f\n"
                + "    bind :8446 ssl crt server.pem verify required ca-verify-file missing.pem\n");
        assertThat(FulcrumRun.in(dir, "-c", "-f", "t.cfg").maskedStderr()).contains(
                "[ALERT]    (PID) : config : Couldn't open the ca-file 'missing.pem' (No such file or directory).\n",
                "[ALERT]    (PID) : config : parsing [t.cfg:5] : 'bind :8446' in section 'frontend' : 'ca-verify-file' : unable to load"
                        + " missing.pem\n");
    }
}
