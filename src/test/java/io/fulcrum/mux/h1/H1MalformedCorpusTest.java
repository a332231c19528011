package io.fulcrum.mux.h1;

import io.fulcrum.http.RequestHead;
import io.fulcrum.mux.h1.H1Corpus.Case;
import io.fulcrum.mux.h1.H1Corpus.Kind;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.AsciiString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The verdicts of {@link H1Corpus}: what Fulcrum answers, and that it differs from HAProxy only on purpose. */
class H1MalformedCorpusTest {

    static final List<Case> CASES = H1Corpus.CASES;

    @ParameterizedTest(name = "{0}")
    @FieldSource("CASES")
    void verdict(Case c) {
        assertThat(outcome(c)).isEqualTo(expected(c));
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("CASES")
    void sameWhenFedByteByByte(Case c) {
        assertThat(run(c, true).events()).isEqualTo(run(c, false).events());
    }

    @Test
    void everyDifferenceFromHaproxyIsDocumented() throws IOException {
        String doc = Files.readString(Path.of("docs/http1-strictness.md"));
        for (Case c : CASES) {
            boolean differs = c.haproxyAccepts() != c.fulcrumAccepts() || !c.fulcrumAccepts() && c.haproxy() != c.fulcrum();
            if (differs) {
                assertThat(c.because()).as("why %s differs", c).isNotNull();
                assertThat(doc).as("docs/http1-strictness.md explains %s", c.because()).contains("[" + c.because() + "]");
            } else {
                assertThat(c.because()).as("%s does not differ", c).isNull();
            }
        }
    }

    @Test
    void theCorpusIsLargeEnough() {
        assertThat(CASES.stream().filter(c -> c.kind() != Kind.RESP).count()).isGreaterThanOrEqualTo(80);
        assertThat(CASES.stream().map(Case::name).distinct().count()).isEqualTo(CASES.size());
    }

    private static String expected(Case c) {
        return c.fulcrumAccepts() ? c.wire() : "error " + c.fulcrum();
    }

    /** The forwarded form if Fulcrum accepts the message, else "error STATUS". */
    static String outcome(Case c) {
        Result r = run(c, false);
        return r.error() == null ? r.recorder().wire() : "error " + r.error().status();
    }

    /** What the parser found, and the error that stopped it. */
    record Result(Recorder recorder, H1Exception error) {
        /** The events, then the error (status, position, reason) if any. */
        List<String> events() {
            List<String> all = new ArrayList<>(recorder.events);
            if (error != null) {
                all.add(error.toString());
            }
            return all;
        }
    }

    static Result run(Case c, boolean byteByByte) {
        H1Parser parser = new H1Parser(c.kind() == Kind.RESP ? H1Parser.Kind.RESPONSE : H1Parser.Kind.REQUEST,
                H1Limits.DEFAULT, c.kind() == Kind.INV);
        if (c.kind() == Kind.RESP) {
            parser.responseTo(new RequestHead(AsciiString.of("GET"), AsciiString.of("/"), 11, null));
        }
        Recorder r = new Recorder();
        Feed feed = new Feed(parser, r, 1); // only the first message counts: what follows would be a next one
        try {
            byte[] raw = c.raw().getBytes(StandardCharsets.ISO_8859_1);
            if (byteByByte) {
                for (byte b : raw) {
                    feed.add(new byte[] {b});
                }
            } else {
                feed.add(raw);
            }
            feed.close();
            return new Result(r, null);
        } catch (H1Exception e) {
            return new Result(r, e);
        } finally {
            feed.release();
        }
    }

    @Test
    void errorsSayWhereTheyAre() {
        Case c = CASES.stream().filter(k -> k.name().equals("NUL in field value")).findFirst().orElseThrow();
        H1Parser parser = new H1Parser(H1Parser.Kind.REQUEST, H1Limits.DEFAULT, false);
        ByteBuf in = Unpooled.copiedBuffer(c.raw(), StandardCharsets.ISO_8859_1);
        H1Exception e = catchThrowableOfType(H1Exception.class, () -> parser.parse(in, new Recorder()));
        in.release();
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.position()).isEqualTo(c.raw().indexOf('\0'));
        assertThat(e.reason()).isEqualTo("invalid character in field value: NUL");
    }
}
