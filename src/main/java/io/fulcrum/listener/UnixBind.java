package io.fulcrum.listener;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.conn.Endpoint;

/**
 * {@code unix-bind [prefix <prefix>] [mode <mode>] [user <user>] [uid <uid>] [group <group>] [gid <gid>]}: what the
 * unix sockets of the proxies' bind lines get unless their line says otherwise; the stats sockets are left alone, as
 * in HAProxy. The prefix is written before each path as is (HAProxy does not join paths: "/run/" and "/x.sock" make
 * "/run//x.sock"), abstract sockets excepted.
 */
public final class UnixBind {
    private String prefix;
    /** 0: unset, as HAProxy's. */
    private int mode;
    private int uid = -1;
    private int gid = -1;

    /** The settings recorded in {@code model}. */
    public static UnixBind of(ConfigModel model) {
        return model.part(UnixBind.class, UnixBind::new);
    }

    /** Reads one line; its numbers as C reads them (mode with strtol in base 8, ids with atol: "x" is 0). */
    public void parse(ConfigLine l) throws ConfigException {
        int i = 1;
        while (i < l.size()) {
            String opt = l.arg(i);
            String value = l.arg(i + 1);
            switch (opt) {
                case "prefix" -> {
                    if (prefix != null) {
                        l.alertNotCounted("unix-bind 'prefix' already specified. Continuing.");
                    } else if (value.isEmpty()) {
                        throw new ConfigException("unix_bind 'prefix' expects a path as an argument.");
                    } else {
                        prefix = value;
                    }
                }
                case "mode" -> mode = octal(value);
                case "uid" -> uid = (int) Args.atol(value);
                case "gid" -> gid = (int) Args.atol(value);
                case "user" -> uid = Accounts.user(value).orElseThrow(() -> unknown(value, "user"));
                case "group" -> gid = Accounts.group(value).orElseThrow(() -> unknown(value, "group"));
                default -> throw new ConfigException("'unix-bind' only supports the 'prefix', 'mode', 'uid', 'gid', 'user' and 'group' options.");
            }
            i += 2;
        }
    }

    /** Gives {@code bind}'s unix sockets the prefix, and the mode and owner its line does not set. */
    void apply(BindSpec bind) {
        if (prefix != null) {
            bind.endpoints(bind.endpoints().stream().map(e -> e instanceof Endpoint.Unix u && !u.abstractNamespace()
                    ? new Endpoint.Unix(prefix + u.path(), false) : e).toList());
        }
        if (bind.unixMode < 0 && mode != 0) {
            bind.unixMode = mode;
        }
        if (bind.uid < 0) {
            bind.uid = uid;
        }
        if (bind.gid < 0) {
            bind.gid = gid;
        }
    }

    private static ConfigException unknown(String name, String what) {
        return new ConfigException("'unix-bind' : '" + name + "' unknown " + what + ".");
    }

    /** C's strtol(s, NULL, 8) on a mode: the leading octal digits, 0 when none. */
    private static int octal(String s) {
        int n = 0;
        for (int i = 0; i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '7' && n < 0_7777_7777; i++) {
            n = n * 8 + (s.charAt(i) - '0');
        }
        return n;
    }
}
