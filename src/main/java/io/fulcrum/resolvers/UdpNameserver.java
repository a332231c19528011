package io.fulcrum.resolvers;

import io.fulcrum.runtime.EventLoops;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.dns.DatagramDnsQuery;
import io.netty.handler.codec.dns.DatagramDnsQueryEncoder;
import io.netty.handler.codec.dns.DatagramDnsResponseDecoder;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.util.concurrent.Future;

import java.net.Inet6Address;
import java.net.InetSocketAddress;

/** A datagram name server: one UDP socket, bound when the section starts. */
final class UdpNameserver extends NameserverLink {
    private Channel channel;

    UdpNameserver(ResolversSpec.Nameserver spec) {
        super(spec);
    }

    @Override
    Future<?> open(EventLoops loops, EventLoop loop, ResolversRuntime section) {
        var f = bootstrap(loops, loop, true, section, new DatagramDnsQueryEncoder(), new DatagramDnsResponseDecoder())
                .bind(spec.address().getAddress() instanceof Inet6Address ? new InetSocketAddress("::", 0) : new InetSocketAddress(0));
        channel = f.channel();
        return f;
    }

    @Override
    void send(int id, String name, DnsRecordType type, int payloadSize) {
        sent++;
        channel.writeAndFlush(fill(new DatagramDnsQuery(null, spec.address(), id), name, type, payloadSize)).addListener(w -> {
            if (!w.isSuccess()) {
                sendErrors++;
            }
        });
    }

    @Override
    void close() {
        channel.close();
    }
}
