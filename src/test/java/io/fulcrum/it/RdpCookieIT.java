package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * RDP in {@code mode tcp}: the connection request's cookie read while {@code tcp-request inspect-delay} holds it
 * ({@code req.rdp_cookie}, the {@code RDP_COOKIE} ACL), {@code balance rdp-cookie} sending each user to the same
 * server, and {@code persist rdp-cookie} sending a connection to the server its "msts" cookie names. Also passes
 * against HAProxy (-Dit.proxy=haproxy).
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RdpCookieIT {

    /** An RDP connection request (TPKT, X.224 CR) carrying "Cookie: {cookie}\r\n". */
    static byte[] connectionRequest(String cookie) {
        byte[] c = ("Cookie: " + cookie + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int length = 11 + c.length;
        b.writeBytes(new byte[] {3, 0, (byte) (length >> 8), (byte) length, (byte) (6 + c.length), (byte) 0xe0, 0, 0, 0, 0, 0});
        b.writeBytes(c);
        return b.toByteArray();
    }

    /** The name of the server a connection sending {@code cookie} reached. */
    private static String serverFor(int fe, String cookie) throws Exception {
        try (Socket s = TcpProxyKit.connect(fe)) {
            s.getOutputStream().write(connectionRequest(cookie));
            s.getOutputStream().flush();
            return TcpProxyKit.readToEof(s, 100);
        }
    }

    private static String config(int fe, String backend, Origin... servers) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < servers.length; i++) {
            b.append("    server s").append(i + 1).append(" 127.0.0.1:").append(servers[i].port()).append('\n');
        }
        return """
                defaults
                    mode tcp
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                listen rdp
                    bind 127.0.0.1:%d
                    tcp-request inspect-delay 5s
                    tcp-request content accept if RDP_COOKIE
                %s
                %s""".formatted(fe, backend.indent(4), b);
    }

    @Test
    void balanceRdpCookieKeepsEachUserOnOneServer() throws Exception {
        int fe = freePort();
        try (Origin s1 = Origin.start(s -> TcpProxyKit.send(s, "s1"));
             Origin s2 = Origin.start(s -> TcpProxyKit.send(s, "s2"));
             Origin s3 = Origin.start(s -> TcpProxyKit.send(s, "s3"));
             FulcrumProcess proxy = TcpProxyKit.serve(config(fe, "balance rdp-cookie", s1, s2, s3), fe)) {
            Set<String> used = new HashSet<>();
            for (int user = 0; user < 12; user++) {
                String first = serverFor(fe, "mstshash=user" + user);
                for (int again = 0; again < 3; again++) {
                    assertThat(serverFor(fe, "mstshash=user" + user)).as("user" + user).isEqualTo(first);
                }
                used.add(first);
            }
            assertThat(used).as("users spread over the servers").hasSizeGreaterThan(1);
        }
    }

    /** HAProxy's ACL keywords req_rdp_cookie and req_rdp_cookie_cnt, req.rdp_cookie's with their matching methods. */
    @Test
    void rdpCookieAclKeywords() throws Exception {
        int fe = freePort();
        try (Origin s1 = Origin.start(s -> TcpProxyKit.send(s, "s1"));
             Origin s2 = Origin.start(s -> TcpProxyKit.send(s, "s2"));
             FulcrumProcess proxy = TcpProxyKit.serve(config(fe, """
                     balance roundrobin
                     use-server s2 if { req_rdp_cookie(mstshash) -m beg bo }
                     use-server s1 if { req_rdp_cookie_cnt(mstshash) 1 }""", s1, s2), fe)) {
            Set<String> others = new HashSet<>();
            for (int i = 0; i < 3; i++) {
                assertThat(serverFor(fe, "mstshash=bob")).isEqualTo("s2");
                assertThat(serverFor(fe, "mstshash=alice")).isEqualTo("s1");
                others.add(serverFor(fe, "msts=1.2.0000"));
            }
            assertThat(others).as("no mstshash cookie: roundrobin").containsExactlyInAnyOrder("s1", "s2");
        }
    }

    @Test
    void persistRdpCookieGoesToTheServerItNames() throws Exception {
        int fe = freePort();
        try (Origin s1 = Origin.start(s -> TcpProxyKit.send(s, "s1"));
             Origin s2 = Origin.start(s -> TcpProxyKit.send(s, "s2"));
             FulcrumProcess proxy = TcpProxyKit.serve(config(fe, "balance roundrobin\npersist rdp-cookie", s1, s2), fe)) {
            // 127.0.0.1 as the little-endian integer of its bytes in network order; the port likewise on 16 bits
            long addr = 0x0100007fL;
            int port = s2.port();
            String cookie = "msts=" + addr + "." + ((port & 0xff) << 8 | port >> 8) + ".0000";
            for (int i = 0; i < 4; i++) {
                assertThat(serverFor(fe, cookie)).isEqualTo("s2");
            }
            Set<String> others = new HashSet<>();
            for (int i = 0; i < 4; i++) {
                others.add(serverFor(fe, "msts=1.2.0000"));
            }
            assertThat(others).as("no such server: roundrobin").containsExactlyInAnyOrder("s1", "s2");
        }
    }
}
