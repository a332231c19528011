package io.fulcrum.cfg;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The keywords of one context (the global section, proxy sections, bind options, server options...),
 * filled by every subsystem's {@link Module} and looked up by the section parsers. An entry carries
 * flags whose meaning belongs to the context (for proxies: which kinds of proxy accept it).
 *
 * @param <C> what the keywords of this table configure
 */
public final class KeywordTable<C> {

    /** One registered keyword. */
    public record Entry<C>(String name, int flags, Keyword<C> parser) {
    }

    private final String context;
    private final String prefix;
    private final Map<String, Entry<C>> entries = new TreeMap<>();

    /**
     * @param context the HAProxy name of the context, used to find unsupported keywords
     * @param prefix  the words written before this table's keywords ("option "), for messages
     */
    public KeywordTable(String context, String prefix) {
        this.context = context;
        this.prefix = prefix;
    }

    public String context() {
        return context;
    }

    public void add(String name, Keyword<C> parser) {
        add(name, 0, parser);
    }

    public void add(String name, int flags, Keyword<C> parser) {
        if (entries.putIfAbsent(name, new Entry<>(name, flags, parser)) != null) {
            throw new IllegalStateException("keyword '" + name + "' registered twice in " + context);
        }
    }

    /** The entry for {@code name}, or null. */
    public Entry<C> find(String name) {
        return entries.get(name);
    }

    public List<String> names() {
        return Collections.unmodifiableList(new ArrayList<>(entries.keySet()));
    }

    /**
     * The error for a keyword that is not in this table: "not supported yet" when HAProxy knows it,
     * else "unknown" with the closest known keyword as a suggestion.
     *
     * @param what HAProxy's message for an unknown keyword, e.g. "unknown keyword 'foo' in 'global' section"
     */
    public ConfigException unknown(String name, String what) {
        if (HaproxyKeywords.knows(context, name)) {
            return new ConfigException("'" + prefix + name + "' is an HAProxy keyword that Fulcrum does not support yet.");
        }
        List<String> candidates = new ArrayList<>(entries.keySet());
        candidates.addAll(HaproxyKeywords.all(context));
        String best = Suggestions.closest(name, candidates);
        return new ConfigException(best == null ? what : what + "; did you mean '" + best + "' maybe ?");
    }
}
