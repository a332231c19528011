package io.fulcrum.pool;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The pool's keywords; the messages are those HAProxy 2.6.12 printed for the same lines ({@code haproxy -c}). */
class PoolModuleTest {
    @TempDir
    Path dir;

    @Test
    void idlePoolSharedErrors() {
        assertThat(LoadedConfig.load(dir, """
                global
                    tune.idle-pool.shared maybe
                    tune.idle-pool.shared
                    tune.idle-pool.shared on extra
                    tune.idle-pool.shared On
                    tune.idle-pool.shared off
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:2] : 'tune.idle-pool.shared' expects either 'on' or 'off' but got 'maybe'.
                [ALERT]    (1) : config : parsing [t.cfg:3] : 'tune.idle-pool.shared' expects either 'on' or 'off' but got ''.
                [ALERT]    (1) : config : parsing [t.cfg:4] : 'tune.idle-pool.shared' cannot handle unexpected argument 'extra'.
                [ALERT]    (1) : config : parsing [t.cfg:5] : 'tune.idle-pool.shared' expects either 'on' or 'off' but got 'On'.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    /** On by default, as HAProxy's; the last line wins. */
    @Test
    void idlePoolShared() {
        assertThat(PoolGlobals.of(LoadedConfig.load(dir, "global\n").model()).shared).isTrue();
        assertThat(PoolGlobals.of(LoadedConfig.load(dir, """
                global
                    tune.idle-pool.shared on
                    tune.idle-pool.shared off
                """).model()).shared).isFalse();
    }
}
