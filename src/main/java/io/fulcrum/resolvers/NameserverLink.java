package io.fulcrum.resolvers;

import io.fulcrum.runtime.EventLoops;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.handler.codec.dns.AbstractDnsOptPseudoRrRecord;
import io.netty.handler.codec.dns.DefaultDnsQuestion;
import io.netty.handler.codec.dns.DnsQuery;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.DnsResponse;
import io.netty.handler.codec.dns.DnsSection;
import io.netty.util.concurrent.Future;

import java.net.Inet6Address;

/**
 * A name server at run time: how queries reach it (UDP or TCP, by subclass) and the counters {@code show resolvers}
 * prints. Touched only on its section's event loop; the CLI reads the counters there too.
 */
abstract class NameserverLink {
    final ResolversSpec.Nameserver spec;
    long sent;
    long sendErrors;
    long valid;
    long update;
    long cname;
    long anyErr;
    long nx;
    long timeout;
    long refused;
    long other;
    long invalid;
    long truncated;
    long outdated;

    NameserverLink(ResolversSpec.Nameserver spec) {
        this.spec = spec;
    }

    /** {@code clear counters all}, on the section's loop. */
    void clearCounters() {
        sent = sendErrors = valid = update = cname = anyErr = nx = timeout = refused = other = invalid = truncated = outdated = 0;
    }

    static NameserverLink of(ResolversSpec.Nameserver spec) {
        return spec.stream() ? new TcpNameserver(spec) : new UdpNameserver(spec);
    }

    /** Gets ready to send on {@code loop}; the future completes once queries can go. */
    abstract Future<?> open(EventLoops loops, EventLoop loop, ResolversRuntime section);

    /** Sends query {@code id} for {@code name} and {@code type}. */
    abstract void send(int id, String name, DnsRecordType type, int payloadSize);

    /** The query {@code id} gets no more answers. */
    void forget(int id) {
    }

    abstract void close();

    /**
     * A bootstrap on {@code loop} of channels of the name server's address family ({@code datagram} or stream), whose
     * pipeline is {@code codec} then the answers' hand-over to {@code section}.
     */
    Bootstrap bootstrap(EventLoops loops, EventLoop loop, boolean datagram, ResolversRuntime section, ChannelHandler... codec) {
        SocketProtocolFamily family = spec.address().getAddress() instanceof Inet6Address ? SocketProtocolFamily.INET6
                : SocketProtocolFamily.INET;
        NameserverLink self = this;
        return new Bootstrap()
                .group(loop)
                .channelFactory(() -> datagram ? loops.newDatagram(family) : loops.newSocket(family))
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(codec).addLast(new Answers(self, section));
                    }
                });
    }

    /** Fills a query with its question and the EDNS record announcing {@code payloadSize}, as HAProxy's. */
    static <Q extends DnsQuery> Q fill(Q q, String name, DnsRecordType type, int payloadSize) {
        q.setRecursionDesired(true);
        q.addRecord(DnsSection.QUESTION, new DefaultDnsQuestion(name, type));
        q.addRecord(DnsSection.ADDITIONAL, new AbstractDnsOptPseudoRrRecord(payloadSize, 0, 0) { });
        return q;
    }

    /** Counts an error answer by its kind. */
    void count(DnsStatus s) {
        switch (s) {
            case NX -> nx++;
            case REFUSED -> refused++;
            case TIMEOUT -> timeout++;
            default -> other++;
        }
    }

    /** Hands the name server's answers to the section, which finds the resolution waiting for each. */
    static final class Answers extends SimpleChannelInboundHandler<DnsResponse> {
        private final NameserverLink ns;
        private final ResolversRuntime section;

        Answers(NameserverLink ns, ResolversRuntime section) {
            this.ns = ns;
            this.section = section;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DnsResponse m) {
            ns.forget(m.id());
            section.answered(ns, m);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ns.invalid++; // bytes that are not a DNS answer
        }
    }
}
