package io.fulcrum.stick;

/** Told of every local change of an entry of a table shared with peers; called on any event loop, must not block. */
@FunctionalInterface
public interface Replicator {
    void changed(Entry e);
}
