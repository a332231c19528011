package io.fulcrum.log;

import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.conn.BindFailure;
import io.fulcrum.runtime.EventLoops;
import io.fulcrum.runtime.Fulcrum;
import io.fulcrum.runtime.Services;
import io.fulcrum.stats.InfoField;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.unix.UnixChannelOption;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.handler.timeout.ReadTimeoutHandler;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A running {@code log-forward} section: receives syslog messages on its datagram listeners (one a datagram) and
 * stream listeners (framed by {@link SyslogStreamDecoder}) and hands each to the log sender for the section's
 * targets. The loops only copy the bytes: the sender parses and sends, and drops what its bounded queue cannot take.
 */
final class LogForwarder implements Services.Service {
    private final LogForwardSpec spec;
    private final Diagnostics diag;
    private final List<Channel> channels = new ArrayList<>();
    private final AtomicInteger connections = new AtomicInteger();
    private final Queue<Channel> parked = new ConcurrentLinkedQueue<>();
    private ProcessLog log;
    private LogTarget[] targets;

    LogForwarder(LogForwardSpec spec, Diagnostics diag) {
        this.spec = spec;
        this.diag = diag;
    }

    @Override
    public boolean start(Fulcrum process) {
        log = process.logging();
        targets = log.targets(spec.targets);
        EventLoops loops = process.loops();
        // As the proxies' listeners: a reloading process binds next to the old one (a null value sets no option).
        Boolean reusePort = loops.isNative() && !process.global().noReusePort ? Boolean.TRUE : null;
        boolean all = true;
        // The datagram sockets first: a client that saw the stream port open finds them bound.
        for (LogForwardSpec.Address address : spec.datagrams) {
            InetSocketAddress a = address.socket();
            all &= bound(new Bootstrap().group(loops.next())
                    .channelFactory(() -> loops.newDatagram(family(a)))
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .option(UnixChannelOption.SO_REUSEPORT, reusePort)
                    // Room for the largest datagram: Netty's default of 2048 bytes would cut longer messages.
                    .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(SyslogStreamDecoder.MAX))
                    .handler(new SimpleChannelInboundHandler<DatagramPacket>() {
                        @Override
                        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket p) {
                            ByteBuf b = p.content();
                            byte[] m = new byte[b.readableBytes()];
                            b.readBytes(m);
                            log.forward(targets, m);
                        }
                    })
                    .bind(a), address);
        }
        for (LogForwardSpec.Address address : spec.streams) {
            InetSocketAddress a = address.socket();
            all &= bound(new ServerBootstrap().group(loops.next(), loops.group())
                    .channelFactory(() -> loops.newServerSocket(family(a)))
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .option(UnixChannelOption.SO_REUSEPORT, reusePort)
                    .option(ChannelOption.SO_BACKLOG, spec.backlog > 0 ? spec.backlog : spec.maxconn)
                    .childHandler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            accept(ch);
                        }
                    })
                    .bind(a), address);
        }
        return all;
    }

    /**
     * A stream connection, closed after {@code timeout client} of silence. At maxconn the listener stops accepting
     * (new connections wait in the backlog, as in HAProxy) until one closes; one the listener had already taken in
     * the same accept batch waits unread among the parked ones and is admitted, oldest first, when a slot frees.
     */
    private void accept(Channel ch) {
        Channel listener = ch.parent();
        if (!claimSlot()) {
            ch.config().setAutoRead(false);
            parked.add(ch);
            ch.closeFuture().addListener(f -> parked.remove(ch));
            admitParked(listener); // a slot may have freed between the claim and the parking
            return;
        }
        admit(ch, listener);
    }

    private boolean claimSlot() {
        for (int open = connections.get(); open < spec.maxconn; open = connections.get()) {
            if (connections.compareAndSet(open, open + 1)) {
                return true;
            }
        }
        return false;
    }

    private void admit(Channel ch, Channel listener) {
        if (connections.get() >= spec.maxconn) {
            listener.config().setAutoRead(false);
        }
        ch.closeFuture().addListener(f -> {
            connections.decrementAndGet();
            admitParked(listener);
            if (connections.get() < spec.maxconn && parked.isEmpty()) {
                listener.config().setAutoRead(true);
            }
        });
        if (spec.timeoutClient > 0) {
            ch.pipeline().addLast(new ReadTimeoutHandler(spec.timeoutClient, TimeUnit.MILLISECONDS));
        }
        ch.pipeline().addLast(new SyslogStreamDecoder(m -> log.forward(targets, m)));
        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                ctx.close(); // a timeout or a reset ends the connection, as HAProxy closes it
            }
        });
        ch.config().setAutoRead(true);
    }

    /** Admits parked connections while slots are free; a slot claimed for a vanished one is given back. */
    private void admitParked(Channel listener) {
        while (!parked.isEmpty() && claimSlot()) {
            Channel next = parked.poll();
            if (next == null || !next.isActive()) {
                connections.decrementAndGet();
                continue;
            }
            admit(next, listener);
        }
    }

    private boolean bound(ChannelFuture f, LogForwardSpec.Address a) {
        f.awaitUninterruptibly();
        if (f.isSuccess()) {
            channels.add(f.channel());
            return true;
        }
        diag.alert(BindFailure.alert(a.source(), "frontend " + spec.name, a.socket(), f.cause()));
        return false;
    }

    private static SocketProtocolFamily family(InetSocketAddress a) {
        return a.getAddress() instanceof Inet6Address ? SocketProtocolFamily.INET6 : SocketProtocolFamily.INET;
    }

    /** Its listeners count among the process's (Listeners, and the listener HAProxy needs to start). */
    @Override
    public long info(InfoField field) {
        return field == InfoField.LISTENERS ? spec.datagrams.size() + spec.streams.size() : 0;
    }

    @Override
    public void stop() {
        channels.forEach(Channel::close);
    }
}
