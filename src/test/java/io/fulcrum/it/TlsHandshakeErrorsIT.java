package io.fulcrum.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client handshake that fails is logged with {@code error-log-format}, where {@code fc_err}, {@code ssl_fc_err},
 * {@code ssl_fc_err_str}, {@code ssl_c_err} and {@code ssl_c_ca_err} give why: OpenSSL 3's codes and texts, as
 * HAProxy 2.6 logs them for the same clients (openssl s_client, the JDK's engine, raw sockets); passes with -Dit.proxy=haproxy.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TlsHandshakeErrorsIT {
    private static Path dir;
    private static SyslogListener logs;
    private static FulcrumProcess proxy;
    private static int cipher;
    private static int verify;
    private static int open;
    private static int plain;
    private static int strict;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("fulcrum-handshake-errors");
        Path crt = TlsKit.selfSigned(dir, "site", "localhost");
        Path ca = TlsKit.authority(dir, "ca");
        TlsKit.selfSigned(dir, "stranger", "stranger");
        TlsKit.authority(dir, "other");
        TlsKit.certificate(dir, "foreign", "rsa:2048", "foreign", "other");
        logs = SyslogListener.open();
        cipher = freePort();
        verify = freePort();
        open = freePort();
        plain = freePort();
        strict = freePort();
        int ready = freePort();
        proxy = TcpProxyKit.serve("""
                global
                    log 127.0.0.1:%d format raw local0
                defaults
                    mode http
                    log global
                    timeout client 5s
                    log-format "ft=%%ft %%{+Q}ft"
                    error-log-format "fc_err=%%[fc_err] ssl_fc_err=%%[ssl_fc_err] str=%%[ssl_fc_err_str] c_err=%%[ssl_c_err] ca_err=%%[ssl_c_ca_err] verify=%%[ssl_c_verify] ssl_fc=%%[ssl_fc]"
                frontend fe
                    bind 127.0.0.1:%d ssl crt %s ciphers ECDHE-RSA-AES128-GCM-SHA256 ssl-max-ver TLSv1.2
                    bind 127.0.0.1:%d ssl crt %s ca-file %s verify required
                    bind 127.0.0.1:%d ssl crt %s
                    bind 127.0.0.1:%d ssl crt %s strict-sni
                    http-request return status 200
                frontend plain
                    bind 127.0.0.1:%d
                    http-request return status 200
                frontend ready
                    no log
                    bind 127.0.0.1:%d
                """.formatted(logs.port(), cipher, crt, verify, crt, ca, open, crt, strict, crt, plain, ready), ready);
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
        logs.close();
    }

    private static String sClient(int port, String... args) throws Exception {
        return TlsKit.sClient(dir, port, "", args);
    }

    private static String line() throws InterruptedException {
        return logs.next().trim();
    }

    @Test
    void frontendTransportMarksTls() throws Exception {
        // %ft: the frontend's name, with a '~' when its bind line speaks TLS (inside the quotes of +Q).
        assertThat(TlsKit.sClient(dir, open, "GET / HTTP/1.0\r\n\r\n")).contains("HTTP/1.1 200");
        assertThat(line()).isEqualTo("ft=fe~ \"fe~\"");
        try (Socket s = TcpProxyKit.connect(plain)) {
            s.getOutputStream().write("GET / HTTP/1.0\r\n\r\n".getBytes());
            TcpProxyKit.readToEof(s, 100_000);
        }
        assertThat(line()).isEqualTo("ft=plain \"plain\"");
    }

    @Test
    void noSharedCipher() throws Exception {
        sClient(cipher, "-tls1_2", "-cipher", "AES256-SHA");
        assertThat(line()).isEqualTo("fc_err=34 ssl_fc_err=167772353 str=error:0A0000C1:SSL routines::no shared cipher"
                + " c_err=0 ca_err=0 verify=- ssl_fc=1");
    }

    @Test
    void clientCertificatesThatDoNotVerify() throws Exception {
        for (String v : new String[] {"-tls1_2", "-tls1_3"}) {
            sClient(verify, v, "-cert", "stranger.pem");
            assertThat(line()).as(v).isEqualTo("fc_err=31 ssl_fc_err=167772294 str=error:0A000086:SSL routines::certificate verify failed"
                    + " c_err=18 ca_err=0 verify=- ssl_fc=1");
        }
        sClient(verify, "-tls1_2", "-cert", "foreign.crt", "-key", "foreign.key");
        assertThat(line()).isEqualTo("fc_err=31 ssl_fc_err=167772294 str=error:0A000086:SSL routines::certificate verify failed"
                + " c_err=20 ca_err=0 verify=- ssl_fc=1");
        sClient(verify, "-tls1_2");
        assertThat(line()).isEqualTo("fc_err=34 ssl_fc_err=167772359 str=error:0A0000C7:SSL routines::peer did not return a certificate"
                + " c_err=0 ca_err=0 verify=- ssl_fc=1");
    }

    /** strict-sni and a name no certificate has (or none): a fatal unrecognized_name alert, then the close. */
    @Test
    void strictSniRefusesWithAnAlert() throws Exception {
        for (String sni : new String[] {"nomatch.test", null}) {
            SSLEngine client = SSLContext.getDefault().createSSLEngine(sni, strict);
            client.setUseClientMode(true);
            ByteBuffer hello = ByteBuffer.allocate(client.getSession().getPacketBufferSize());
            client.wrap(ByteBuffer.allocate(0), hello);
            try (Socket s = TcpProxyKit.connect(strict)) {
                s.getOutputStream().write(hello.array(), 0, hello.position());
                assertThat(s.getInputStream().readAllBytes()).as(sni).containsExactly(21, 3, 3, 0, 2, 2, 112);
            }
            assertThat(line()).as(sni).isEqualTo("fc_err=34 ssl_fc_err=167772394 str=error:0A0000EA:SSL routines::callback failed"
                    + " c_err=0 ca_err=0 verify=- ssl_fc=1");
        }
    }

    @Test
    void plainHttpToTheTlsPort() throws Exception {
        sendThenClose("GET / HTTP/1.0\r\n\r\n".getBytes());
        assertThat(line()).isEqualTo("fc_err=34 ssl_fc_err=167772316 str=error:0A00009C:SSL routines::http request"
                + " c_err=0 ca_err=0 verify=- ssl_fc=1");
    }

    @Test
    void clientsThatLeaveDuringTheHandshake() throws Exception {
        // After its ClientHello was answered: a handshake failure without a TLS error.
        SSLEngine client = SSLContext.getDefault().createSSLEngine("localhost", open);
        client.setUseClientMode(true);
        ByteBuffer hello = ByteBuffer.allocate(client.getSession().getPacketBufferSize());
        client.wrap(ByteBuffer.allocate(0), hello);
        try (Socket s = TcpProxyKit.connect(open)) {
            s.getOutputStream().write(hello.array(), 0, hello.position());
            assertThat(s.getInputStream().read()).isEqualTo(22); // the server's handshake record
        }
        assertThat(line()).isEqualTo("fc_err=34 ssl_fc_err=0 str=- c_err=0 ca_err=0 verify=- ssl_fc=1");
        // Within its ClientHello (the client shuts its side only: the proxy must not wait for the timeout).
        sendThenClose(new byte[] {22, 3, 1, 1, 0, 1, 0, 0});
        assertThat(line()).isEqualTo("fc_err=24 ssl_fc_err=0 str=- c_err=0 ca_err=0 verify=- ssl_fc=1");
    }

    /** Sends {@code bytes} to the plain TLS port, closes its side, and waits for the proxy to close (it may reset). */
    private static void sendThenClose(byte[] bytes) throws Exception {
        try (Socket s = TcpProxyKit.connect(open)) {
            s.getOutputStream().write(bytes);
            s.shutdownOutput();
            TcpProxyKit.readToEof(s, 100_000);
        } catch (SocketException reset) {
            // closed all the same
        }
    }
}
