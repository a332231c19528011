package io.fulcrum.sample;

import io.fulcrum.Modules;
import io.fulcrum.cfg.Registry;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every fetch Fulcrum registers is one of HAProxy 2.6's, with its arguments, output type, stages and data
 * source, as haproxy-fetches.txt (tools/gen-haproxy-fetches.py) has them from the real HAProxy.
 */
class FetchSignatureTest {

    /** One fetch as HAProxy registers it. */
    private record Signature(String args, String out, String stages, String sources) {
    }

    private static Map<String, Signature> haproxy() throws IOException {
        Map<String, Signature> rows = new HashMap<>();
        try (InputStream in = FetchSignatureTest.class.getResourceAsStream("haproxy-fetches.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.startsWith("#") && !line.isBlank()) {
                    String[] c = line.split("\t", -1);
                    rows.put(c[0], new Signature(c[1], c[2], c[3], c[4]));
                }
            }
        }
        return rows;
    }

    /** A fetch as HAProxy's listing would show it. */
    private static Signature of(Fetch f) {
        StringBuilder stages = new StringBuilder();
        for (Stage s : Stage.values()) {
            stages.append((f.stages() & s.bit()) != 0 ? 'Y' : '.');
        }
        String sources = f.source() == Source.CONST ? "-" : f.sourcesText();
        return new Signature(f.args().listing(), f.out().toString(), stages.toString(), sources);
    }

    @Test
    void fetchesHaveHaproxysSignatures() throws IOException {
        Map<String, Signature> haproxy = haproxy();
        List<String> wrong = new ArrayList<>();
        for (Fetch f : SampleCatalog.of(Registry.of(Modules.ALL)).fetches()) {
            Signature expected = haproxy.get(f.name());
            Signature actual = of(f);
            if (!actual.equals(expected)) {
                wrong.add(f.name() + ": " + actual + " where HAProxy has " + expected);
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void haproxyFetchesNotSupportedYetAreSaidSo() {
        assertThat(TestContext.error("51d.all"))
                .isEqualTo("fetch method '51d.all' is an HAProxy sample fetch that Fulcrum does not support yet");
        assertThat(TestContext.error("no_such_fetch")).isEqualTo("unknown fetch method 'no_such_fetch'");
    }
}
