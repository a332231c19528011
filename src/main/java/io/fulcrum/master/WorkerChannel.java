package io.fulcrum.master;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Source;
import io.fulcrum.cli.CliSettings;
import io.fulcrum.conn.AddressParser;
import io.fulcrum.listener.BindSpec;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A worker's side of its master's private channels ({@code --mworker-channels DIR}): an admin CLI socket,
 * {@code DIR/<pid>.sock}, that the master CLI relays commands to (HAProxy uses a socketpair), and a connection
 * to {@code DIR/master.sock} that says the worker serves and, when it ends, that the master is gone.
 */
public final class WorkerChannel {
    static final String MASTER = "master.sock";

    private final SocketChannel channel;

    private WorkerChannel(SocketChannel channel) {
        this.channel = channel;
    }

    /**
     * Before the listeners are bound (and before {@code chroot} and {@code user}, after which the master's
     * directory may be out of reach): the private CLI socket joins the stats sockets, the channel connects.
     */
    public static WorkerChannel open(ConfigModel model, Path channels) throws IOException, ConfigException {
        String path = Worker.cli(channels, ProcessHandle.current().pid()).toString();
        BindSpec socket = new BindSpec(new Source("master channel", 0), path, AddressParser.listeners(path));
        socket.number(1);
        CliSettings.of(model).addPrivateSocket(socket);
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            ch.connect(UnixDomainSocketAddress.of(channels.resolve(MASTER)));
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        return new WorkerChannel(ch);
    }

    /**
     * Once serving: tells the master, then watches the channel; {@code masterGone} runs when the master has
     * exited (HAProxy's workers leave with their master).
     */
    public void ready(Runnable masterGone) {
        Thread t = new Thread(() -> {
            ByteBuffer b = ByteBuffer.allocate(64);
            try (channel) {
                channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)));
                while (channel.read(b.clear()) >= 0) {
                    // the master never writes: only the end matters
                }
            } catch (IOException e) {
                // the channel broke: as an end
            }
            masterGone.run();
        }, "master-channel");
        t.setDaemon(true);
        t.start();
    }
}
