package io.fulcrum.peers;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Both peers connect at once: the session this process opened is established when the other's hello arrives. A live
 * hello replaces it, as HAProxy does; a hello read together with its connection's end (the peer closed that connection
 * when it kept ours) must not, or both sessions die and what was sent on the kept one is sent again later.
 */
class PeerCollisionTest {
    @TempDir
    static Path dir;
    private PeersRuntime section;
    private PeerLink other;
    private EmbeddedChannel ours;
    private PeerSession kept;
    private EmbeddedChannel theirs;

    @BeforeEach
    void open() throws IOException {
        section = Loaded.mesh(dir, "");
        ours = new EmbeddedChannel();
        section.share(ours.eventLoop());
        other = section.link("other");
        kept = new PeerSession(section, other);
        other.session = kept; // as PeersRuntime.connect does
        ours.pipeline().addLast(kept);
        ours.writeInbound(text("200\n"));
        assertThat(kept.established()).isTrue();
        theirs = new EmbeddedChannel();
        theirs.pipeline().addLast(new PeerSession(section, null));
    }

    @AfterEach
    void close() {
        ours.finishAndReleaseAll();
        theirs.finishAndReleaseAll();
    }

    private static ByteBuf text(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }

    @Test
    void liveHelloReplacesTheSession() {
        theirs.writeInbound(text("HAProxyS 2.1\nme\nother 123 1\n"));
        ByteBuf status = theirs.readOutbound();
        assertThat(status.toString(StandardCharsets.ISO_8859_1)).isEqualTo("200\n");
        status.release();
        assertThat(other.session).isNotSameAs(kept);
        assertThat(other.collisions).isEqualTo(1);
        assertThat(ours.isActive()).isFalse();
    }

    @Test
    void helloOfAClosedConnectionDoesNotReplaceTheSession() {
        // The hello and the connection's end come in one read: the pipeline sees the bytes, then the channel closes.
        theirs.pipeline().fireChannelRead(text("HAProxyS 2.1\nme\nother 123 1\n"));
        theirs.unsafe().close(theirs.voidPromise()); // as the transport does on a read of 0 (EmbeddedChannel's close runs the tasks first)
        theirs.runPendingTasks();
        ours.runPendingTasks();
        assertThat(other.session).isSameAs(kept);
        assertThat(other.collisions).isZero();
        assertThat(ours.isActive()).isTrue();
        assertThat(kept.established()).isTrue();
    }
}
