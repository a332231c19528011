package io.fulcrum.sample;

/**
 * The value of a regex argument that does not compile. HAProxy compiles such arguments once the configuration is
 * read, among the argument resolution errors, so the parser keeps the reason ("regex '(a' is invalid (error=...)")
 * for {@link ArgResolution} to report there.
 */
record InvalidRegex(String reason) {
}
