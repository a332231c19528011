package io.fulcrum.conn;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.sample.Arg;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Endpoints;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;
import io.netty.channel.Channel;
import io.netty.channel.unix.DomainSocketAddress;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.DatagramChannel;
import java.util.function.Function;
import java.util.function.ToLongFunction;

import static io.fulcrum.sample.ArgType.STR;

/**
 * The layer-4 fetches of configuration.txt 7.3.3: the addresses and ports of the client connection (as the
 * PROXY protocol announced them, if it was used) and of the server connection, and what the kernel measures of
 * the client connection (TCP_INFO, with native epoll only).
 */
final class ConnFetches {
    private ConnFetches() {
    }

    static void register(SampleCatalog c) {
        // src/dst follow every set-src/set-dst; fc_src/fc_dst only those of tcp-request connection rules (HAProxy 2.6).
        address(c, "src", Source.L4CLI, SampleType.IPV4, SampleContext::source);
        address(c, "dst", Source.L4CLI, SampleType.IPV4, SampleContext::destination);
        address(c, "fc_src", Source.L4CLI, SampleType.IPV4, SampleContext::connectionSource);
        address(c, "fc_dst", Source.L4CLI, SampleType.IPV4, SampleContext::connectionDestination);
        address(c, "bc_src", Source.L4SRV, SampleType.SINT, ctx -> ctx.backChannel() == null ? null : ctx.backChannel().localAddress());
        address(c, "bc_dst", Source.L4SRV, SampleType.SINT, ctx -> ctx.backChannel() == null ? null : ctx.backChannel().remoteAddress());
        // 1 on connections that carry HTTP (no HTTP/2 yet): none in mode tcp, nor before the request (HAProxy's mux).
        c.fetch(new Fetch("fc_http_major", ArgSpec.NONE, SampleType.SINT, Source.L4CLI,
                (a, ctx, out) -> ctx.request() != null && out.setSint(1)));
        c.fetch(new Fetch("bc_http_major", ArgSpec.NONE, SampleType.SINT, Source.L4SRV,
                (a, ctx, out) -> ctx.backChannel() != null && ctx.request() != null && out.setSint(1)));
        // A failed client connection is seen by error-log-format; a failed server one (its TLS handshake) by the log.
        c.fetch(new Fetch("fc_err", ArgSpec.NONE, SampleType.SINT, Source.L4CLI,
                (a, ctx, out) -> ctx.frontChannel() != null && out.setSint(ConnError.of(ctx.frontChannel()).code())));
        c.fetch(new Fetch("fc_err_str", ArgSpec.NONE, SampleType.STR, Source.L4CLI,
                (a, ctx, out) -> ctx.frontChannel() != null && out.setStr(ConnError.of(ctx.frontChannel()).message())));
        c.fetch(new Fetch("bc_err", ArgSpec.NONE, SampleType.SINT, Source.L4SRV,
                (a, ctx, out) -> ctx.backChannel() != null && out.setSint(ConnError.of(ctx.backChannel()).code())));
        c.fetch(new Fetch("bc_err_str", ArgSpec.NONE, SampleType.STR, Source.L4SRV,
                (a, ctx, out) -> ctx.backChannel() != null && out.setStr(ConnError.of(ctx.backChannel()).message())));
        proxyTlv(c, "fc_pp_authority", Endpoints::proxyAuthority);
        proxyTlv(c, "fc_pp_unique_id", Endpoints::proxyUniqueId);
        c.fetch(new Fetch("fc_rcvd_proxy", ArgSpec.NONE, SampleType.BOOL, Source.L4CLI, (a, ctx, out) -> out.setBool(ctx.proxyHeaderReceived())));
        ArgSpec unit = ArgSpec.of(0, STR);
        c.fetch(new Fetch("fc_rtt", unit, SampleType.SINT, Source.L4CLI, (a, ctx, out) -> time(a, ctx, out, TcpInfo::rtt),
                ConnFetches::checkUnit));
        c.fetch(new Fetch("fc_rttvar", unit, SampleType.SINT, Source.L4CLI, (a, ctx, out) -> time(a, ctx, out, TcpInfo::rttvar),
                ConnFetches::checkUnit));
        // The counters take the same argument, and ignore it.
        counter(c, "fc_unacked", TcpInfo::unacked);
        counter(c, "fc_sacked", TcpInfo::sacked);
        counter(c, "fc_retrans", TcpInfo::retrans);
        counter(c, "fc_fackets", TcpInfo::fackets);
        counter(c, "fc_lost", TcpInfo::lost);
        counter(c, "fc_reordering", TcpInfo::reordering);
    }

