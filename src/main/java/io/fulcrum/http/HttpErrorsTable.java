package io.fulcrum.http;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Source;

import java.util.HashMap;
import java.util.Map;

/** The {@code http-errors} sections of a configuration: named sets of error files that proxies import. */
public final class HttpErrorsTable {

    /** One {@code http-errors} section and its messages by status. */
    static final class Section {
        final Source source;
        final Map<Integer, ErrorMessage> messages = new HashMap<>();

        Section(Source source) {
            this.source = source;
        }
    }

    private final Map<String, Section> sections = new HashMap<>();

    public static HttpErrorsTable of(ConfigModel model) {
        return model.part(HttpErrorsTable.class, HttpErrorsTable::new);
    }

    /** A new section; a name may be used once. */
    Section add(String name, Source source) throws ConfigException {
        Section previous = sections.get(name);
        if (previous != null) {
            throw new ConfigException("http-errors section '" + name + "' already exists (declared at " + previous.source + ").");
        }
        Section s = new Section(source);
        sections.put(name, s);
        return s;
    }

    /** The section named {@code name}, or null. */
    Section find(String name) {
        return sections.get(name);
    }

    /** True when an {@code http-errors} section is named {@code name}. */
    public boolean has(String name) {
        return sections.containsKey(name);
    }

    /** The message the section {@code name} declares for {@code status}, or null. */
    public ErrorMessage message(String name, int status) {
        Section s = sections.get(name);
        return s == null ? null : s.messages.get(status);
    }
}
