package io.fulcrum.rules;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The normalizers of normalize-uri against HAProxy 2.6's answers for a table of URIs (normalize-uri.tsv, written by
 * tools/gen-normalize-uri-table.py), and the three HAProxy 2.6.12 mistakes for merge-slashes, against its documentation.
 */
class UriNormalizerTest {

    private static UriNormalizer byTableName(String name) {
        UriNormalizer n = UriNormalizer.named(name);
        if (n != null) {
            return n;
        }
        int dash = name.lastIndexOf('-');
        return UriNormalizer.named(name.substring(0, dash)).withOption();
    }

    @Test
    void haproxyTable() throws IOException {
        List<String> mismatches = new ArrayList<>();
        int rows = 0;
        try (InputStream in = getClass().getResourceAsStream("normalize-uri.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.ISO_8859_1).split("\n")) {
                if (line.startsWith("#") || line.isEmpty()) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                String expected = f[2].equals("400") ? null : f[3];
                String actual = byTableName(f[0]).apply(f[1]);
                rows++;
                if (!java.util.Objects.equals(expected, actual)) {
                    mismatches.add(f[0] + " " + f[1] + ": expected " + expected + ", got " + actual);
                }
            }
        }
        assertThat(rows).isGreaterThan(400);
        assertThat(mismatches).isEmpty();
    }

    /** The documentation's examples for the normalizers HAProxy 2.6.12 runs as path-merge-slashes when given alone. */
    @Test
    void documentedExamples() {
        UriNormalizer dotdot = UriNormalizer.PATH_STRIP_DOTDOT;
        assertThat(dotdot.apply("/foo/../")).isEqualTo("/");
        assertThat(dotdot.apply("/foo/../bar/")).isEqualTo("/bar/");
        assertThat(dotdot.apply("/foo/bar/../")).isEqualTo("/foo/");
        assertThat(dotdot.apply("/../bar/")).isEqualTo("/../bar/");
        assertThat(dotdot.apply("/bar/../../")).isEqualTo("/../");
        assertThat(dotdot.apply("/foo//../")).isEqualTo("/foo/");
        assertThat(dotdot.apply("/foo/%2E%2E/")).isEqualTo("/foo/%2E%2E/");
        assertThat(dotdot.apply("//")).isEqualTo("//");
        UriNormalizer decode = UriNormalizer.PERCENT_DECODE_UNRESERVED;
        assertThat(decode.apply("/%61dmin")).isEqualTo("/admin");
        assertThat(decode.apply("/foo%3Fbar=baz")).isEqualTo("/foo%3Fbar=baz");
        assertThat(decode.apply("/%%36%36")).isEqualTo("/%66");
        assertThat(decode.apply("/%ZZ")).isEqualTo("/%ZZ");
        UriNormalizer upper = UriNormalizer.PERCENT_TO_UPPERCASE;
        assertThat(upper.apply("/%6f")).isEqualTo("/%6F");
        assertThat(upper.apply("/%zz")).isEqualTo("/%zz");
        assertThat(upper.apply("/a%")).isEqualTo("/a%");
    }

    @TempDir
    Path dir;

    private static final String PROXY = """
            defaults
                mode http
                timeout client 1s
                timeout server 1s
                timeout connect 1s
            frontend f
                bind :18001
                http-request normalize-uri fragment-strip
            """;

    /** HAProxy 2.6.12's messages (the experimental refusal comes once the configuration is read: its closing line differs). */
    @Test
    void configErrors() {
        assertThat(LoadedConfig.load(dir, PROXY).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:8] : 'normalize-uri' action is experimental, must be allowed via a global 'expose-experimental-directives'
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
        assertThat(LoadedConfig.load(dir, "global\n    expose-experimental-directives\n" + PROXY + """
                    http-request normalize-uri
                    http-request normalize-uri foo
                    http-request normalize-uri path-strip-dotdot fool
                    http-request normalize-uri percent-to-uppercase x
                    http-request normalize-uri fragment-strip x
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:11] : error detected in frontend 'f' while parsing 'http-request normalize-uri' rule : missing argument <normalizer>.
                [ALERT]    (1) : config : parsing [t.cfg:12] : error detected in frontend 'f' while parsing 'http-request normalize-uri' rule : unknown normalizer 'foo'.
                [ALERT]    (1) : config : parsing [t.cfg:13] : error detected in frontend 'f' while parsing 'http-request normalize-uri' rule : unknown argument 'fool' for 'path-strip-dotdot' normalizer.
                [ALERT]    (1) : config : parsing [t.cfg:14] : error detected in frontend 'f' while parsing 'http-request normalize-uri' rule : unknown argument 'x' for 'percent-to-uppercase' normalizer.
                [ALERT]    (1) : config : parsing [t.cfg:15]: 'http-request normalize-uri' expects either 'if' or 'unless' followed by a condition but found 'x'.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }
}
