package io.fulcrum.proxy;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How proxies use defaults sections, with the messages haproxy 2.6.12 printed for the same configurations: a named
 * defaults section both named with 'from' and taken as the last one is an alert that does not fail the load, at
 * each use that mixes the two; captures are refused in any defaults section.
 */
class DefaultsUseTest {
    private static final String MIXED = " is explicitly referenced by another proxy and implicitly used here. To avoid any ambiguity"
            + " don't mix both usage. Add a last defaults section not explicitly used or always use explicit references.";

    @TempDir
    Path dir;

    @Test
    void implicitUseAfterAnExplicitOneIsReported() {
        LoadedConfig c = LoadedConfig.load(dir, """
                defaults d1
                    mode http
                backend f1 from d1
                backend b1
                backend b2
                """);
        assertThat(c.messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:4] : defaults section 'd1' (declared at t.cfg:1)%s
                [ALERT]    (1) : config : parsing [t.cfg:5] : defaults section 'd1' (declared at t.cfg:1)%s
                """.formatted(MIXED, MIXED));
        assertThat(ProxyTable.of(c.model()).find("b2").mode).isEqualTo(Mode.HTTP);
    }

    @Test
    void explicitUseAfterAnImplicitOneIsReportedInTheSameWords() {
        // 'from' on a defaults section counts as an explicit use; a defaults section never uses one implicitly.
        assertThat(LoadedConfig.load(dir, """
                defaults d1
                    mode http
                backend b1
                defaults d2 from d1
                backend b2 from d1
                backend b3
                backend b4 from d2
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:4] : defaults section 'd1' (declared at t.cfg:1)%s
                [ALERT]    (1) : config : parsing [t.cfg:5] : defaults section 'd1' (declared at t.cfg:1)%s
                [ALERT]    (1) : config : parsing [t.cfg:7] : defaults section 'd2' (declared at t.cfg:4)%s
                """.formatted(MIXED, MIXED, MIXED));
    }

    @Test
    void explicitOrImplicitUsesAloneAreQuiet() {
        assertThat(LoadedConfig.load(dir, """
                defaults d1
                    mode http
                backend f1 from d1
                backend b1 from d1
                defaults
                backend b2
                defaults d3
                backend b3
                backend b4
                """).output()).isEmpty();
    }

    @Test
    void capturesAreRefusedInDefaults() {
        assertThat(LoadedConfig.load(dir, """
                defaults d1
                    mode http
                    capture request header Host len 20
                    capture response header Server len 20
                    declare capture request len 10
                defaults
                    capture request header Host len 20
                    declare capture response len 10
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:3] : 'capture request' not allowed in 'defaults' section.
                [ALERT]    (1) : config : parsing [t.cfg:4] : 'capture response' not allowed in 'defaults' section.
                [ALERT]    (1) : config : parsing [t.cfg:5] : 'declare' not available in default section
                [ALERT]    (1) : config : parsing [t.cfg:7] : 'capture request' not allowed in 'defaults' section.
                [ALERT]    (1) : config : parsing [t.cfg:8] : 'declare' not available in default section
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }
}
