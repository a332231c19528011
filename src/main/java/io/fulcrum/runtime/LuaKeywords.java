package io.fulcrum.runtime;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.runtime.GlobalModule.GlobalContext;

import java.util.List;

/**
 * The global keywords of HAProxy's Lua: Fulcrum runs no Lua, so a configuration that loads a script cannot behave as
 * it would under HAProxy. They are refused with a message that says so, rather than the generic "not supported yet".
 */
final class LuaKeywords {
    private static final List<String> KEYWORDS = List.of("lua-load", "lua-load-per-thread", "lua-prepend-path",
            "tune.lua.forced-yield", "tune.lua.maxmem", "tune.lua.service-timeout", "tune.lua.session-timeout",
            "tune.lua.task-timeout");

    private LuaKeywords() {
    }

    static void register(KeywordTable<GlobalContext> kw) {
        for (String name : KEYWORDS) {
            kw.add(name, (g, l) -> {
                throw new ConfigException("'" + name + "' : Lua is not supported: Fulcrum has no Lua interpreter, so it cannot"
                        + " load or run Lua scripts.");
            });
        }
    }
}
