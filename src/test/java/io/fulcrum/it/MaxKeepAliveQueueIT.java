package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code max-keep-alive-queue} with {@code option prefer-last-server}: a keep-alive client's next request goes back to
 * its last server even when that one must queue it, unless the server's queue holds the setting's number of
 * requests already: then the algorithm chooses another server. The last server is a maxconn-1 server held by
 * another client's slow request (sent there by use-server). Passes against haproxy ({@code -Dit.proxy=haproxy}; there, prefer-last-server
 * needs the server connection to stay with the client connection: {@code http-reuse never}).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MaxKeepAliveQueueIT {

    private static String secondRequestServer(String setting) throws Exception {
        int fe = freePort();
        CountDownLatch slowArrived = new CountDownLatch(1);
        try (HttpOrigin s1 = HttpOrigin.start(x -> {
                 if (x.target().equals("/slow")) {
                     slowArrived.countDown();
                     Thread.sleep(1500);
                 }
                 x.reply(200, "s1");
             });
             HttpOrigin s2 = HttpOrigin.start(x -> x.reply(200, "s2"));
             FulcrumProcess proxy = TcpProxyKit.serve("""
                     defaults
                         mode http
                         timeout connect 2s
                         timeout client 10s
                         timeout server 10s
                         timeout queue 10s
                     frontend fe
                         bind 127.0.0.1:%d
                         default_backend be
                     backend be
                         balance first
                         option prefer-last-server
                         http-reuse never
                         use-server s1 if { path /slow }
                     %s
                         server s1 127.0.0.1:%d maxconn 1
                         server s2 127.0.0.1:%d
                     """.formatted(fe, setting.indent(4), s1.port(), s2.port()), fe);
             HttpClientConn a = HttpClientConn.open(fe);
             HttpClientConn b = HttpClientConn.open(fe)) {
            assertThat(a.exchange("GET /first HTTP/1.1\r\nHost: x\r\n\r\n").bodyText()).isEqualTo("s1");
            b.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(slowArrived.await(10, TimeUnit.SECONDS)).as("the slow request holds s1's only slot").isTrue();
            String second = a.exchange("GET /second HTTP/1.1\r\nHost: x\r\n\r\n").bodyText();
            assertThat(b.read().bodyText()).isEqualTo("s1");
            return second;
        }
    }

    @Test
    void withoutTheSettingTheRequestWaitsInItsLastServersQueue() throws Exception {
        assertThat(secondRequestServer("")).isEqualTo("s1");
    }

    @Test
    void atTheSettingsQueueLengthAnotherServerTakesTheRequest() throws Exception {
        assertThat(secondRequestServer("max-keep-alive-queue 0")).isEqualTo("s2");
    }
}
