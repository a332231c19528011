package io.fulcrum.peers;

import io.fulcrum.conn.InetText;
import io.fulcrum.stick.Entry;
import io.fulcrum.stick.StickTable;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.ScheduledFuture;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One connection with a peer, either way: the handshake (a three-line hello, a status line), then the messages. It
 * learns the updates the peer pushes and acknowledges them after each read, pushes the local updates after its
 * cursors, teaches the whole tables when asked to resynchronize, and asks for that itself when its section wants it.
 * Runs on its section's event loop, like every other session of the section.
 */
final class PeerSession extends ByteToMessageDecoder {
    /** HAProxy's peers time out a handshake after 5 s. */
    private static final long HANDSHAKE_MS = 5000;
    /** A hello line is short: more bytes without a line end are not a peer. */
    private static final int MAX_LINE = 1024;

    private enum State { HELLO_VERSION, HELLO_HOST, HELLO_PEER, ADMITTING, STATUS, READY, CLOSED }

    /** A table the peer defined: ours of that name, and what its updates carry. */
    private record Defined(int index, TableCodec.Remote remote) {
    }

    private final PeersRuntime section;
    private final boolean outgoing;
    private PeerLink link;
    private volatile State state; // read by show info's count from another thread
    private ChannelHandlerContext ctx;
    private int minor;
    /** The link's cursors, once the handshake is over. */
    private PeerLink.Cursor[] cursors;
    private final Map<Long, Defined> defined = new HashMap<>();
    private Defined current;
    private int lastLocalTable = -1;
    private boolean teaching;
    /** The server keys the peer sent, by cache slot (its TX dictionary, HAProxy's RX one). */
    private final String[] dict = new String[TxDictionary.SIZE];
    private final TxDictionary txDict = new TxDictionary();
    private final ByteBuf scratch = Unpooled.buffer(256);
    private ScheduledFuture<?> handshakeTimeout;
    long lastRead;
    long lastWrite;

    /** A session this process opens to {@code link}, or one it accepted ({@code link} null until the hello names it). */
    PeerSession(PeersRuntime section, PeerLink link) {
        this.section = section;
        this.link = link;
        this.outgoing = link != null;
        this.state = outgoing ? State.STATUS : State.HELLO_VERSION;
    }

    PeerLink link() {
        return link;
    }

    /** Where the session stands with table {@code i} (null before the handshake ends). */
    PeerLink.Cursor cursor(int i) {
        return cursors == null ? null : cursors[i];
    }

    /** The table the peer's updates go to now, or -1. */
    int remoteTable() {
        return current == null ? -1 : current.index();
    }

    /** The table of the last update pushed, or -1. */
    int lastLocalTable() {
        return lastLocalTable;
    }

    /** An accepted connection's addresses, "src=<the peer's> addr=<ours>", as {@code show peers} prints them. */
    String addresses() {
        return "src=" + InetText.withPort(ctx.channel().remoteAddress()) + " addr=" + InetText.withPort(ctx.channel().localAddress());
    }

    /** Whether the connection is over TLS. */
    boolean tls() {
        return ctx.pipeline().get(SslHandler.class) != null;
    }

    /** Whether it is sending the whole tables (a resync) and not confirmed yet. */
    /** The server keys sent to the peer ({@code show peers dict}). */
    TxDictionary txDictionary() {
        return txDict;
    }

    /** The server key the peer sent in cache slot {@code i}, or null ({@code show peers dict}). */
    String received(int i) {
        return dict[i];
    }

    boolean teaching() {
        return teaching;
    }

    boolean established() {
        return state == State.READY;
    }

