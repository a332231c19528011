package io.fulcrum.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.readToEof;
import static org.assertj.core.api.Assertions.assertThat;

/** What the resolvers ITs share: a DNS stub, a CLI socket path and a frontend port per test, and fetching through it. */
abstract class WithDnsStub {
    Path cli;
    int fe;
    DnsStub dns;

    @BeforeEach
    void startStub() throws Exception {
        cli = Files.createTempDirectory("fulcrum-cli").resolve("stats.sock");
        fe = freePort();
        dns = DnsStub.start();
    }

    @AfterEach
    void stopStub() throws Exception {
        dns.close();
    }

    /** The answer of the server, polled: a change of state is logged just before the load balancer sees it. */
    static void awaitFetch(int fe, String expected) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        String got = fetch(fe);
        while (!got.equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(50);
            got = fetch(fe);
        }
        assertThat(got).isEqualTo(expected);
    }

    static String fetch(int fe) throws Exception {
        try (Socket s = connect(fe)) {
            return readToEof(s, 100);
        }
    }
}
