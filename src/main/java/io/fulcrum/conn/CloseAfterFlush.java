package io.fulcrum.conn;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.util.concurrent.ScheduledFuture;

import java.util.concurrent.TimeUnit;

/**
 * Closes a connection once what was written to it is sent. When nothing is left to send (a client closing an idle
 * keep-alive connection: the common case) it closes at once: an empty write through the pipeline would cost a
 * promise and a listener, and as the only write of its buffer class it made the JIT throw away and recompile the
 * whole write path each time a load's clients left (seen as class-check traps in Netty's io_uring writes).
 */
public final class CloseAfterFlush {
    private CloseAfterFlush() {
    }

    /** {@link #close(Channel, long)} without a bound on the wait. */
    public static void close(Channel ch) {
        close(ch, 0);
    }

    /**
     * Closes {@code ch} once what was written to it is sent, or after {@code timeoutMillis} (when above 0) whatever
     * is left: a peer that stopped reading must not hold the connection for ever; HAProxy bounds these last writes
     * with the side's timeout too.
     */
    public static void close(Channel ch, long timeoutMillis) {
        if (ch.isActive()) {
            ch.flush(); // what a handler still holds (TLS) reaches the channel's buffer
            ChannelOutboundBuffer out = ch.unsafe().outboundBuffer();
            if (out != null && !out.isEmpty()) { // still being written: close when the empty write behind it is done
                ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
                if (timeoutMillis > 0) {
                    ScheduledFuture<?> bound = ch.eventLoop().schedule(() -> {
                        ch.close();
                    }, timeoutMillis, TimeUnit.MILLISECONDS);
                    ch.closeFuture().addListener(f -> bound.cancel(false));
                }
                return;
            }
        }
        ch.close();
    }
}
