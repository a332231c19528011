package io.fulcrum.proxy;

import io.fulcrum.cfg.Source;

/** A backend named by {@code default_backend} or {@code use_backend}, with where it was named. */
public record BackendRef(String name, Source source) {
}
