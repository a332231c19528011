package io.fulcrum.cfg;

/**
 * One word of a configuration line after quote removal, escapes and environment expansion.
 *
 * @param text   the word's value
 * @param column the 0-based offset in the raw line where the word starts (used for carets)
 */
public record Token(String text, int column) {
}
