package io.fulcrum.cfg;

/** Parses the body lines of one section ("global", "frontend foo", ...), opened by its {@link SectionType}. */
public interface SectionParser {

    /** One line of the section's body. */
    void line(ConfigLine line) throws ConfigException;

    /** The section ended (another one starts, or the last file ended). */
    default void end() throws ConfigException {
    }
}
