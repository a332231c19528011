package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stats sockets as the process gets them: one inherited from its parent ({@code fd@N}, a socket bound and listening
 * before the start), and a unix socket with its file's {@code mode}, {@code uid} and {@code gid} and {@code level
 * user}, which refuses what needs more with HAProxy's text and shows no addresses in {@code show stat}. Passes with
 * -Dit.proxy=haproxy.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CliSocketsIT {

    /** A frontend on {@code fe} that answers itself, with the {@code global} lines. */
    private static String config(String global, int fe) {
        return TcpProxyKit.answering(fe, global);
    }

    @Test
    void statsSocketOnAnInheritedFd() throws Exception {
        int fe = freePort();
        int cli = freePort();
        int fd = 7;
        List<String> command = new ArrayList<>(FulcrumProcess.passingListener(cli, fd));
        command.add(TcpProxyKit.haproxy() ? System.getProperty("it.haproxy", "/usr/sbin/haproxy")
                : FulcrumProcess.home().resolve("bin/fulcrum").toString());
        Path cfg = FulcrumProcess.config(config("stats socket fd@" + fd + " level operator", fe));
        try (FulcrumProcess proxy = FulcrumProcess.start(command, List.of("-db", "-f", cfg.toString()))) {
            TcpProxyKit.awaitListening(proxy, TcpProxyKit.LOCALHOST, fe, java.time.Duration.ofSeconds(60));
            InetSocketAddress address = new InetSocketAddress(TcpProxyKit.LOCALHOST, cli);
            assertThat(CliClient.send(address, "show cli level")).isEqualTo("operator\n\n");
            // named by the address it is bound to, as haproxy names it
            assertThat(CliClient.send(address, "show cli sockets")).isEqualTo("# socket lvl processes\nipv4@127.0.0.1:" + cli
                    + " operator all\n\n");
            assertThat(CliClient.send(address, "set maxconn global 10")).isEqualTo("Permission denied\n\n");
        }
    }

    /** The file gets the mode, owner and group; a user-level client reads but changes nothing. */
    @Test
    void unixSocketModeOwnerAndUserLevel() throws Exception {
        int fe = freePort();
        Path sock = Files.createTempDirectory("fulcrum-clisock").resolve("user.sock");
        // root may give the file to anyone (nobody); another user only to itself
        boolean root = "root".equals(System.getProperty("user.name"));
        int uid = root ? 65534 : (int) Files.getAttribute(sock.getParent(), "unix:uid");
        int gid = root ? 65534 : (int) Files.getAttribute(sock.getParent(), "unix:gid");
        Path operator = sock.resolveSibling("operator.sock");
        String global = "stats socket %s mode 640 uid %d gid %d level user\nstats socket %s level operator".formatted(sock, uid, gid, operator);
        String config = config(global, fe) + "backend be\n    cookie SRV insert\n    server s1 127.0.0.1:1 cookie c1\n";
        try (FulcrumProcess proxy = TcpProxyKit.serve(config, fe)) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(sock))).isEqualTo("rw-r-----");
            assertThat(Files.getAttribute(sock, "unix:uid")).isEqualTo(uid);
            assertThat(Files.getAttribute(sock, "unix:gid")).isEqualTo(gid);
            assertThat(CliClient.send(sock, "show cli level")).isEqualTo("user\n\n");
            assertThat(CliClient.send(sock, "show cli sockets")).isEqualTo("# socket lvl processes\nunix@" + sock + " user all\nunix@"
                    + operator + " operator all\n\n");
            assertThat(CliClient.send(sock, "show info")).startsWith("Name: ");
            for (String admin : List.of("disable frontend fe", "set maxconn global 10", "clear counters", "show sess", "show env",
                    "shutdown session 0", "operator")) {
                assertThat(CliClient.send(sock, admin)).as(admin).isEqualTo("Permission denied\n\n");
            }
            // the address, the cookie and the algorithm are shown from level operator on
            Map<String, Map<String, String>> user = StatsIT.rows(CliClient.send(sock, "show stat"));
            Map<String, Map<String, String>> oper = StatsIT.rows(CliClient.send(operator, "show stat"));
            assertThat(user.get("be/s1")).containsEntry("addr", "").containsEntry("cookie", "");
            assertThat(user.get("be/BACKEND")).containsEntry("algo", "").containsEntry("cookie", "");
            assertThat(oper.get("be/s1")).containsEntry("addr", "127.0.0.1:1").containsEntry("cookie", "c1");
            assertThat(oper.get("be/BACKEND")).containsEntry("algo", "roundrobin").containsEntry("cookie", "SRV");
            assertThat(CliClient.send(sock, "show stat typed")).doesNotContain(".addr.", ".algo.", ".cookie.");
        }
    }
}
