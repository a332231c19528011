package io.fulcrum.master;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The master-worker keywords, the -S specification, the worker's command line and show proc's columns. */
class MasterConfigTest {
    @TempDir
    Path dir;

    @Test
    void globalKeywords() {
        LoadedConfig c = LoadedConfig.load(dir, """
                global
                    master-worker no-exit-on-failure
                    mworker-max-reloads 3
                """);
        MasterSettings s = MasterSettings.of(c.model());
        assertThat(s.enabled).isTrue();
        assertThat(s.exitOnFailure).isFalse();
        assertThat(s.maxReloads).isEqualTo(3);
        assertThat(MasterSettings.of(LoadedConfig.load(dir, "global\n").model()).maxReloads).isNegative();
    }

    @Test
    void globalKeywordErrorsWithHaproxyWording() {
        // HAProxy only warns about a missing or negative mworker-max-reloads (and prints "(null)" in its warning).
        assertThat(LoadedConfig.load(dir, """
                global
                    master-worker foo
                    master-worker no-exit-on-failure x
                    mworker-max-reloads
                    mworker-max-reloads -1
                    mworker-max-reloads 3 4
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:2] : 'master-worker' only supports 'no-exit-on-failure' option.
                [ALERT]    (1) : config : parsing [t.cfg:3] : 'master-worker' cannot handle unexpected argument 'x'.
                [WARNING]  (1) : config : parsing [t.cfg:4] : 'mworker-max-reloads' expects an integer argument.
                [WARNING]  (1) : config : parsing [t.cfg:5] : 'mworker-max-reloads' : invalid value -1, must be >= 0
                [ALERT]    (1) : config : parsing [t.cfg:6] : 'mworker-max-reloads' cannot handle unexpected argument '4'.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void masterCliSpecification() throws Exception {
        MasterCli.Spec unix = MasterCli.Spec.parse("/run/m.sock,mode,600,level,operator");
        assertThat(unix.address()).isEqualTo(UnixDomainSocketAddress.of("/run/m.sock"));
        assertThat(unix.mode()).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(unix.level()).isEqualTo(CliLevel.OPERATOR);
        assertThat(MasterCli.Spec.parse("unix@m.sock").path()).isEqualTo(Path.of("m.sock"));
        assertThat(MasterCli.Spec.parse("unix@m.sock").level()).isEqualTo(CliLevel.ADMIN);
        assertThat(MasterCli.Spec.parse("127.0.0.1:1234").address()).isEqualTo(new InetSocketAddress("127.0.0.1", 1234));
        assertThatThrownBy(() -> MasterCli.Spec.parse("/tmp/x.sock,level,bad")).isInstanceOf(ConfigException.class)
                .hasMessage("'/tmp/x.sock level' : ''level' only supports 'user', 'operator', and 'admin' (got 'bad')'");
        assertThatThrownBy(() -> MasterCli.Spec.parse("/tmp/x.sock,foo,1")).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("'/tmp/x.sock foo' : unknown keyword 'foo'");
        assertThatThrownBy(() -> MasterCli.Spec.parse("/tmp/x.sock,mode,9")).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> MasterCli.Spec.parse("")).isInstanceOf(ConfigException.class);
    }

    @Test
    void workersRunTheMastersCommandLineWithoutWhatOnlyTheMasterDoes() {
        assertThat(Master.workerArgs(new String[] {"-Ws", "-f", "/etc/haproxy/haproxy.cfg", "-p", "/run/haproxy.pid", "-S",
                "/run/haproxy-master.sock", "-D", "-sf", "12", "13", "-L", "me"}))
                .isEqualTo(List.of("-f", "/etc/haproxy/haproxy.cfg", "-L", "me"));
        assertThat(Master.workerArgs(new String[] {"-W", "-db", "--", "-p", "a.cfg"})).isEqualTo(List.of("--", "-p", "a.cfg"));
    }

    @Test
    void uptimeAsShowProcPrintsIt() {
        assertThat(ShowProc.uptime(2_500)).isEqualTo("0d00h00m02s");
        assertThat(ShowProc.uptime(((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000L)).isEqualTo("2d03h04m05s");
    }

    @Test
    void exitReasonsAsStrsignal() {
        assertThat(Worker.reason(0)).isEqualTo("Exit");
        assertThat(Worker.reason(1)).isEqualTo("Exit");
        assertThat(Worker.reason(137)).isEqualTo("Killed");
        assertThat(Worker.reason(143)).isEqualTo("Terminated");
    }
}
