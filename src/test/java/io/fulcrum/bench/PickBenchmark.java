package io.fulcrum.bench;

import io.fulcrum.backend.Backend;
import io.fulcrum.backend.Ticket;
import io.fulcrum.sample.TestContext;
import io.fulcrum.sample.TestProxies;

import java.util.Arrays;

/**
 * How long choosing a server takes: {@link Backend#assign} then giving the slot back, as every request does,
 * for roundrobin (with and without maxconn), leastconn and a consistent uri hash over 8 servers of mixed
 * weights, on one thread and on two at once. Run it as {@link H1ParserBenchmark} says (main class
 * io.fulcrum.bench.PickBenchmark). A plain harness: warm-up, timed rounds, median and spread.
 */
public final class PickBenchmark {
    private static final int OPS = 2_000_000;

    private PickBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        baseline();
        for (String balance : new String[] {"roundrobin", "roundrobin+maxconn", "static-rr", "leastconn", "uri\n    hash-type consistent"}) {
            boolean maxconn = balance.endsWith("+maxconn");
            StringBuilder cfg = new StringBuilder("defaults\n    mode http\n    timeout connect 1s\n    timeout client 1s\n"
                    + "    timeout server 1s\nbackend be\n    balance " + balance.replace("+maxconn", "") + "\n");
            for (int i = 0; i < 8; i++) {
                cfg.append("    server s").append(i).append(" 127.0.0.1:").append(9000 + i).append(" weight ").append(1 + i % 4)
                        .append(maxconn ? " maxconn 1000" : "").append('\n');
            }
            Backend b = TestProxies.load(cfg.toString()).backends.get("be");
            for (int threads : new int[] {1, 2}) {
                double[] rounds = new double[7];
                for (int r = -3; r < rounds.length; r++) {
                    double ns = run(b, threads);
                    if (r >= 0) {
                        rounds[r] = ns;
                    }
                }
                Arrays.sort(rounds);
                System.out.printf("%-28s threads=%d  %6.1f ns/pick (min %.1f, max %.1f)%n", balance.replace("\n    ", " "), threads,
                        rounds[rounds.length / 2], rounds[0], rounds[rounds.length - 1]);
            }
        }
    }

    /**
     * What a request cost before queues and dynamic weights: one atomic cursor over a fixed schedule, and the
     * server's stream count taken and given back.
     */
    private static void baseline() {
        Backend b = TestProxies.load("defaults\n    mode http\n    timeout connect 1s\n    timeout client 1s\n    timeout server 1s\n"
                + "backend be\n    server s0 127.0.0.1:9000\n    server s1 127.0.0.1:9001 weight 2\n").backends.get("be");
        io.fulcrum.server.Server[] schedule = {b.servers().get(0), b.servers().get(1), b.servers().get(1)};
        java.util.concurrent.atomic.AtomicLong cursor = new java.util.concurrent.atomic.AtomicLong();
        double[] rounds = new double[7];
        long sum = 0;
        for (int r = -3; r < rounds.length; r++) {
            long start = System.nanoTime();
            for (int n = 0; n < OPS; n++) {
                io.fulcrum.server.Server s = schedule[(int) (cursor.getAndIncrement() % schedule.length)];
                s.streams().tryAcquire();
                sum += s.numericId();
                s.streams().release();
            }
            if (r >= 0) {
                rounds[r] = (System.nanoTime() - start) / (double) OPS;
            }
        }
        Arrays.sort(rounds);
        System.out.printf("%-28s threads=1  %6.1f ns/pick (min %.1f, max %.1f)%s%n", "before (fixed schedule)", rounds[3], rounds[0],
                rounds[6], sum == 42 ? "!" : "");
    }

    /** Nanoseconds per assign+release, each of {@code threads} threads doing {@link #OPS}. */
    private static double run(Backend b, int threads) throws InterruptedException {
        Thread[] t = new Thread[threads];
        long[] sink = new long[threads];
        long start = System.nanoTime();
        for (int i = 0; i < threads; i++) {
            int k = i;
            t[i] = new Thread(() -> {
                TestContext ctx = new TestContext();
                ctx.backend = b;
                ctx.request = new io.fulcrum.http.RequestHead(new io.netty.util.AsciiString("GET"),
                        new io.netty.util.AsciiString("/static/img/logo.png"), 11, new io.fulcrum.http.HttpHeaders());
                Ticket ticket = new Ticket(Runnable::run, s -> { });
                long sum = 0;
                for (int n = 0; n < OPS; n++) {
                    b.assign(ctx, ticket, null);
                    sum += ticket.server().numericId();
                    ticket.release();
                }
                sink[k] = sum;
            });
            t[i].start();
        }
        for (Thread x : t) {
            x.join();
        }
        if (Arrays.stream(sink).sum() == 42) {
            System.out.print("");
        }
        return (System.nanoTime() - start) / (double) OPS;
    }
}
