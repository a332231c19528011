package io.fulcrum.acl;

/**
 * One pattern as written (on the ACL line or in a file), with the "-i" in force where it was read:
 * "-i" applies to the patterns that follow it, not to those before.
 */
public record PatternValue(String text, boolean ignoreCase) {
}