    boolean outgoing() {
        return outgoing;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        if (ctx.channel().isActive()) {
            begin(ctx); // added once the TLS handshake of an accepted connection is done
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        begin(ctx);
        super.channelActive(ctx);
    }

    /** The connection is up: the handshake of the protocol must end in 5 s; an initiating peer says hello. */
    private void begin(ChannelHandlerContext ctx) {
        handshakeTimeout = ctx.executor().schedule(() -> {
            if (state != State.READY) {
                ctx.close();
            }
        }, HANDSHAKE_MS, TimeUnit.MILLISECONDS);
        if (outgoing) {
            link.status = Wire.STATUS_CONNECTED;
            ctx.writeAndFlush(Unpooled.copiedBuffer(Wire.hello(link.name, section.localName, link.minor), StandardCharsets.ISO_8859_1));
        }
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        try {
            while (in.isReadable() && state != State.CLOSED && state != State.ADMITTING) {
                if (state == State.READY) {
                    if (!message(in)) {
                        return;
                    }
                    lastRead = section.now();
                } else {
                    String line = line(in);
                    if (line == null) {
                        return;
                    }
                    handshake(line);
                }
            }
        } catch (VarInt.Malformed e) {
            error(Wire.ERROR_PROTOCOL);
        } finally {
            if (state == State.CLOSED) {
                in.skipBytes(in.readableBytes());
            }
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        if (state == State.READY) {
            acknowledge();
            push();
        }
        super.channelReadComplete(ctx);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isWritable()) {
            push();
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        scratch.release();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        state = State.CLOSED;
        if (handshakeTimeout != null) {
            handshakeTimeout.cancel(false);
        }
        section.closed(this);
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close(); // a reset peer: the section connects again
    }

    void close() {
        state = State.CLOSED;
        ctx.close();
    }

    // --- handshake --------------------------------------------------------------------------------------

    /** A line without its end ("\n" or "\r\n"), or null until one is complete. */
    private String line(ByteBuf in) {
        int end = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\n');
        if (end < 0) {
            if (in.readableBytes() > MAX_LINE) {
                close();
            }
            return null;
        }
        int len = end - in.readerIndex();
        String line = in.readCharSequence(len, StandardCharsets.ISO_8859_1).toString();
        in.skipBytes(1);
        return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    }

    private void handshake(String line) {
        switch (state) {
            case HELLO_VERSION -> {
                if (!line.startsWith(Wire.PROTOCOL + " ")) {
                    refuse(Wire.STATUS_PROTOCOL);
                    return;
                }
                String v = line.substring(Wire.PROTOCOL.length() + 1);
                int dot = v.indexOf('.');
                int major = dot > 0 ? number(v.substring(0, dot)) : -1;
                minor = dot > 0 ? number(v.substring(dot + 1)) : -1;
                if (major != Wire.MAJOR || minor < 0 || minor > Wire.MINOR) {
                    refuse(Wire.STATUS_VERSION);
                    return;
                }
                state = State.HELLO_HOST;
            }
            case HELLO_HOST -> {
                if (!line.equals(section.localName)) {
                    refuse(Wire.STATUS_HOST);
                    return;
                }
                state = State.HELLO_PEER;
            }
            case HELLO_PEER -> {
                int space = line.indexOf(' ');
                if (space < 0) {
                    refuse(Wire.STATUS_PROTOCOL);
                    return;
                }
                PeerLink l = section.link(line.substring(0, space));
                if (l == null) {
                    refuse(Wire.STATUS_PEER);
                    return;
                }
                state = State.ADMITTING;
                ctx.executor().execute(() -> admit(l));
            }
            case STATUS -> {
                link.status = number(line);
                link.lastHandshake = section.now();
                if (link.status != Wire.STATUS_OK) {
                    if (link.status == Wire.STATUS_VERSION) {
                        link.minor = 0;
                    }
                    close();
                    return;
                }
                minor = link.minor;
                ready();
            }
            default -> throw new IllegalStateException(state.name());
        }
    }

    /**
     * Takes the session named by a hello, after the rest of the connection's input: a hello read together with the
     * connection's end comes from a session its peer already gave up (it met ours at the same time and closed this one),
     * and must not replace the session the peer kept.
     */
    private void admit(PeerLink l) {
        if (state != State.ADMITTING || !ctx.channel().isActive()) {
            return;
        }
        int status = section.accepted(this, l);
        if (status != Wire.STATUS_OK) {
            refuse(status);
            return;
        }
        link = l;
        link.minor = minor == 0 ? 0 : Wire.MINOR;
        ctx.writeAndFlush(Unpooled.copiedBuffer(Wire.STATUS_OK + "\n", StandardCharsets.ISO_8859_1));
        ready();
    }

    private static int number(String s) {
        if (s.isEmpty() || s.length() > 9 || !s.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        return Integer.parseInt(s);
    }

    /** Answers a hello with an error status and closes, as HAProxy does. */
    private void refuse(int status) {
        state = State.CLOSED;
        ctx.writeAndFlush(Unpooled.copiedBuffer(status + "\n", StandardCharsets.ISO_8859_1)).addListener(ChannelFutureListener.CLOSE);
    }

    private void ready() {
        state = State.READY;
        handshakeTimeout.cancel(false);
        link.status = Wire.STATUS_OK;
        link.lastHandshake = section.now();
        link.notUpToDate = false; // each session may be asked for a resync again, as in HAProxy
        lastRead = lastWrite = section.now();
        cursors = link.cursors;
        for (int i = 0; i < cursors.length; i++) {
            cursors[i].begin(link.acked[i]);
        }
        section.established(this);
        if (outgoing && link.local) {
            teach(); // a soft-stopping process teaches its successor unasked
        }
        push();
    }

    // --- messages ---------------------------------------------------------------------------------------

    /** Handles one whole message at the reader index; false when it is not complete yet (nothing consumed). */
    private boolean message(ByteBuf in) throws VarInt.Malformed {
        if (in.readableBytes() < 2) {
            return false;
        }
        int start = in.readerIndex();
        int cls = in.getUnsignedByte(start);
        int type = in.getUnsignedByte(start + 1);
        if (type < Wire.WITH_DATA) {
            in.skipBytes(2);
            if (cls == Wire.CLASS_CONTROL) {
                control(type);
            } else if (cls == Wire.CLASS_RESERVED) {
                error(Wire.ERROR_PROTOCOL);
            }
            return true;
        }
        in.skipBytes(2);
        if (!VarInt.complete(in)) {
            in.readerIndex(start);
            return false;
        }
        long len = VarInt.read(in);
        if (len > Wire.MAX_MESSAGE) {
            error(Wire.ERROR_SIZE);
            return true;
        }
        if (in.readableBytes() < len) {
            in.readerIndex(start);
            return false;
        }
        ByteBuf body = in.readSlice((int) len);
        if (cls == Wire.CLASS_TABLE) {
            table(type, body);
        } else if (cls == Wire.CLASS_RESERVED) {
            error(Wire.ERROR_PROTOCOL);
        }
        return true;
    }

    private void control(int type) {
        switch (type) {
            case Wire.RESYNC_REQUEST -> teach();
            case Wire.RESYNC_FINISHED, Wire.RESYNC_PARTIAL -> {
                section.learned(this, type == Wire.RESYNC_FINISHED);
                send(Wire.CLASS_CONTROL, Wire.RESYNC_CONFIRM);
            }
            case Wire.RESYNC_CONFIRM -> {
                teaching = false;
                for (int i = 0; i < cursors.length; i++) { // as HAProxy: the lesson is acknowledged whole
                    link.acked[i] = Math.max(link.acked[i], cursors[i].teachingOrigin);
                }
                if (outgoing && link.local) {
                    close(); // the new process learned everything from this soft-stopping one
                }
            }
            case Wire.HEARTBEAT -> link.heartbeatsReceived++;
            default -> {
                // Unknown control messages are ignored, as HAProxy does.
            }
        }
    }

    private void table(int type, ByteBuf body) throws VarInt.Malformed {
        switch (type) {
            case Wire.DEFINE -> define(body);
            case Wire.SWITCH -> current = defined.get(VarInt.read(body));
            case Wire.UPDATE, Wire.INC_UPDATE, Wire.UPDATE_TIMED, Wire.INC_UPDATE_TIMED -> update(type, body);
            case Wire.ACK -> {
                long id = VarInt.read(body);
                if (body.readableBytes() < 4) {
                    throw new VarInt.Malformed();
                }
                long update = body.readUnsignedInt();
                if (!teaching && id >= 1 && id <= cursors.length) {
                    link.acked[(int) id - 1] = update;
                }
            }
            default -> {
                // Unknown table messages are skipped.
            }
        }
    }

    private void define(ByteBuf body) throws VarInt.Malformed {
        long remoteId = VarInt.read(body);
        long nameLen = VarInt.read(body);
        if (nameLen == 0 || nameLen >= body.readableBytes()) {
            throw new VarInt.Malformed();
        }
        String name = body.readCharSequence((int) nameLen, StandardCharsets.ISO_8859_1).toString();
        current = null;
        defined.remove(remoteId);
        int index = section.tableIndex(name);
        if (index < 0) {
            return; // a table this process does not share: its updates are skipped
        }
        TableCodec.Remote remote = section.tables.get(index).codec.remote(body);
        if (remote == null) {
            return;
        }
        current = new Defined(index, remote);
        defined.put(remoteId, current);
        cursors[index].remoteId = remoteId;
        cursors[index].remoteTypes = remote.types();
    }

    private void update(int type, ByteBuf body) throws VarInt.Malformed {
        if (current == null) {
            return;
        }
        PeerLink.Cursor c = cursors[current.index()];
        boolean withId = type == Wire.UPDATE || type == Wire.UPDATE_TIMED;
        boolean timed = type == Wire.UPDATE_TIMED || type == Wire.INC_UPDATE_TIMED;
        if (body.readableBytes() < (withId ? 4 : 0) + (timed ? 4 : 0)) {
            throw new VarInt.Malformed();
        }
        c.lastGet = withId ? body.readUnsignedInt() : (c.lastGet + 1) & 0xffffffffL;
        SharedTable st = section.tables.get(current.index());
        StickTable t = st.table;
        long expire = timed ? body.readUnsignedInt() : t.expire();
        Object key = st.codec.readKey(body);
        Entry e = t.learn(key, expire);
        st.codec.readData(body, current.remote(), e, StickTable.now(), dict);
        st.learned();
    }

    /** Acknowledges what was learned since the last acknowledgement, table by table. */
    private void acknowledge() {
        for (int i = 0; i < cursors.length; i++) {
            PeerLink.Cursor c = cursors[i];
            if (c.lastGet != c.lastAcked && c.remoteId != 0) {
                VarInt.write(scratch, c.remoteId);
                scratch.writeInt((int) c.lastGet);
                writeMessage(Wire.ACK);
                c.lastAcked = c.lastGet;
            }
        }
        ctx.flush();
    }

    /**
     * Pushes the local updates after each table's cursor, while the connection takes them, {@code
     * tune.peers.max-updates-at-once} at a time: the rest follows once the loop has run its other tasks.
     */
    void push() {
        if (state != State.READY || section.learningFrom(this)) {
            return;
        }
        int budget = section.maxUpdatesAtOnce;
        for (int i = 0; i < cursors.length; i++) {
            SharedTable st = section.tables.get(i);
            PeerLink.Cursor c = cursors[i];
            boolean first = true;
            for (Map.Entry<Long, Entry> u : st.after(c.lastPushed).entrySet()) {
                if (!ctx.channel().isWritable()) {
                    ctx.flush();
                    return; // resumed when it is writable again
                }
                if (budget-- == 0) {
                    ctx.flush();
                    ctx.executor().execute(this::push);
                    return;
                }
                long id = u.getKey();
                Entry e = u.getValue();
                if (st.live(e)) {
                    if (lastLocalTable != i) {
                        announce(st);
                        lastLocalTable = i;
                    }
                    writeUpdate(st, e, first || id != c.lastPushed + 1 ? id : -1, false);
                    first = false;
                } else {
                    first = true;
                }
                c.lastPushed = id;
            }
        }
        ctx.flush();
    }

    /** A resync request: every live entry of every table, with its expiry, then "finished" (or "partial"). */
    private void teach() {
        teaching = true;
        for (int i = 0; i < cursors.length; i++) {
            SharedTable st = section.tables.get(i);
            announce(st);
            lastLocalTable = i;
            long id = st.localUpdate();
            cursors[i].teachingOrigin = id;
            for (Entry e : st.table.snapshot()) {
                writeUpdate(st, e, id, minor > 0);
            }
            cursors[i].lastPushed = Math.max(cursors[i].lastPushed, id);
        }
        send(Wire.CLASS_CONTROL, section.upToDate() ? Wire.RESYNC_FINISHED : Wire.RESYNC_PARTIAL);
    }

    private void announce(SharedTable st) {
        st.codec.define(scratch, st.id);
        writeMessage(Wire.DEFINE);
    }

    /** An update of {@code e}: with its id, or incremental when {@code id} is -1; timed ones carry the expiry. */
    private void writeUpdate(SharedTable st, Entry e, long id, boolean timed) {
        if (id >= 0) {
            scratch.writeInt((int) id);
        }
        if (timed) {
            scratch.writeInt((int) st.table.expiresIn(e));
        }
        st.codec.writeKey(scratch, e.key());
        st.codec.writeData(scratch, e, StickTable.now(), txDict);
        writeMessage(id >= 0 ? (timed ? Wire.UPDATE_TIMED : Wire.UPDATE) : (timed ? Wire.INC_UPDATE_TIMED : Wire.INC_UPDATE));
    }

    /** Writes the table message whose data is in the scratch buffer. */
    private void writeMessage(int type) {
        ByteBuf out = ctx.alloc().buffer(scratch.readableBytes() + 7);
        Wire.message(out, type, scratch);
        scratch.clear();
        ctx.write(out);
        lastWrite = section.now();
    }

    void heartbeat() {
        link.heartbeatsSent++;
        send(Wire.CLASS_CONTROL, Wire.HEARTBEAT);
    }

    /** Asks the peer for all its entries (the resync at start). */
    void requestResync() {
        send(Wire.CLASS_CONTROL, Wire.RESYNC_REQUEST);
    }

    private void send(int cls, int type) {
        ByteBuf out = ctx.alloc().buffer(2);
        Wire.control(out, cls, type);
        ctx.writeAndFlush(out);
        lastWrite = section.now();
    }

    /** Reports an error message and closes, as HAProxy does on a malformed or oversized message. */
    private void error(int type) {
        if (type == Wire.ERROR_PROTOCOL) {
            link.protocolErrors++;
        }
        state = State.CLOSED;
        ByteBuf out = ctx.alloc().buffer(2);
        Wire.control(out, Wire.CLASS_ERROR, type);
        ctx.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE);
    }
}
