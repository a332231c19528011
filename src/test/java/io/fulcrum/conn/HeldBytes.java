package io.fulcrum.conn;

import io.fulcrum.sample.TestContext;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;

/** A context whose content rules hold some request bytes, for the fetches that read them. */
final class HeldBytes {
    private HeldBytes() {
    }

    /** A context holding {@code bytes}; {@code waiting}: the content rules may still wait for more. */
    static TestContext holding(String bytes, boolean waiting, boolean[] missing) {
        TestContext ctx = new TestContext() {
            @Override
            public boolean awaitingContent() {
                return waiting;
            }

            @Override
            public void contentMissing() {
                missing[0] = true;
            }
        };
        ctx.requestContent = Unpooled.copiedBuffer(bytes, StandardCharsets.ISO_8859_1);
        return ctx;
    }
}
