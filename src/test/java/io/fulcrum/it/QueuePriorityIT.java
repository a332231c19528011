package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * set-priority-class and set-priority-offset over real sockets: with the only server busy, waiting requests are
 * served by class (lower first), then by arrival shifted by their offset; prio_class and prio_offset read what
 * the rules set. Each request joins the queue only once the previous one is counted in it (show stat), so the
 * order does not depend on timing. Also against haproxy (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class QueuePriorityIT {

    @Test
    void waitersAreServedByPriority() throws Exception {
        int fe = freePort();
        Path sock = Files.createTempDirectory("fulcrum-prio").resolve("s.sock");
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch holding = new CountDownLatch(1);
        List<String> served = new CopyOnWriteArrayList<>();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                served.add(x.target());
                if (x.target().equals("/hold")) {
                    holding.countDown();
                    release.await(30, TimeUnit.SECONDS);
                }
                x.reply(200, x.head.get("x-prio"));
            });
             FulcrumProcess proxy = TcpProxyKit.serve("""
                     global
                         stats socket %s level admin
                     defaults
                         mode http
                         timeout client 30s
                         timeout server 30s
                         timeout connect 5s
                         timeout queue 30s
                     frontend fe
                         bind 127.0.0.1:%d
                         default_backend be
                     backend be
                         http-request set-priority-class req.hdr(x-class) if { req.hdr(x-class) -m found }
                         http-request set-priority-offset req.hdr(x-offset) if { req.hdr(x-offset) -m found }
                         http-request set-header x-prio "%%[prio_class] %%[prio_offset]"
                         server s1 127.0.0.1:%d maxconn 1
                     """.formatted(sock, fe, origin.port()), fe)) {
            List<CompletableFuture<String>> answers = new ArrayList<>();
            answers.add(send(fe, "/hold", ""));
            assertThat(holding.await(20, TimeUnit.SECONDS)).isTrue();
            String[][] waiters = {
                    {"/a", ""},
                    {"/b", "x-class: -1\r\n"},
                    {"/c", "x-offset: -5000\r\n"},
                    {"/d", "x-class: 1\r\nx-offset: -524288\r\n"},
                    {"/e", ""},
                    {"/f", "x-class: 5000\r\n"}};
            for (int i = 0; i < waiters.length; i++) {
                answers.add(send(fe, waiters[i][0], waiters[i][1]));
                awaitQueued(sock, i + 1);
            }
            release.countDown();
            List<String> bodies = new ArrayList<>();
            for (CompletableFuture<String> a : answers) {
                bodies.add(a.get(30, TimeUnit.SECONDS));
            }
            assertThat(served).containsExactly("/hold", "/b", "/c", "/a", "/e", "/d", "/f");
            assertThat(bodies).containsExactly("0 0", "0 0", "-1 0", "0 -5000", "1 -524287", "0 0", "2047 0");
        }
    }

    /** One request on its own connection, answered in the background: its body. */
    private static CompletableFuture<String> send(int fe, String path, String headers) {
        return CompletableFuture.supplyAsync(() -> {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                return c.exchange("GET " + path + " HTTP/1.1\r\nHost: x\r\n" + headers + "\r\n").bodyText();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, Thread::startVirtualThread);
    }

    /** Waits until the backend's queue holds {@code n} requests (bounded). */
    private static void awaitQueued(Path sock, int n) throws Exception {
        long end = System.nanoTime() + 20_000_000_000L;
        String q = "";
        while (System.nanoTime() < end) {
            q = StatsIT.rows(CliClient.send(sock, "show stat")).get("be/BACKEND").get("qcur");
            if (q.equals(String.valueOf(n))) {
                return;
            }
            Thread.sleep(20);
        }
        assertThat(q).as("requests in the queue").isEqualTo(String.valueOf(n));
    }
}
