package io.fulcrum.runtime;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.Source;
import io.fulcrum.cfg.Token;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code cpu-map}: HAProxy 2.6's sets, their combination, and its messages (taken from {@code haproxy -c}). */
class CpuMapTest {

    private static CpuMap map(String... lines) throws ConfigException {
        CpuMap m = new CpuMap();
        for (String line : lines) {
            m.parse(new ConfigLine(new Source("t.cfg", 1), line, Arrays.stream(line.split(" ")).map(w -> new Token(w, 0)).toList(), null));
        }
        return m;
    }

    private static long[] cpus(int... n) {
        long[] mask = new long[1];
        for (int c : n) {
            mask[0] |= 1L << c;
        }
        return mask;
    }

    @Test
    void threadSetsTakeTheirCpusAndALaterLineReplacesAnEarlierOne() throws ConfigException {
        CpuMap m = map("cpu-map 1/all 0-1", "cpu-map 1/2 1");
        assertThat(m.of(0)).isEqualTo(cpus(0, 1));
        assertThat(m.of(1)).isEqualTo(cpus(1));
        assertThat(map("cpu-map 1/odd 1").of(1)).isNull();
        assertThat(map("cpu-map 1/even 1").of(1)).isEqualTo(cpus(1));
        assertThat(map("cpu-map 1/2-1 0").of(1)).as("a range's bounds in any order").isEqualTo(cpus(0));
        assertThat(map("cpu-map 1/1 0-").of(0)).as("0- is every CPU").hasSize(CpuMap.MAX_CPUS / 64);
        assertThat(map("cpu-map 2/1 0").of(0)).as("only process 1 exists").isNull();
    }

    @Test
    void autoGivesEachThreadTheNextCpuUpAndNoneOnceTheyRunOut() throws ConfigException {
        CpuMap m = map("cpu-map auto:1/1-2 1 0");
        assertThat(m.of(0)).isEqualTo(cpus(0));
        assertThat(m.of(1)).isEqualTo(cpus(1));
        CpuMap few = map("cpu-map auto:1/1-4 1");
        assertThat(few.of(0)).isEqualTo(cpus(1));
        assertThat(few.of(1)).isNull();
    }

    @Test
    void aThreadRunsOnTheIntersectionWithTheProcessSetAndKeepsItsCpusWhenItIsEmpty() throws ConfigException {
        assertThat(map("cpu-map 1 0-1", "cpu-map 1/2 1").of(1)).isEqualTo(cpus(1));
        assertThat(map("cpu-map 1 1", "cpu-map 1/1 0").of(0)).isNull();
        assertThat(map("cpu-map 1 1").of(3)).as("the process set alone: every thread").isEqualTo(cpus(1));
    }

    @Test
    void badSetsGetHaproxysMessages() {
        assertThatThrownBy(() -> map("cpu-map 1/1")).hasMessage("cpu-map expects a process number  ('all', 'odd', 'even', "
                + "a number from 1 to 64 or a range),  followed by a list of CPU ranges with numbers from 0 to 63.");
        assertThatThrownBy(() -> map("cpu-map 1/65 0")).hasMessage("cpu-map : '65' is not a valid number/range. It supports numbers from 1 to 64.");
        assertThatThrownBy(() -> map("cpu-map 1/-2 0")).hasMessage("cpu-map : '-2' is not a valid number/range. It supports numbers from 1 to 64.");
        assertThatThrownBy(() -> map("cpu-map 1/x 0")).hasMessage("cpu-map : 'x' is not a valid number/range.");
        assertThatThrownBy(() -> map("cpu-map 1/auto:1 0")).hasMessage("cpu-map : 'auto:1' is not a valid number/range.");
        assertThatThrownBy(() -> map("cpu-map 1/1 x")).hasMessage("cpu-map : 'x' is not a CPU range.");
        assertThatThrownBy(() -> map("cpu-map 1/1 1024")).hasMessage("cpu-map : supports CPU numbers from 0 to 1023.");
        assertThatThrownBy(() -> map("cpu-map auto:1/1 0-3"))
                .hasMessage("cpu-map : PROC/THREAD range and CPU sets must have the same size to be automatically bound");
    }
}
