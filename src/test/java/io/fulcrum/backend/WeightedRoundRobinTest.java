package io.fulcrum.backend;

import io.fulcrum.server.Server;
import io.fulcrum.server.ServerSpec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class WeightedRoundRobinTest {

    @Test
    void turnsFollowTheWeightsAndAreSpreadEvenly() {
        Server a = server("a", 5);
        Server b = server("b", 1);
        Server c = server("c", 1);
        WeightedRoundRobin rr = new WeightedRoundRobin(List.of(a, b, c));
        List<String> seq = new ArrayList<>();
        for (int i = 0; i < 14; i++) {
            seq.add(rr.pick().name());
        }
        assertThat(seq.subList(0, 7)).containsExactly("a", "a", "b", "a", "c", "a", "a");
        assertThat(seq.subList(7, 14)).isEqualTo(seq.subList(0, 7));
    }

    @Test
    void skipsDisabledAndZeroWeightServers() {
        Server a = server("a", 1);
        Server off = server("off", 1);
        off.state().setAdmin(io.fulcrum.server.ServerState.FMAINT);
        Server zero = server("zero", 0);
        WeightedRoundRobin rr = new WeightedRoundRobin(List.of(a, off, zero));
        for (int i = 0; i < 5; i++) {
            assertThat(rr.pick()).isSameAs(a);
        }
    }

    @Test
    void noUsableServerGivesNull() {
        assertThat(new WeightedRoundRobin(List.of()).pick()).isNull();
    }

    private static Server server(String name, int weight) {
        ServerSpec s = new ServerSpec();
        s.name = name;
        s.weight = weight;
        s.endpoint = new io.fulcrum.conn.Endpoint.Unix("/dev/null", false);
        return new Server("be", s, 1);
    }
}
