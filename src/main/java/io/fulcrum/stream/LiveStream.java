package io.fulcrum.stream;

import io.fulcrum.backend.Backend;
import io.fulcrum.cfg.Source;
import io.fulcrum.conn.ProxyHeader;
import io.fulcrum.conn.TlsInfo;
import io.fulcrum.log.LogContext;
import io.fulcrum.log.RunningCounts;
import io.fulcrum.listener.Listener;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.runtime.LoopClock;
import io.fulcrum.server.Server;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;

import java.util.Objects;

/**
 * A stream as the CLI sees it ({@code show sess}, {@code shutdown session}): an HTTP transaction or a TCP
 * session, listed in its event loop's {@link LiveStreams} from its start to its end. The list's links live
 * in the stream itself, so that joining and leaving it allocates nothing. Everything here is touched on the
 * stream's loop only.
 */
public abstract class LiveStream implements LogContext {
    LiveStream prev;
    LiveStream next;
    /** The stream's identifier in {@code show sess}, 0 while it is not listed. */
    long id;
    private long startNanos;
    private long startMillis;
    /** Events handled for the stream (reads, writes, timers): HAProxy's task {@code calls}. */
    private int calls;
    /** The last rule that gave a final verdict ({@code last_rule_file}, {@code last_rule_line}), or null. */
    private Source lastRule;

    @Override
    public final Source finalRule(Source rule) {
        Source before = lastRule;
        lastRule = rule;
        return before;
    }

    @Override
    public final String lastRuleFile() {
        return lastRule == null ? null : lastRule.file();
    }

    @Override
    public final int lastRuleLine() {
        return lastRule == null ? 0 : lastRule.line();
    }

    /** Lists the stream in its loop's registry; on the stream's loop. */
    protected final void register() {
        startNanos = LoopClock.nanoTime();
        startMillis = LoopClock.currentTimeMillis();
        LiveStreams.current().add(this);
    }

    /** Takes the stream off the registry; on the stream's loop, any number of times. */
    public final void unregister() {
        if (id != 0) {
            LiveStreams.current().remove(this);
        }
    }

    /** Writes the PROXY header {@code target} asks for, if any, on its new connection {@code ch}. */
    protected final void sendProxyHeader(Server target, Channel ch) {
        ByteBuf header = proxyHeader(target, ch.alloc());
        if (header != null) {
            ch.write(header, ch.voidPromise());
        }
    }

    /** The PROXY header {@code target} asks for (send-proxy, send-proxy-v2 and its TLVs) for this stream, or null for none. */
    protected final ByteBuf proxyHeader(Server target, ByteBufAllocator alloc) {
        int version = target.sendProxy();
        if (version == 0) {
            return null;
        }
        int tlvs = target.spec().proxyV2Options;
        CharSequence uniqueId = (tlvs & ProxyHeader.TLV_UNIQUE_ID) == 0 ? null : Objects.requireNonNullElse(uniqueId(), "");
        return ProxyHeader.encode(version, tlvs, source(), destination(), TlsInfo.of(frontChannel()), uniqueId, alloc);
    }

    /** {@code option contstats}: the bytes moved so far go to the counters (what its record counted, by default). */
    protected void countRunningBytes() {
        RunningCounts.update(this);
    }

    @Override
    public final long streamCalls() {
        return calls;
    }

    /** One more event was handled for the stream. */
    protected final void called() {
        calls++;
    }

    /**
     * Closes both sides now, as {@code shutdown session} does: the log's termination cause says why ('K' the
     * CLI, 'D' the server was marked down, 'U' a server came up). On the stream's loop.
     */
    public abstract void kill(char cause);

    /** When the stream's next timeout expires ({@link System#nanoTime()}), Long.MAX_VALUE when none runs. */
    protected abstract long deadline();

    /** When reading the client times out ({@link System#nanoTime()}), Long.MAX_VALUE when it does not: show sess's {@code rq[rx=]}. */
    protected long clientDeadline() {
        return Long.MAX_VALUE;
    }

    /** When reading the server times out, Long.MAX_VALUE when it does not (no server connection): {@code rp[rx=]}. */
    protected long serverDeadline() {
        return Long.MAX_VALUE;
    }

    /** Milliseconds until {@code deadline}, or -1 for none (Long.MAX_VALUE). */
    private static long millisUntil(long deadline) {
        return deadline == Long.MAX_VALUE ? -1 : Math.max(0, (deadline - System.nanoTime()) / 1_000_000);
    }

    /** The server connection's state as HAProxy numbers its stream connectors' (0 none, 2 queued, 5 connecting, 8 established). */
    protected abstract int serverSideState();

    /** The server connection once established, or null. */
    protected abstract Channel serverChannel();

    /** True for an HTTP transaction. */
    protected abstract boolean http();

    /** What {@code show sess} shows of the stream now (taken on its loop, formatted elsewhere). */
    final StreamView view() {
        Frontend fe = frontend();
        Backend be = backend();
        if (be == null && fe != null) {
            be = fe.process() == null ? null : fe.process().backends().get(fe.name()); // a listen section is its own backend
        }
        Server srv = server();
        Channel front = frontChannel();
        Channel back = serverChannel();
        return new StreamView(id, startMillis,
                (System.nanoTime() - startNanos) / 1_000_000, calls,
                front == null ? null : StreamView.unixByListener(front.remoteAddress(), Listener.of(front)),
                front == null ? null : StreamView.unixByListener(front.localAddress(), Listener.of(front)), StreamView.fd(front),
                fe == null ? "<NONE>" : fe.name(), fe == null ? -1 : fe.numericId(), http(),
                be == null ? null : be.name(), be == null ? -1 : be.numericId(),
                srv == null ? null : srv.name(), srv == null ? -1 : srv.numericId(),
                back == null ? null : back.localAddress(), back == null ? null : back.remoteAddress(), StreamView.fd(back),
                serverSideState(), millisUntil(deadline()), millisUntil(clientDeadline()), millisUntil(serverDeadline()));
    }
}
