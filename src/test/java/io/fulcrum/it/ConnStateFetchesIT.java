package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fetches of a connection's and a stream's state: the authority and unique ID TLVs of a PROXY v2 header
 * (fc_pp_authority, fc_pp_unique_id), the connection error codes of connections that reached a stream
 * (fc_err, bc_err and their strings), and the timeouts a stream applies (cur_server_timeout,
 * cur_tunnel_timeout), and the codes of failed connections: the client's in error-log-format lines (PROXY header,
 * TLS handshake), the server's (TLS handshake) in the transaction's log line. Expected values are haproxy 2.6's
 * (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConnStateFetchesIT {

    /** A PROXY v2 header for TCP over IPv4 from 10.0.0.1:1000 to 10.0.0.2:2000, followed by {@code tlvs}. */
    private static byte[] proxyV2(byte[] tlvs) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(HexFormat.of().parseHex("0D0A0D0A000D0A515549540A" + "21" + "11"));
        int len = 12 + tlvs.length;
        b.write(len >> 8);
        b.write(len);
        b.writeBytes(HexFormat.of().parseHex("0A000001" + "0A000002" + "03E8" + "07D0"));
        b.writeBytes(tlvs);
        return b.toByteArray();
    }

    private static byte[] tlv(int type, String value) {
        byte[] v = value.getBytes(StandardCharsets.ISO_8859_1);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(type);
        b.write(v.length >> 8);
        b.write(v.length);
        b.writeBytes(v);
        return b.toByteArray();
    }

    private static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n";
    }

    @Test
    void proxyTlvsErrorsAndCurrentTimeouts() throws Exception {
        int fe = freePort();
        // The origin answers with what the backend's request rules saw.
        try (HttpOrigin origin = HttpOrigin.start(x -> x.reply(200, x.head.get("x-req")));
             FulcrumProcess p = TcpProxyKit.serve("""
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 5s
                    timeout server 5s
                frontend fe
                    bind 127.0.0.1:%d accept-proxy
                    http-request return status 200 content-type text/plain lf-string "[%%[fc_pp_authority]] [%%[fc_pp_unique_id]] %%[fc_err] %%[fc_err_str]" if { path /pp }
                    default_backend b
                backend b
                    timeout server 7s
                    timeout tunnel 11s
                    http-request set-timeout tunnel 13s if { path /set }
                    http-request set-timeout server 9s if { path /set }
                    http-request set-header x-req "%%[cur_server_timeout] %%[cur_tunnel_timeout]"
                    http-response set-header x-t "%%[cur_server_timeout] %%[cur_tunnel_timeout] %%[bc_err] %%[bc_err_str]"
                    server s1 127.0.0.1:%d
                """.formatted(fe, origin.port()), fe)) {
            ByteArrayOutputStream tlvs = new ByteArrayOutputStream();
            tlvs.writeBytes(tlv(0x02, "example.com"));
            tlvs.writeBytes(tlv(0x05, "id-42"));
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.socket.getOutputStream().write(proxyV2(tlvs.toByteArray()));
                assertThat(c.exchange(get("/pp")).bodyText()).isEqualTo("[example.com] [id-42] 0 Success");
                // Before the server connection, a stream has only the timeouts set-timeout gave it.
                HttpClientConn.Response r = c.exchange(get("/"));
                assertThat(r.bodyText()).isEqualTo("0 0");
                assertThat(r.get("x-t")).isEqualTo("7000 11000 0 Success");
                r = c.exchange(get("/set"));
                assertThat(r.bodyText()).isEqualTo("9000 13000");
                assertThat(r.get("x-t")).isEqualTo("9000 13000 0 Success");
            }
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.socket.getOutputStream().write(proxyV2(new byte[0]));
                assertThat(c.exchange(get("/pp")).bodyText()).as("no TLV: no sample").isEqualTo("[] [] 0 Success");
            }
        }
    }

    /** HAProxy's codes and messages of failed connections, as error-log-format and the log line of a 503 show them. */
    @Test
    void failedConnectionsHaveHaproxysErrorCodes(@TempDir Path dir) throws Exception {
        int pp = freePort();
        int tls = freePort();
        int plain = freePort();
        Path cert = TlsKit.selfSigned(dir, "site", "localhost");
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(x -> x.reply(200, "ok"));
             FulcrumProcess p = TcpProxyKit.serve("""
                global
                    log 127.0.0.1:%d format raw local0
                defaults
                    mode http
                    log global
                    timeout connect 2s
                    timeout client 5s
                    timeout server 5s
                    error-log-format "ERR %%[fc_err] %%[fc_err_str]"
                    log-format "OK %%ST %%[fc_err] %%[bc_err] %%[bc_err_str]"
                frontend pp
                    bind 127.0.0.1:%d accept-proxy
                    default_backend b
                frontend tls
                    bind 127.0.0.1:%d ssl crt %s
                    default_backend b
                frontend plain
                    bind 127.0.0.1:%d
                    use_backend tlsb if { path /tls }
                    default_backend b
                backend b
                    server s1 127.0.0.1:%d
                backend tlsb
                    retries 0
                    server s1 127.0.0.1:%d ssl verify none
                """.formatted(logs.port(), pp, tls, cert, plain, origin.port(), origin.port()), plain)) {
            try (HttpClientConn c = HttpClientConn.open(plain)) {
                assertThat(c.exchange(get("/")).status()).isEqualTo(200);
            }
            assertThat(logs.next().trim()).isEqualTo("OK 200 0 0 Success");
            try (HttpClientConn c = HttpClientConn.open(plain)) {
                // A plain HTTP server does not answer a ClientHello with a handshake.
                assertThat(c.exchange(get("/tls")).status()).isEqualTo(503);
            }
            assertThat(logs.next().trim()).isEqualTo("OK 503 0 34 SSL handshake failure");
            rawThenClose(pp, "XXXX garbage\r\n\r\n");
            assertThat(logs.next().trim()).isEqualTo("ERR 15 Received something which does not look like a PROXY protocol header");
            rawThenClose(pp, "PROXY TCP4 1.2.3.4");
            assertThat(logs.next().trim()).isEqualTo("ERR 14 Truncated PROXY protocol header received");
            // A v2 header whose length ends one byte past its last TLV (the 'G' of the request): invalid, not forwarded.
            rawThenClose(pp, new String(HexFormat.of().parseHex(
                    "0d0a0d0a000d0a515549540a211100147f0000017f000001002a053902000431323334"), StandardCharsets.ISO_8859_1)
                    + "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            assertThat(logs.next().trim()).isEqualTo("ERR 16 Received an invalid PROXY protocol header");
            rawThenClose(tls, get("/"));
            assertThat(logs.next().trim()).isEqualTo("ERR 34 SSL handshake failure");
        }
    }

    /** Sends {@code text}, closes its side, and waits for the proxy to close (haproxy may reset). */
    private static void rawThenClose(int port, String text) throws Exception {
        try (Socket s = TcpProxyKit.connect(port)) {
            TcpProxyKit.send(s, text);
            s.shutdownOutput();
            TcpProxyKit.readToEof(s, 100_000);
        } catch (SocketException reset) {
            // closed all the same
        }
    }
}
