package io.fulcrum.cfg;

import java.util.List;

/**
 * Every keyword HAProxy 2.6 documents, per context, so that a keyword Fulcrum does not implement yet is
 * reported as such rather than as unknown. Loaded from {@code haproxy-keywords.txt} beside this class.
 */
public final class HaproxyKeywords {
    private HaproxyKeywords() {
    }

    /** True when HAProxy documents {@code name} in {@code context}. */
    public static boolean knows(String context, String name) {
        // TODO(helper C): load the inventory.
        return false;
    }

    /** All keywords HAProxy documents in {@code context}. */
    public static List<String> all(String context) {
        return List.of();
    }
}
