package io.fulcrum.cfg;

/** A kind of section, registered under its keyword ("global", "defaults", "backend"...). */
@FunctionalInterface
public interface SectionType {

    /** Opens a section from its header line, recording what it builds in {@code model}. */
    SectionParser open(ConfigLine header, ConfigModel model) throws ConfigException;
}
