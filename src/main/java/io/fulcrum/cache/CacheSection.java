package io.fulcrum.cache;

import io.fulcrum.cfg.Source;

/**
 * One {@code cache} section (configuration.txt section 6.2.1): its limits as HAProxy 2.6 reads them, and the store
 * built from them once the configuration is read.
 */
final class CacheSection {
    /** HAProxy splits the cache's memory in blocks of 1 kB: sizes are counted in them. */
    static final int BLOCK_SIZE = 1024;
    /** {@code total-max-size} at most: 4095 MB (its size in bytes fits in 32 bits). */
    static final long MAX_MEGABYTES = 4095;
    /** A cache name is cut to 32 characters, as HAProxy's. */
    static final int MAX_NAME = 32;

    final String name;
    final Source source;
    /** {@code total-max-size}, in blocks; 0 until set. */
    long maxBlocks;
    /** {@code max-object-size}, in bytes; 0 until set (then a 256th of the total). */
    long maxObjectSize;
    /** {@code max-age}, in seconds. */
    long maxAge = 60;
    boolean processVary;
    int maxSecondaryEntries = 10;
    /** The store, once the configuration is read. */
    HttpCache store;

    CacheSection(String name, Source source) {
        this.name = name;
        this.source = source;
    }
}
