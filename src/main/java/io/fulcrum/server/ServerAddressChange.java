package io.fulcrum.server;

import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliRequest;
import io.fulcrum.cli.Severity;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.conn.InetText;

import java.net.InetAddress;

/**
 * {@code set server <b>/<s> addr <ip> [port <port>]}: moves a server. New connections and health checks
 * (unless they have their own {@code addr}/{@code port}) go to the new address; established connections and
 * idle pooled ones stay where they are. HAProxy's answers (a warning, even on success), except that a port
 * HAProxy would wrap or half-apply is refused with nothing changed.
 */
final class ServerAddressChange {
    private static final String BY = " by 'stats socket command'\n";

    private ServerAddressChange() {
    }

    static void run(CliRequest r, ServerLookup.Target t) throws CliException {
        String text = r.arg(4);
        if (text.isEmpty()) {
            throw new CliException("set server <b>/<s> addr requires an address and optionally a port.\n");
        }
        Server s = t.server();
        Server.Address now = s.address();
        InetAddress ip = InetText.literal(text);
        if (ip == null) {
            r.feedback(Severity.WARNING, "Invalid addr '" + text + "'" + BY);
            return;
        }
        if (!(now.endpoint() instanceof Endpoint.Inet inet)) {
            throw new CliException("Fulcrum can only move a server that has an IP address.\n");
        }
        // HAProxy reads the port only after the word "port"; other words are ignored.
        String portText = r.arg(5).equals("port") ? r.arg(6) : null;
        int port = now.port();
        if (portText != null) {
            port = port(portText);
            if (port < 0) {
                // A warning, as all of HAProxy's answers here; it tells the address part first, and has then applied a
                // new address: Fulcrum applies nothing, so only the same address is told.
                r.feedback(Severity.WARNING, (ip.equals(inet.host()) ? "no need to change the addr, " : "")
                        + "problem converting port '" + portText + "' to an int" + BY);
                return;
            }
            if (now.portMode() != ServerSpec.PortMode.FIXED) {
                throw new CliException("can't set a port on a server whose port follows the client's" + BY);
            }
        }
        StringBuilder msg = new StringBuilder();
        if (ip.equals(inet.host())) {
            msg.append("no need to change the addr");
        } else {
            msg.append("IP changed from '").append(InetText.of(inet.host())).append("' to '").append(InetText.of(ip)).append('\'');
        }
        if (portText != null) {
            if (port == now.port()) {
                msg.append(", no need to change the port");
            } else {
                msg.append(", port changed from '").append(now.port()).append("' to '").append(port).append('\'');
            }
        }
        Endpoint.Family family = ip instanceof java.net.Inet4Address ? Endpoint.Family.IPV4 : Endpoint.Family.IPV6;
        s.moveTo(new Server.Address(new Endpoint.Inet(ip, now.portMode() == ServerSpec.PortMode.FIXED ? port : 0, family),
                now.portMode(), port));
        r.feedback(Severity.WARNING, msg + BY);
    }

    /** 1..65535, else -1; HAProxy would wrap a larger number or take a port map here: refused, nothing applied. */
    private static int port(String text) {
        if (text.matches("[0-9]{1,5}")) {
            int p = Integer.parseInt(text);
            if (p >= 1 && p <= 65535) {
                return p;
            }
        }
        return -1;
    }
}
