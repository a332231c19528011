package io.fulcrum.auth;

import io.fulcrum.cfg.ConfigModel;

import java.util.HashMap;
import java.util.Map;

/** The userlists of a configuration, by name. */
public final class UserlistTable {
    final Map<String, Userlist> lists = new HashMap<>();

    public static UserlistTable of(ConfigModel model) {
        return model.part(UserlistTable.class, UserlistTable::new);
    }
}
