package io.fulcrum.stream;

import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cli.CliCommands;

/** Streams: the CLI's view of the live ones ({@code show sess}) and the commands that end them. */
public final class StreamModule implements Module {

    @Override
    public void register(Registry registry) {
        StreamCommands.register(CliCommands.of(registry));
    }
}
