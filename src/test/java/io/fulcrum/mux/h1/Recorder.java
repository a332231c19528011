package io.fulcrum.mux.h1;

import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.ResponseHead;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A sink that records what a parser finds: the events (consecutive data merged, so that any split of the input
 * records the same), and the messages re-encoded as Fulcrum forwards them (head, body re-framed, trailers).
 */
final class Recorder implements MessageSink {
    final List<String> events = new ArrayList<>();
    final List<HttpHead> heads = new ArrayList<>();
    private final ByteBuf wire = Unpooled.buffer();
    private HttpHead current;
    private boolean trailersSeen;
    int ends;

    @Override
    public void head(HttpHead head) {
        heads.add(head);
        current = head;
        trailersSeen = false;
        String line = head instanceof ResponseHead r ? r.status() + " " + r.reason() : head.toString().split("\n")[0];
        events.add("head " + line + " v" + head.version() + " len " + head.bodyLength()
                + (head.closeAfter() ? " close" : "") + " [" + head.headers().toString().replace("\n", "; ") + "]");
        H1Encoder.writeHead(head, wire);
        if (head.closeAfter()) {
            wire.writeBytes(ascii("[close]"));
        }
    }

    @Override
    public void data(ByteBuf data) {
        try {
            String text = data.toString(StandardCharsets.ISO_8859_1);
            int last = events.size() - 1;
            if (last >= 0 && events.get(last).startsWith("data ")) {
                events.set(last, events.get(last) + text);
            } else {
                events.add("data " + text);
            }
            if (current.bodyLength() == HttpHead.CHUNKED) {
                ByteBuf size = H1Encoder.chunkHeader(data.readableBytes(), wire.alloc());
                wire.writeBytes(size);
                size.release();
                wire.writeBytes(data, data.readerIndex(), data.readableBytes());
                wire.writeBytes(H1Encoder.crlf());
            } else {
                wire.writeBytes(data, data.readerIndex(), data.readableBytes());
            }
        } finally {
            data.release();
        }
    }

    @Override
    public void trailers(HttpHeaders trailers) {
        trailersSeen = true;
        events.add("trailers [" + trailers.toString().replace("\n", "; ") + "]");
        ByteBuf last = H1Encoder.lastChunk(trailers, wire.alloc());
        wire.writeBytes(last);
        last.release();
    }

    @Override
    public void end() {
        ends++;
        events.add("end");
        if (current.bodyLength() == HttpHead.CHUNKED && !trailersSeen) {
            ByteBuf last = H1Encoder.lastChunk(null, wire.alloc());
            wire.writeBytes(last);
            last.release();
        }
    }

    /** The messages as Fulcrum would forward them, "[close]" after a head that closes the connection after. */
    String wire() {
        return wire.toString(StandardCharsets.ISO_8859_1);
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
