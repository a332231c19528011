package io.fulcrum.compression;

import io.fulcrum.http.LoadedConfig;
import io.fulcrum.proxy.ProxyTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code compression} keyword; the messages are those HAProxy 2.6.12 printed for the same lines ({@code haproxy -c}). */
class CompressionModuleTest {
    @TempDir
    Path dir;

    @Test
    void errors() {
        assertThat(LoadedConfig.load(dir, """
                defaults
                    compression algo
                    compression algo gzip lz4
                    compression type
                    compression direction response
                    compression
                    compression offload
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:2] : parsing [t.cfg:2] : 'compression' expects <algorithm>.
                [ALERT]    (1) : config : parsing [t.cfg:3] : 'compression' : 'lz4' is not a supported algorithm.
                [ALERT]    (1) : config : parsing [t.cfg:4] : 'compression' expects <type>.
                [ALERT]    (1) : config : parsing [t.cfg:5] : 'compression' expects 'algo', 'type' or 'offload'
                [ALERT]    (1) : config : parsing [t.cfg:6] : 'compression' expects 'algo', 'type' or 'offload'
                [WARNING]  (1) : config : parsing [t.cfg:7] : 'compression' : 'offload' ignored in 'defaults' section.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    /** Algorithms and types add up over the lines, after those of the defaults; offload is the proxy's own. */
    @Test
    void inheritedAndAccumulated() {
        LoadedConfig c = LoadedConfig.load(dir, """
                defaults
                    mode http
                    compression algo gzip
                    compression type text/html
                backend b
                    compression algo deflate raw-deflate
                    compression type Text/Plain
                    compression offload
                backend plain
                """);
        assertThat(c.messages()).doesNotContain("compression");
        Compression b = CompressionModule.of(ProxyTable.of(c.model()).find("b"));
        assertThat(b.algos).isEqualTo(List.of(Algo.GZIP, Algo.DEFLATE, Algo.RAW_DEFLATE));
        assertThat(b.types).isEqualTo(List.of("text/html", "text/plain"));
        assertThat(b.offload).isTrue();
        Compression plain = CompressionModule.of(ProxyTable.of(c.model()).find("plain"));
        assertThat(plain.algos).isEqualTo(List.of(Algo.GZIP));
        assertThat(plain.offload).isFalse();
    }

    /** {@code tune.comp.maxlevel} and {@code filter}: HAProxy 2.6.12's messages for the same lines. */
    @Test
    void levelAndFilterErrors() {
        assertThat(LoadedConfig.load(dir, """
                global
                    tune.comp.maxlevel 0
                    tune.comp.maxlevel 10
                    tune.comp.maxlevel abc
                    tune.comp.maxlevel
                defaults
                    mode http
                    filter compression
                frontend f
                    filter
                    filter compression x
                    filter nosuch
                    filter compression
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:2] : 'tune.comp.maxlevel' expects a numeric value between 1 and 9
                [ALERT]    (1) : config : parsing [t.cfg:3] : 'tune.comp.maxlevel' expects a numeric value between 1 and 9
                [ALERT]    (1) : config : parsing [t.cfg:4] : 'tune.comp.maxlevel' expects a numeric value between 1 and 9
                [ALERT]    (1) : config : parsing [t.cfg:5] : 'tune.comp.maxlevel' expects a numeric value between 1 and 9
                [ALERT]    (1) : config : parsing [t.cfg:8] : parsing [t.cfg:8] : filter is not allowed in a 'default' section.
                [ALERT]    (1) : config : parsing [t.cfg:10] : parsing [t.cfg:10] : missing argument for 'filter' in frontend 'f'.
                [ALERT]    (1) : config : parsing [t.cfg:11] : 'filter compression' : unknown keyword 'x'.
                [ALERT]    (1) : config : parsing [t.cfg:12] : 'filter' : unknown keyword 'nosuch'. Registered keywords :
                    [CACHE] cache
                    [COMP] compression
                    [FCGI] fcgi-app
                    [  OT] opentracing
                    [SPOE] spoe
                    [TRACE] trace
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    /** The filters HAProxy has and Fulcrum does not are refused by name, not as unknown. */
    @Test
    void otherFiltersAreRefusedByName() {
        assertThat(LoadedConfig.load(dir, """
                frontend f
                    mode http
                    filter trace name T
                """).messages()).contains(
                "parsing [t.cfg:3] : 'filter trace' is not supported by Fulcrum (its filters are 'cache' and 'compression').");
    }

    /** {@code maxcomprate} (kB/s) and {@code maxcompcpuusage} (percent): HAProxy's messages, and the limits set. */
    @Test
    void rateAndCpuLimits() {
        assertThat(LoadedConfig.load(dir, """
                global
                    maxcomprate
                    maxcomprate abc
                    maxcomprate 1 2
                    maxcompcpuusage
                    maxcompcpuusage -1
                """).messages()).contains("""
                [ALERT]    (1) : config : parsing [t.cfg:2] : 'maxcomprate' expects an integer argument in kb/s.
                [ALERT]    (1) : config : parsing [t.cfg:3] : 'maxcomprate' expects an integer argument in kb/s.
                [ALERT]    (1) : config : parsing [t.cfg:4] : 'maxcomprate' cannot handle unexpected argument '2'.
                [ALERT]    (1) : config : parsing [t.cfg:5] : 'maxcompcpuusage' expects an integer argument between 0 and 100.
                [ALERT]    (1) : config : parsing [t.cfg:6] : 'maxcompcpuusage' expects an integer argument between 0 and 100.
                """);
        try {
            assertThat(LoadedConfig.load(dir, "global\n    maxcomprate 3\n    maxcompcpuusage 250\n").messages())
                    .doesNotContain("ALERT");
            assertThat(CompressionRate.limit()).isEqualTo(3072);
            assertThat(LoadedConfig.load(dir, "global\n    maxcompcpuusage 100\n").messages()).doesNotContain("ALERT");
            assertThat(CompressionRate.limit()).as("a configuration without it: no limit").isZero();
        } finally {
            CompressionRate.limit(0);
        }
    }

    /** The global level reaches every proxy's settings, whatever the order of the sections. */
    @Test
    void levelReachesTheProxies() {
        LoadedConfig c = LoadedConfig.load(dir, """
                defaults
                    mode http
                    compression algo gzip
                backend b
                frontend f
                    compression algo deflate
                global
                    tune.comp.maxlevel 7
                """);
        assertThat(c.messages()).doesNotContain("ALERT");
        ProxyTable t = ProxyTable.of(c.model());
        assertThat(Compression.level(CompressionModule.of(t.find("f")), CompressionModule.of(t.find("b")))).isEqualTo(7);
        assertThat(Compression.level(CompressionModule.of(t.find("f")), null)).isEqualTo(7);
        assertThat(Compression.level(null, null)).isEqualTo(1);
    }
}
