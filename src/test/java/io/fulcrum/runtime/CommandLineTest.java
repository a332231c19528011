package io.fulcrum.runtime;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CommandLineTest {

    @Test
    void debuggingFlagsTakeTheirValueInTheSameWord() throws Exception {
        CommandLine c = CommandLine.parse(new String[] {"-dM0x41,no-merge", "-dL", "-dr", "-m", "512", "-x", "/run/old.sock"});
        assertThat(c.memoryDebug).isEqualTo("0x41,no-merge");
        assertThat(c.dumpLibs).isTrue();
        assertThat(c.resolutionNeverFails).isTrue();
        assertThat(c.memmaxMb).isEqualTo(512);
        assertThat(c.oldSocket).isEqualTo("/run/old.sock");
        assertThat(CommandLine.parse(new String[] {"-dM"}).memoryDebug).isEmpty();
        assertThat(CommandLine.parse(new String[] {"-dKcfg,smp"}).dumpKeywords).isEqualTo("cfg,smp");
    }

    @Test
    void valuesAreChecked() {
        assertThatThrownBy(() -> CommandLine.parse(new String[] {"-m"})).hasMessage("option '-m' expects an argument.");
        assertThatThrownBy(() -> CommandLine.parse(new String[] {"-x"})).hasMessage("option '-x' expects an argument.");
        assertThatThrownBy(() -> CommandLine.parse(new String[] {"-m", "-5"}))
                .hasMessage("option '-m' expects a positive integer, got '-5'.");
        assertThatThrownBy(() -> CommandLine.parse(new String[] {"-dI"}))
                .hasMessage("option '-dI' is an HAProxy flag that Fulcrum does not support yet.");
    }

    @Test
    void memoryDebugOptionsAreHaproxys() {
        assertThat(MemoryDebug.parse("")).isNull();
        assertThat(MemoryDebug.parse("0,no-merge,cold-first,integrity,caller,no-tag")).isNull();
        assertThat(MemoryDebug.parse("fail,help")).startsWith("-dM alone enables memory poisonning with byte 0x50");
        assertThatThrownBy(() -> MemoryDebug.parse("08")).hasMessage("-dM: unknown pool debugging feature <08>");
        assertThatThrownBy(() -> MemoryDebug.parse("merge,uaf")).hasMessage("-dM: unknown pool debugging feature <uaf>");
    }
}
