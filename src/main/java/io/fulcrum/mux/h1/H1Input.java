package io.fulcrum.mux.h1;

import io.netty.buffer.ByteBuf;

/** Accumulates the bytes a parser has not consumed yet. */
final class H1Input {
    private H1Input() {
    }

    /** Appends {@code in} to {@code input}, without copying when {@code input} is used up (the usual case). */
    static ByteBuf append(ByteBuf input, ByteBuf in) {
        if (input == null || !input.isReadable()) {
            if (input != null) {
                input.release();
            }
            return in;
        }
        // A partial head or framing line remains: copy it and the new bytes into one buffer. Body
        // bytes are never left behind (the parser passes them on as they come), so this stays small.
        ByteBuf merged = in.alloc().buffer(input.readableBytes() + in.readableBytes());
        merged.writeBytes(input).writeBytes(in);
        input.release();
        in.release();
        return merged;
    }
}
