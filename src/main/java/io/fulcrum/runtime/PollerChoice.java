package io.fulcrum.runtime;

import io.fulcrum.backend.Backend;
import io.fulcrum.cli.CliSettings;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.listener.BindList;
import io.fulcrum.listener.BindSpec;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.server.Server;
import io.netty.channel.uring.IoUring;

import java.util.Collection;
import java.util.List;

/**
 * Which poller the loops run on when the configuration does not say ({@code io-uring}, {@code no io-uring}):
 * io_uring where the kernel offers it, since it costs less CPU per request (docs/DEVELOPING.md's figures), unless
 * something configured is epoll's: {@code busy-polling} and {@code tune.maxpollevents} (epoll's own tuning), inherited
 * sockets ({@code fd@}: adopted by epoll only), and unix sockets on the data path (binds, abstract ones, servers:
 * Netty 4.2.18's io_uring unix sockets close at the peer's shutdown, where a TCP-mode proxy must half-close). The stats
 * sockets on unix paths do not count: they have an epoll loop of their own ({@link EventLoops#forUnixCli()}).
 */
final class PollerChoice {
    private PollerChoice() {
    }

    /** Whether the loops run on io_uring. */
    static boolean ioUring(GlobalSettings g, List<ProxySpec> proxies, Collection<Backend> backends, CliSettings cli) {
        if (g.ioUring != null) {
            return g.ioUring;
        }
        if (g.noEpoll || g.busyPolling || g.maxPollEvents > 0 || !IoUring.isAvailable()) {
            return false;
        }
        for (BindSpec b : cli.sockets) {
            if (b.endpoints().stream().anyMatch(e -> e instanceof Endpoint.Fd)) {
                return false;
            }
        }
        for (ProxySpec p : proxies) {
            BindList binds = p.partOrNull(BindList.class);
            if (p.disabled || !p.kind().isFrontend() || binds == null) {
                continue;
            }
            for (BindSpec b : binds.binds) {
                if (b.endpoints().stream().anyMatch(e -> !(e instanceof Endpoint.Inet))) {
                    return false;
                }
            }
        }
        for (Backend b : backends) {
            for (Server s : b.servers()) {
                if (s.endpoint() != null && !(s.endpoint() instanceof Endpoint.Inet)) {
                    return false;
                }
            }
        }
        return true;
    }
}
