package io.fulcrum.stream;

import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.runtime.Services;

/** Streams: the CLI's view of the live ones ({@code show sess}), the commands that end them, {@code option contstats}. */
public final class StreamModule implements Module {

    @Override
    public void register(Registry registry) {
        StreamCommands.register(CliCommands.of(registry));
        registry.check((model, diag) -> Services.of(model).add(new ContinuousStats()));
    }
}
