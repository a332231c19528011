package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.HashSet;
import java.util.Set;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bind line's {@code thread} set: its connections are accepted and served by those threads only, as the
 * {@code thread} fetch (0-based) tells; without one, every thread serves. Runs against haproxy too.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BindThreadIT {

    /** The threads that served eight connections of a frontend with {@code options} on its bind line. */
    private static Set<String> threads(String options) throws Exception {
        int fe = freePort();
        String config = "global\n    nbthread 3\n" + HttpKit.config("127.0.0.1:" + fe + " " + options,
                "http-request return status 200 content-type text/plain lf-string \"%[thread]\"", "", 9);
        Set<String> seen = new HashSet<>();
        try (FulcrumProcess proxy = serve(config, fe)) {
            for (int i = 0; i < 8; i++) {
                try (HttpClientConn c = HttpClientConn.open(fe)) {
                    seen.add(c.exchange(get("/")).bodyText());
                }
            }
        }
        return seen;
    }

    @Test
    void aThreadSetServesAlone() throws Exception {
        assertThat(threads("thread 2")).containsExactly("1");
        assertThat(threads("thread 1 thread 3")).containsExactlyInAnyOrder("0", "2");
    }

    @Test
    void withoutASetEveryThreadServes() throws Exception {
        assertThat(threads("")).hasSizeGreaterThan(1);
    }
}
