package io.fulcrum.it;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * {@code sched-batch} (Fulcrum's own global keyword, on by default): the event loops' threads run under Linux's
 * SCHED_BATCH policy (3; field 41 of {@code /proc/<pid>/task/<tid>/stat}), the process's other threads under the
 * policy it started with (this JVM's, SCHED_OTHER 0 normally); {@code no sched-batch} leaves the loops under that one
 * too. Set in the background after the start,
 * so the test waits for it. Fulcrum only.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SchedBatchIT {
    private static final int SCHED_BATCH = 3;

    @BeforeEach
    void fulcrumOnly() {
        assumeFalse(TcpProxyKit.haproxy(), "sched-batch is Fulcrum's own keyword");
    }

    @Test
    void theLoopsRunUnderSchedBatchByDefault() throws Exception {
        int port = freePort();
        try (FulcrumProcess p = TcpProxyKit.serve(TcpProxyKit.answering(port, "nbthread 2"), port)) {
            List<Integer> loops = awaitLoopPolicies(p, SCHED_BATCH);
            assertThat(loops).containsExactly(SCHED_BATCH, SCHED_BATCH);
            assertThat(policies(p, false)).as("the JVM's own threads").containsOnly(inherited());
            try (HttpClientConn c = HttpClientConn.open(port)) {
                assertThat(c.exchange(get("/")).status()).isEqualTo(200);
            }
        }
    }

    @Test
    void noSchedBatchLeavesTheLoopsUnderTheDefaultPolicy() throws Exception {
        int port = freePort();
        try (FulcrumProcess p = TcpProxyKit.serve(TcpProxyKit.answering(port, "nbthread 2\nno sched-batch"), port)) {
            try (HttpClientConn c = HttpClientConn.open(port)) {
                assertThat(c.exchange(get("/")).status()).isEqualTo(200);
            }
            Thread.sleep(500); // what the default would have taken to apply
            assertThat(policies(p, true)).containsExactly(inherited(), inherited());
        }
    }

    @Test
    void anArgumentIsAConfigurationError() throws Exception {
        Path cfg = FulcrumProcess.config(TcpProxyKit.answering(freePort(), "sched-batch on"));
        FulcrumProcess p = FulcrumProcess.run("-c", "-f", cfg.toString());
        assertThat(p.exitValue()).isNotZero();
        assertThat(p.stderr()).contains(cfg + ":2]", "'sched-batch' cannot handle unexpected argument 'on'.");
    }

    private static List<Integer> awaitLoopPolicies(FulcrumProcess p, int wanted) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        List<Integer> loops = policies(p, true);
        while (!loops.stream().allMatch(x -> x == wanted) && System.nanoTime() < deadline) {
            Thread.sleep(50);
            loops = policies(p, true);
        }
        return loops;
    }

    /** The policy this JVM runs under, which the process it starts inherits. */
    private static int inherited() throws Exception {
        return policy(Path.of("/proc/thread-self"));
    }

    private static int policy(Path task) throws Exception {
        String stat = Files.readAllLines(task.resolve("stat")).get(0);
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" "); // fields from the third
        return Integer.parseInt(fields[41 - 3]);
    }

    /** The scheduling policies of the process's loop threads ({@code loops}) or of its other threads. */
    private static List<Integer> policies(FulcrumProcess p, boolean loops) throws Exception {
        List<Path> tasks;
        try (Stream<Path> s = Files.list(Path.of("/proc/" + p.pid() + "/task"))) {
            tasks = s.sorted().toList();
        }
        List<Integer> policies = new ArrayList<>();
        for (Path task : tasks) {
            String name = Files.readAllLines(task.resolve("comm")).get(0).trim(); // by lines: /proc sizes read 0
            if (name.matches("fulcrum-\\d+-\\d+") == loops) {
                policies.add(policy(task));
            }
        }
        return policies;
    }
}
