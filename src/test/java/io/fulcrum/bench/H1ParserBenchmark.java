package io.fulcrum.bench;

import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.mux.h1.H1Exception;
import io.fulcrum.mux.h1.H1Limits;
import io.fulcrum.mux.h1.H1Parser;
import io.fulcrum.mux.h1.MessageSink;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * How long {@link H1Parser} takes to read a request head, or a response head and its small body, from a pooled
 * direct buffer as a socket read gives it, into a head whose fields are indexed (views, no String per field).
 * Not a unit test (surefire does not pick it up): run it on a quiet machine with
 *
 * <pre>
 * bin/mvn -q test-compile dependency:build-classpath -Dmdep.outputFile=target/test.cp -Dmdep.includeScope=test
 * java --sun-misc-unsafe-memory-access=allow -cp target/classes:target/test-classes:$(cat target/test.cp) \
 *     io.fulcrum.bench.H1ParserBenchmark
 * </pre>
 *
 * (the flag is what bin/fulcrum gives a JDK 23 or later: Netty reads direct buffers through Unsafe).
 * A plain harness rather than JMH, to keep the build free of it: several timed rounds after a warm-up, the
 * median and the spread reported, every parsed head consumed so that nothing is optimized away.
 */
public final class H1ParserBenchmark {
    private H1ParserBenchmark() {
    }

    static final String REQUEST_10 = "GET /api/v1/users/12345/profile?fields=name,email&lang=en HTTP/1.1\r\n"
            + "Host: www.example.com\r\n"
            + "User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0\r\n"
            + "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\n"
            + "Accept-Language: en-US,en;q=0.5\r\n"
            + "Accept-Encoding: gzip, deflate, br\r\n"
            + "Connection: keep-alive\r\n"
            + "Cookie: session=4f8e2a91c3b7d6e5f0a1b2c3d4e5f6a7; theme=dark\r\n"
            + "Referer: https://www.example.com/app/dashboard\r\n"
            + "Cache-Control: no-cache\r\n"
            + "X-Request-Id: 9b2f6c1e-3d4a-4b5c-8d7e-0f1a2b3c4d5e\r\n"
            + "\r\n";

    static final String REQUEST_20 = REQUEST_10.substring(0, REQUEST_10.length() - 2)
            + "Sec-Fetch-Dest: document\r\n"
            + "Sec-Fetch-Mode: navigate\r\n"
            + "Sec-Fetch-Site: same-origin\r\n"
            + "Sec-Fetch-User: ?1\r\n"
            + "Upgrade-Insecure-Requests: 1\r\n"
            + "DNT: 1\r\n"
            + "Pragma: no-cache\r\n"
            + "X-Forwarded-For: 192.0.2.17, 198.51.100.4\r\n"
            + "X-Forwarded-Proto: https\r\n"
            + "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.c2lnbmF0dXJl\r\n"
            + "\r\n";

    /** What nginx answers for a small static file, with its 17-byte body. */
    static final String RESPONSE = "HTTP/1.1 200 OK\r\n"
            + "Server: nginx/1.22.1\r\n"
            + "Date: Mon, 13 Jan 2025 10:21:07 GMT\r\n"
            + "Content-Type: text/plain\r\n"
            + "Content-Length: 17\r\n"
            + "Last-Modified: Fri, 10 Jan 2025 08:00:00 GMT\r\n"
            + "Connection: keep-alive\r\n"
            + "ETag: \"6780d300-11\"\r\n"
            + "Accept-Ranges: bytes\r\n"
            + "\r\n"
            + "hello from nginx\n";

    private static final int BATCH = 10_000;
    private static final int WARMUP_ROUNDS = 30;
    private static final int ROUNDS = 15;

    public static void main(String[] args) throws H1Exception {
        Input[] inputs = {new Input("request head, 10 fields", H1Parser.Kind.REQUEST, REQUEST_10),
                new Input("request head, 20 fields", H1Parser.Kind.REQUEST, REQUEST_20),
                new Input("response head + 17 bytes", H1Parser.Kind.RESPONSE, RESPONSE)};
        try {
            // Warm up on every input first, so that the first one measured is not the one compiled under.
            for (int r = 0; r < WARMUP_ROUNDS; r++) {
                for (Input input : inputs) {
                    input.round();
                }
            }
            System.out.printf("%-26s %6s %7s  %s%n", "input", "bytes", "fields", "ns/op: median (min-max)");
            for (Input input : inputs) {
                double[] ns = new double[ROUNDS];
                for (int r = 0; r < ROUNDS; r++) {
                    ns[r] = input.round();
                }
                Arrays.sort(ns);
                System.out.printf("%-26s %6d %7d  %.0f (%.0f-%.0f)%n", input.name, input.in.writerIndex(),
                        input.sink.fields, ns[ROUNDS / 2], ns[0], ns[ROUNDS - 1]);
            }
        } finally {
            for (Input input : inputs) {
                input.in.release();
            }
        }
    }

    /** One message to parse again and again, from a pooled direct buffer as a socket read gives it. */
    private static final class Input {
        final String name;
        final ByteBuf in;
        final H1Parser parser;
        final Consumer sink = new Consumer();

        Input(String name, H1Parser.Kind kind, String request) {
            this.name = name;
            this.parser = new H1Parser(kind, H1Limits.DEFAULT, false);
            byte[] raw = request.getBytes(StandardCharsets.ISO_8859_1);
            this.in = PooledByteBufAllocator.DEFAULT.directBuffer(raw.length).writeBytes(raw);
        }

        /** Nanoseconds per head over one batch. */
        double round() throws H1Exception {
            long ends = sink.ends;
            long start = System.nanoTime();
            for (int i = 0; i < BATCH; i++) {
                in.readerIndex(0);
                parser.parse(in, sink);
            }
            double ns = (System.nanoTime() - start) / (double) BATCH;
            if (sink.ends != ends + BATCH) {
                throw new AssertionError("a request was not parsed whole");
            }
            return ns;
        }
    }

    /** Looks at each head (so that it is really built) and counts. */
    private static final class Consumer implements MessageSink {
        int fields;
        long ends;

        @Override
        public void head(HttpHead head) {
            fields = head.headers().size();
        }

        @Override
        public void data(ByteBuf data) {
            data.release();
        }

        @Override
        public void trailers(HttpHeaders trailers) {
        }

        @Override
        public void end() {
            ends++;
        }
    }
}
