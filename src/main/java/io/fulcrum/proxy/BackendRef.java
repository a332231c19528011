package io.fulcrum.proxy;

import io.fulcrum.acl.Condition;
import io.fulcrum.cfg.Source;

/**
 * A backend named by {@code default_backend} or {@code use_backend}, with where it was named and, for
 * {@code use_backend}, its condition (null: always).
 */
public record BackendRef(String name, Source source, Condition condition) {

    public BackendRef(String name, Source source) {
        this(name, source, null);
    }
}
