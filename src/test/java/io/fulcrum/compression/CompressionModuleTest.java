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
}
