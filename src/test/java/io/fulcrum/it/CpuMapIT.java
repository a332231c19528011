package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code cpu-map}: each thread (an event loop's thread in Fulcrum) runs on the CPUs its line gives, read from
 * {@code Cpus_allowed_list} of {@code /proc/<pid>/task/<tid>/status}. Needs CPUs 0 and 1. Passes against haproxy
 * ({@code -Dit.proxy=haproxy}: its thread 1 is the main thread, thread 2 the other one). How several lines combine
 * is tested by CpuMapTest: HAProxy 2.6.12 in the foreground departs from its documentation there (docs/differences.md).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CpuMapIT {
    private static final Pattern LOOP = Pattern.compile("fulcrum-\\d+-(\\d+)");

    private static Map<Integer, String> threadCpus(String cpuMap) throws Exception {
        int port = freePort();
        try (FulcrumProcess p = TcpProxyKit.serve(TcpProxyKit.answering(port, "nbthread 2\n" + cpuMap), port)) {
            Map<Integer, String> cpus = new HashMap<>();
            List<Path> tasks;
            try (Stream<Path> s = Files.list(Path.of("/proc/" + p.pid() + "/task"))) {
                tasks = s.toList();
            }
            for (Path task : tasks) {
                String name = Files.readAllLines(task.resolve("comm")).get(0).trim(); // by lines: a /proc file says its size is 0
                Matcher m = LOOP.matcher(name);
                int thread = TcpProxyKit.haproxy() ? (task.getFileName().toString().equals(Long.toString(p.pid())) ? 1 : 2)
                        : m.matches() ? Integer.parseInt(m.group(1)) : 0;
                if (thread > 0) {
                    cpus.put(thread, allowed(task));
                }
            }
            return cpus;
        }
    }

    private static String allowed(Path task) throws IOException {
        for (String line : Files.readAllLines(task.resolve("status"))) {
            if (line.startsWith("Cpus_allowed_list:")) {
                return line.substring("Cpus_allowed_list:".length()).trim();
            }
        }
        throw new AssertionError("no Cpus_allowed_list in " + task);
    }

    /** A thread no line names keeps the CPUs it started with (this JVM's). */
    @Test
    void aThreadRunsOnTheCpusItsLineGives() throws Exception {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "two CPUs");
        String all = allowed(Path.of("/proc/self"));
        assertThat(threadCpus("cpu-map 1/2 1")).containsEntry(1, all).containsEntry(2, "1");
        assertThat(threadCpus("cpu-map 1/2 0")).containsEntry(1, all).containsEntry(2, "0");
    }

    @Test
    void autoGivesEachThreadTheNextCpu() throws Exception {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "two CPUs");
        assertThat(threadCpus("cpu-map auto:1/1-2 1 0")).containsEntry(1, "0").containsEntry(2, "1");
    }
}
