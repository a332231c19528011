package io.fulcrum.acl;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.http.HttpHead;
import io.fulcrum.log.LogFormat;
import io.fulcrum.rules.ActionArgs;
import io.fulcrum.rules.HttpAction;
import io.fulcrum.rules.HttpActions;
import io.fulcrum.rules.HttpActions.Phase;
import io.fulcrum.rules.HttpTxn;
import io.fulcrum.rules.Verdict;

/**
 * The http-request and http-response actions that change a map or ACL file at run time, as the CLI's
 * "set map"/"add acl"/"del map" do: {@code set-map(<file>) <key fmt> <value fmt>}, {@code add-acl(<file>) <key fmt>},
 * {@code del-map(<file>) <key fmt>} and {@code del-acl(<file>) <key fmt>}. As in HAProxy, a file that no ACL or
 * map loaded is no error: the action then does nothing, and so does an entry that a use of the file refuses.
 */
final class PatternActions {
    private final PatternFiles files;

    private PatternActions(PatternFiles files) {
        this.files = files;
    }

    static void register(HttpActions actions, PatternFiles files) {
        PatternActions p = new PatternActions(files);
        actions.add("set-map(*)", a -> p.change(a, true, (f, key, value) -> f.put(key, value, true)), Phase.REQUEST, Phase.RESPONSE);
        actions.add("add-acl(*)", a -> p.change(a, false, (f, key, value) -> {
            if (!f.isMap()) { // an entry without value would break the map's uses: left alone
                f.put(key, null, false);
            }
        }), Phase.REQUEST, Phase.RESPONSE);
        for (String del : new String[] {"del-map(*)", "del-acl(*)"}) {
            actions.add(del, a -> p.change(a, false, (f, key, value) -> f.remove(PatternFile.keyed(key))), Phase.REQUEST, Phase.RESPONSE);
        }
    }

    @FunctionalInterface
    private interface Change {
        void apply(PatternFile file, String key, String value) throws ConfigException;
    }

    private HttpAction change(ActionArgs a, boolean withValue, Change change) throws ConfigException {
        int wanted = withValue ? 2 : 1;
        if (a.remaining() < wanted) {
            throw new ConfigException("expects exactly " + wanted + " arguments");
        }
        String name = a.parameter() == null ? "" : a.parameter();
        LogFormat key = a.format(a.next());
        LogFormat value = withValue ? a.format(a.next()) : null;
        return new HttpAction() {
            /** Found at the first run: a later line of the configuration may be the one that loads the file. */
            private PatternFile file;

            @Override
            public Verdict run(HttpTxn txn, HttpHead msg) {
                PatternFile f = file != null ? file : (file = files.get(name));
                if (f != null) {
                    try {
                        change.apply(f, key.format(txn), value == null ? null : value.format(txn));
                    } catch (ConfigException refused) {
                        // as HAProxy, an entry that a use of the file cannot compile is not added
                    }
                }
                return Verdict.CONTINUE;
            }
        };
    }
}
