package io.fulcrum.backend;

import io.fulcrum.conn.Endpoint;
import io.fulcrum.sample.TestContext;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerChanges;
import io.fulcrum.server.ServerSpec;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.fulcrum.backend.BalanceTest.backend;
import static io.fulcrum.backend.BalanceTest.request;
import static io.fulcrum.backend.BalanceTest.spread;
import static org.assertj.core.api.Assertions.assertThat;

/** Servers added to and deleted from a backend at run time: the snapshot the pick path and the views read. */
class BackendRosterTest {

    /** A server as {@code add server} makes it: in forced maintenance. */
    private static Server dynamic(Backend b, String name, int id) throws Exception {
        ServerSpec s = new ServerSpec();
        s.name = name;
        s.dynamic = true;
        s.endpoint = new Endpoint.Inet(InetAddress.getByName("127.0.0.1"), 9, Endpoint.Family.ANY);
        s.port = 9;
        return new Server(b.serverGroup(), s, id);
    }

    @Test
    void anAddedServerTakesItsTurnsOnceReadyAndNoneOnceDeleted() throws Exception {
        Backend b = backend("""
                balance roundrobin
                server a 127.0.0.1:1
                server b 127.0.0.1:2 id 3
                """);
        List<Server> before = b.servers();
        assertThat(b.nextServerId()).isEqualTo(2);
        Server c = dynamic(b, "c", b.nextServerId());
        b.add(c);
        // copy on write: a snapshot taken before does not change; a new one has the server last
        assertThat(before).extracting(Server::name).containsExactly("a", "b");
        assertThat(b.servers()).extracting(Server::name).containsExactly("a", "b", "c");
        assertThat(b.servers()).extracting(Server::numericId).containsExactly(1, 3, 2);
        assertThat(b.nextServerId()).isEqualTo(4);
        assertThat(spread(b, 4)).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 2, "b", 2)));

        ServerChanges.disabled(c, false);
        assertThat(spread(b, 6)).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 2, "b", 2, "c", 2)));

        assertThat(b.remove(c)).isEqualTo("Only servers in maintenance mode can be deleted.");
        ServerChanges.disabled(c, true);
        assertThat(b.remove(c)).isNull();
        assertThat(b.servers()).extracting(Server::name).containsExactly("a", "b");
        assertThat(b.serverGroup().servers()).extracting(Server::name).containsExactly("a", "b");
        assertThat(b.remove(c)).isEqualTo("No such server.");
        // its id is free again; a change of the deleted server no longer reaches the plan
        assertThat(b.nextServerId()).isEqualTo(2);
        ServerChanges.disabled(c, false);
        assertThat(spread(b, 4)).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 2, "b", 2)));
    }

    @Test
    void aServerHoldingAStreamIsNotDeleted() throws Exception {
        Backend b = backend("""
                balance leastconn
                server a 127.0.0.1:1
                """);
        Server n = dynamic(b, "n", b.nextServerId());
        b.add(n);
        ServerChanges.disabled(n, false);
        ServerChanges.disabled(b.servers().get(0), true);
        TestContext ctx = request(b, "/");
        Ticket t = new Ticket(Runnable::run, s -> { });
        assertThat(b.assign(ctx, t, null)).isEqualTo(Backend.Outcome.ASSIGNED);
        assertThat(t.server()).isSameAs(n);
        ServerChanges.disabled(n, true);
        assertThat(b.remove(n)).isEqualTo("Server still has connections attached to it, cannot remove it.");
        t.release();
        assertThat(b.remove(n)).isNull();
        assertThat(b.assign(request(b, "/"), new Ticket(Runnable::run, s -> { }), null)).isEqualTo(Backend.Outcome.NO_SERVER);
    }
}
