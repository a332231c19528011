package io.fulcrum.cache;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code cache} section and the cache filter: HAProxy 2.6.12's messages for the same lines ({@code haproxy -c}). */
class CacheModuleTest {
    @TempDir
    Path dir;

    @Test
    void warningsKeepTheConfiguration() {
        assertThat(LoadedConfig.load(dir, """
                cache c1
                    total-max-size 1
                    max-age
                    process-vary yes
                """).messages()).isEqualTo("""
                [WARNING]  (1) : config : parsing [t.cfg:3] : 'max-age' expects an age parameter in seconds.
                [WARNING]  (1) : config : parsing [t.cfg:4] : 'process-vary' expects "on" or "off" (enable or disable vary processing).
                """);
    }

    /** A name is cut to 32 characters, with a warning; a rule naming the whole name then finds no cache, as in HAProxy. */
    @Test
    void longNamesAreCut() {
        String name = "abcdefghij".repeat(4);
        assertThat(LoadedConfig.load(dir, """
                backend be
                    mode http
                    http-request cache-use %1$s
                cache %1$s
                    total-max-size 1
                """.formatted(name)).messages()).isEqualTo("""
                [WARNING]  (1) : config : parsing [t.cfg:4] : cache name is limited to 32 characters, truncate to '%s'.
                [ALERT]    (1) : config : config: backend 'be': unable to find the cache '%s' referenced by the filter 'cache'.
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """.formatted(name.substring(0, 32), name));
    }

    /** An explicit filter replaces the implicit one in its place: compression may follow it, not precede it. */
    @Test
    void filterOrder() {
        String cache = """
                cache c1
                    total-max-size 1
                """;
        assertThat(LoadedConfig.load(dir, """
                backend be
                    mode http
                    http-request cache-use c1
                    filter compression
                    filter cache c1
                """ + cache).messages()).contains("unable to enable the compression filter before the cache 'c1'.");
        assertThat(LoadedConfig.load(dir, """
                backend be
                    mode http
                    http-request cache-use c1
                    filter cache c1
                    filter compression
                """ + cache).messages()).isBlank();
        assertThat(LoadedConfig.load(dir, """
                backend be
                    mode http
                    filter cache
                """ + cache).messages()).contains("parsing [t.cfg:3] : 'filter' : 'cache : expects a <name> argument'");
    }
}
