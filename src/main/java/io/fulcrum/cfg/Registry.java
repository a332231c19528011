package io.fulcrum.cfg;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where modules register what they own: section types by keyword, keyword tables (shared by name, so
 * that a keyword of one context can be added by any module), and whole-configuration checks.
 */
public final class Registry {
    private final Map<String, SectionType> sections = new LinkedHashMap<>();
    private final Map<TableKey<?>, KeywordTable<?>> tables = new LinkedHashMap<>();
    private final List<ConfigCheck> checks = new ArrayList<>();
    private final List<ConfigCheck> lastChecks = new ArrayList<>();
    private final Map<Class<?>, Object> components = new LinkedHashMap<>();
    private ConfigLine parsing;
    private ConfigLine section;

    /**
     * Identifies a keyword table and the type it configures.
     *
     * @param context the HAProxy name of the context ("global", "proxy", "bind", "server", "option"...)
     * @param prefix  the words written before the table's keywords ("option ", "timeout "), for messages
     */
    public record TableKey<C>(String context, String prefix) {
        public TableKey(String context) {
            this(context, "");
        }
    }

    public void section(String keyword, SectionType type) {
        if (sections.putIfAbsent(keyword, type) != null) {
            throw new IllegalStateException("section '" + keyword + "' registered twice");
        }
    }

    public SectionType section(String keyword) {
        return sections.get(keyword);
    }

    public List<String> sectionNames() {
        return List.copyOf(sections.keySet());
    }

    /** The table for {@code key}, created empty on first use. */
    @SuppressWarnings("unchecked")
    public <C> KeywordTable<C> table(TableKey<C> key) {
        return (KeywordTable<C>) tables.computeIfAbsent(key, k -> new KeywordTable<C>(k.context(), k.prefix()));
    }

    public Map<TableKey<?>, KeywordTable<?>> tables() {
        return Collections.unmodifiableMap(tables);
    }

    /**
     * A catalog that modules fill and keyword parsers consult (the sample fetches and converters...),
     * created by {@code create} on first use, so that cfg does not need to know it.
     */
    public <T> T component(Class<T> type, java.util.function.Supplier<T> create) {
        Object c = components.get(type);
        if (c == null) {
            // Not computeIfAbsent: a component may be built from another one.
            c = create.get();
            components.put(type, c);
        }
        return type.cast(c);
    }

    /**
     * The configuration line being parsed, or null: for what records where it is used without being
     * handed the line (a map file read by a converter lists the lines that use it, as HAProxy's CLI shows).
     */
    public Source parsing() {
        return parsing == null ? null : parsing.source();
    }

    /** The configuration line being parsed, or null. */
    public ConfigLine parsingLine() {
        return parsing;
    }

    /** The header line of the section being parsed, or null outside a section. */
    public Source parsingSection() {
        return section == null ? null : section.source();
    }

    /** The keyword of the section being parsed ("global", "frontend"...), or null outside a section. */
    public String parsingSectionKeyword() {
        return section == null ? null : section.keyword();
    }

    void parsing(ConfigLine line, boolean header) {
        parsing = line;
        if (header) {
            section = line;
        }
    }

    public void check(ConfigCheck check) {
        checks.add(check);
    }

    /** A check that runs after every other one: for what reviews what the other checks built. */
    public void checkLast(ConfigCheck check) {
        lastChecks.add(check);
    }

    /** The checks, in their order of registration, then the last ones. */
    public List<ConfigCheck> checks() {
        List<ConfigCheck> all = new ArrayList<>(checks);
        all.addAll(lastChecks);
        return Collections.unmodifiableList(all);
    }

    /** A registry filled by {@code modules}. */
    public static Registry of(List<Module> modules) {
        Registry r = new Registry();
        modules.forEach(m -> m.register(r));
        return r;
    }
}