    /** {@code name} (the address), {@code name_port} and {@code name_is_local} of the address {@code of} gives. */
    /** A TLV of the client's PROXY v2 header: no sample without one. */
    private static void proxyTlv(SampleCatalog c, String name, Function<Endpoints, String> tlv) {
        c.fetch(new Fetch(name, ArgSpec.NONE, SampleType.STR, Source.L4CLI, (a, ctx, out) -> {
            Channel ch = ctx.frontChannel();
            String v = ch == null ? null : tlv.apply(Endpoints.of(ch));
            return v != null && out.setStr(v);
        }));
    }

    private static void address(SampleCatalog c, String name, Source source, SampleType type, Function<SampleContext, SocketAddress> of) {
        c.fetch(new Fetch(name, ArgSpec.NONE, type, source, (a, ctx, out) -> ip(of.apply(ctx), out)));
        c.fetch(new Fetch(name + "_port", ArgSpec.NONE, SampleType.SINT, source,
                (a, ctx, out) -> of.apply(ctx) instanceof InetSocketAddress isa && out.setSint(isa.getPort())));
        if (source == Source.L4CLI) {
            c.fetch(new Fetch(name + "_is_local", ArgSpec.NONE, SampleType.BOOL, source, (a, ctx, out) -> {
                SocketAddress addr = of.apply(ctx);
                return addr != null && out.setBool(isLocal(addr));
            }));
        }
    }

    /** An IPv4 or IPv6 address; nothing for a unix socket. */
    private static boolean ip(SocketAddress addr, Sample out) {
        if (!(addr instanceof InetSocketAddress isa) || isa.getAddress() == null) {
            return false;
        }
        InetAddress ip = isa.getAddress();
        if (ip instanceof Inet4Address) {
            byte[] b = ip.getAddress();
            return out.setIpv4((b[0] & 255) << 24 | (b[1] & 255) << 16 | (b[2] & 255) << 8 | b[3] & 255);
        }
        return out.setIpv6(ip.getAddress());
    }

    /**
     * True when the address is one of this host's: as HAProxy does, by trying to bind a socket to it (so all
     * of 127.0.0.0/8 is local); a unix socket is local.
     */
    static boolean isLocal(SocketAddress addr) {
        if (addr instanceof DomainSocketAddress) {
            return true;
        }
        if (!(addr instanceof InetSocketAddress isa) || isa.getAddress() == null) {
            return false;
        }
        try (DatagramChannel probe = DatagramChannel.open()) {
            probe.bind(new InetSocketAddress(isa.getAddress(), 0));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** "ms" (the default) or "us". */
    private static void checkUnit(Arg[] a) throws ConfigException {
        if (a.length > 0 && !a[0].text().equals("ms") && !a[0].text().equals("us")) {
            throw new ConfigException("expects 'us' or 'ms', got '" + a[0].text() + "'");
        }
    }

    /** A time the kernel measures in microseconds, in the unit asked (milliseconds by default). */
    private static boolean time(Arg[] a, SampleContext ctx, Sample out, ToLongFunction<TcpInfo> field) {
        TcpInfo info = TcpInfo.of(ctx.frontChannel());
        if (info == null) {
            return false;
        }
        long us = field.applyAsLong(info);
        return out.setSint(a.length > 0 && a[0].text().equals("us") ? us : us / 1000);
    }

    private static void counter(SampleCatalog c, String name, ToLongFunction<TcpInfo> field) {
        c.fetch(new Fetch(name, ArgSpec.of(0, STR), SampleType.SINT, Source.L4CLI, (a, ctx, out) -> {
            TcpInfo info = TcpInfo.of(ctx.frontChannel());
            return info != null && out.setSint(field.applyAsLong(info));
        }));
    }
}
