package io.fulcrum.it;

import io.fulcrum.it.HttpClientConn.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configurations shipped in examples/ do what their comments say. Each runs as written, with its
 * ports moved to free ones.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ExamplesIT {

    private static String example(String name, int... ports) throws Exception {
        String cfg = Files.readString(Path.of("examples", name));
        int[] shipped = {8080, 9001, 9002};
        for (int i = 0; i < ports.length; i++) {
            cfg = cfg.replace("127.0.0.1:" + shipped[i], "127.0.0.1:" + ports[i]);
        }
        return cfg;
    }

    @Test
    void quickstartBalancesItsOwnDemoServersAndAppliesItsRules() throws Exception {
        int fe = freePort();
        int s1 = freePort();
        int s2 = freePort();
        try (FulcrumProcess proxy = serve(example("quickstart.cfg", fe, s1, s2), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Response a = c.exchange(get("/hello"));
            Response b = c.exchange(get("/hello"));
            assertThat(a.status()).isEqualTo(200);
            assertThat(a.bodyText() + b.bodyText())
                    .contains("Hello from demo server 1: you asked for /hello\n", "Hello from demo server 2: you asked for /hello\n");
            assertThat(a.get("x-served-by")).isIn("s1", "s2");
            assertThat(c.exchange(get("/admin/x")).status()).isEqualTo(403);
            Response r = c.exchange(get("/old/page"));
            assertThat(r.status()).isEqualTo(302);
            assertThat(r.get("location")).isEqualTo("/new/page");
        }
    }
}
