package io.fulcrum.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The TLS tunables and bind options seen by openssl s_client: the ClientHello capture and its fetches
 * ({@code tune.ssl.capture-buffer-size}, {@code ssl_fc_cipherlist_*}...), {@code tune.ssl.lifetime} as the tickets'
 * lifetime hint, {@code tune.ssl.cachesize 0}, {@code tune.ssl.maxrecord} as the size of the records, {@code prefer-client-ciphers} and
 * {@code ecdhe}. Expected values are haproxy 2.6's for the same client (run with -Dit.proxy=haproxy).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TlsTuningIT {
    private static Path dir;
    private static int plain;
    private static int serverOrder;
    private static int clientOrder;
    private static FulcrumProcess proxy;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("fulcrum-tlstune");
        String crt = TlsKit.selfSigned(dir, "a", "a.example.com").toString();
        Files.writeString(dir.resolve("big.txt"), "x".repeat(3000));
        plain = freePort();
        serverOrder = freePort();
        clientOrder = freePort();
        String ciphers = "ciphers ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-AES128-GCM-SHA256";
        proxy = TcpProxyKit.serve("""
                global
                    tune.ssl.capture-buffer-size 10
                    tune.ssl.lifetime 123
                    tune.ssl.maxrecord 1000
                    tune.ssl.cachesize 0
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d ssl crt %s
                    bind 127.0.0.1:%d ssl crt %s %s
                    bind 127.0.0.1:%d ssl crt %s %s prefer-client-ciphers ecdhe secp384r1 allow-0rtt
                    http-request return status 200 content-type text/plain file %s if { path /big }
                    http-request return status 200 content-type text/plain lf-string "bin=%%[ssl_fc_cipherlist_bin,hex]\\nhex1=%%[ssl_fc_cipherlist_hex(1)]\\nstr=%%[ssl_fc_cipherlist_str]\\nxxh=%%[ssl_fc_cipherlist_xxh]\\next=%%[ssl_fc_extlist_bin,hex]\\nec=%%[ssl_fc_eclist_bin,hex]\\necf=%%[ssl_fc_ecformats_bin,hex]\\nhid=%%[ssl_fc_protocol_hello_id]\\n"
                """.formatted(plain, crt, serverOrder, crt, ciphers, clientOrder, crt, ciphers, dir.resolve("big.txt")), clientOrder);
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
    }

    private static String sClient(int port, String path, String... args) throws Exception {
        String out = TlsKit.sClient(dir, port, "GET " + path + " HTTP/1.0\r\n\r\n", args);
        assertThat(out).contains("HTTP/1.1 200 OK");
        return out;
    }

    @Test
    void theClientHelloIsCapturedWithinTheBuffer() throws Exception {
        String out = sClient(plain, "/", "-cipher", "ECDHE-RSA-AES128-GCM-SHA256", "-ciphersuites", "TLS_AES_128_GCM_SHA256",
                "-curves", "X25519:P-256");
        // 6 bytes of suites, then 2 extension types fill the 10 bytes: no room for the groups and formats.
        assertThat(out).contains("bin=1301C02F00FF\nhex1=1301C02F00FF\n"
                + "str=TLS_AES_128_GCM_SHA256,ECDHE-RSA-AES128-GCM-SHA256,TLS_EMPTY_RENEGOTIATION_INFO_SCSV\n"
                + "xxh=7358250087558248774\next=000B000A\nec=\necf=\nhid=771\n");
    }

    @Test
    void theLifetimeIsTheTicketsHint() throws Exception {
        // (BoringSSL's hint may have counted a second of the session's age: 122. TLS 1.3 tickets keep BoringSSL's
        // 48 hours, which tcnative cannot change: docs/differences.md.)
        assertThat(sClient(plain, "/", "-tls1_2")).containsPattern("TLS session ticket lifetime hint: 12[23] \\(seconds\\)");
    }

    /** Without the session cache, a TLS 1.2 session is resumed by its ticket only. */
    @Test
    void noCacheNoResumptionById() throws Exception {
        assertThat(sClient(plain, "/", "-tls1_2", "-no_ticket", "-sess_out", "byid")).contains("New, TLSv1.2");
        if (Files.exists(dir.resolve("byid"))) { // (without a session id to come back with, s_client saves nothing: HAProxy's case)
            assertThat(sClient(plain, "/", "-tls1_2", "-no_ticket", "-sess_in", "byid")).contains("New, TLSv1.2");
        }
        assertThat(sClient(plain, "/", "-tls1_2", "-sess_out", "ticket")).contains("New, TLSv1.2");
        assertThat(sClient(plain, "/", "-tls1_2", "-sess_in", "ticket")).contains("Reused, TLSv1.2");
    }

    @Test
    void recordsCarryAtMostMaxrecordBytes() throws Exception {
        String out = sClient(plain, "/big", "-tls1_3", "-msg");
        // Each record of application data read: 17 03 03 <length>, its inner type 17 (the handshake's are 16); TLS 1.3
        // adds 17 bytes to the data (the type and the AEAD tag).
        Matcher m = Pattern.compile("<<< TLS 1.2, RecordHeader \\[length 0005\\]\n    17 03 03 ([0-9a-f]{2}) ([0-9a-f]{2})\n"
                + "<<< TLS 1.3, InnerContent \\[length 0001\\]\n    17\n").matcher(out);
        List<Integer> sizes = new ArrayList<>();
        while (m.find()) {
            sizes.add(Integer.parseInt(m.group(1) + m.group(2), 16));
        }
        assertThat(sizes).isNotEmpty().allMatch(n -> n <= 1017).contains(1017);
    }

    @Test
    void theServerOrderWinsUnlessClientCiphersArePreferred() throws Exception {
        String[] offer = {"-tls1_2", "-cipher", "ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384"};
        assertThat(sClient(serverOrder, "/", offer)).contains("Cipher is ECDHE-RSA-AES256-GCM-SHA384");
        assertThat(sClient(clientOrder, "/", offer)).contains("Cipher is ECDHE-RSA-AES128-GCM-SHA256");
    }

    @Test
    void ecdheNamesTheOneCurve() throws Exception {
        assertThat(sClient(serverOrder, "/", "-tls1_2")).contains("Server Temp Key: X25519");
        for (String v : new String[] {"-tls1_2", "-tls1_3"}) {
            assertThat(sClient(clientOrder, "/", v)).as(v).contains("Server Temp Key: ECDH, secp384r1, 384 bits");
        }
    }
}
