package io.fulcrum.proxy;

import io.fulcrum.acl.Condition;
import io.fulcrum.cfg.Source;
import io.fulcrum.log.LogFormat;

/**
 * A backend named by {@code default_backend} or {@code use_backend}, with where it was named and, for
 * {@code use_backend}, its condition (null: always).
 *
 * @param dynamic for a name written as a log-format string ({@code use_backend %[...]}), what builds it
 *                for each transaction; else null
 */
public record BackendRef(String name, Source source, Condition condition, LogFormat dynamic) {

    public BackendRef(String name, Source source) {
        this(name, source, null, null);
    }
}
