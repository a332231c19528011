package io.fulcrum.rules;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.log.LogFormat;
import io.fulcrum.sample.PcreRegex;
import io.fulcrum.rules.HttpActions.Phase;
import io.netty.util.AsciiString;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** {@code add-header}, {@code set-header}, {@code del-header}, {@code replace-header}, {@code replace-value}. */
final class HeaderActions {
    private HeaderActions() {
    }

    static void register(HttpActions actions) {
        Phase[] all = Phase.values();
        actions.add("add-header", a -> {
            String name = nameAndFormat(a);
            LogFormat value = a.format(a.next());
            return (txn, msg) -> add(txn, msg, name, value.format(txn));
        }, all);
        actions.add("set-header", a -> {
            String name = nameAndFormat(a);
            LogFormat value = a.format(a.next());
            return (txn, msg) -> {
                // The value is computed before the old fields go: it may refer to them.
                String v = value.format(txn);
                // As HAProxy, the old fields go even when the new one then fails to fit, and the new one goes last.
                msg.headers().removeAll(name);
                return add(txn, msg, name, v);
            };
        }, all);
        actions.add("del-header", HeaderActions::delHeader, all);
        actions.add("replace-header", a -> replace(a, false), all);
        actions.add("replace-value", a -> replace(a, true), all);
    }

    /** Adds a field at the end of the head, when it fits. */
    private static Verdict add(HttpTxn txn, HttpHead msg, String name, String value) {
        if (!txn.fits(msg, HttpHead.HTX_BLOCK + name.length() + value.length())) {
            return txn.rewriteFailed();
        }
        msg.headers().add(name, value);
        return Verdict.CONTINUE;
    }

    /** Reads the header name of a "name format" action, checking there are exactly two arguments. */
    private static String nameAndFormat(ActionArgs a) throws ConfigException {
        if (a.remaining() != 2) {
            throw new ConfigException("expects exactly 2 arguments");
        }
        return a.next().toLowerCase(Locale.ROOT);
    }

    private static HttpAction delHeader(ActionArgs a) throws ConfigException {
        if (!a.more()) {
            throw new ConfigException("expects at least 1 argument");
        }
        String name = a.next();
        String method = "str";
        if (a.peek().equals("-m")) {
            a.next();
            method = a.next("-m with no matching method");
        }
        String lower = name.toLowerCase(Locale.ROOT);
        java.util.function.Predicate<AsciiString> match = switch (method) {
            case "str" -> n -> n.contentEqualsIgnoreCase(lower);
            case "beg" -> n -> n.length() >= lower.length() && n.regionMatches(true, 0, lower, 0, lower.length());
            case "end" -> n -> n.length() >= lower.length() && n.regionMatches(true, n.length() - lower.length(), lower, 0, lower.length());
            case "sub" -> n -> n.toLowerCase().contains(lower);
            case "reg" -> {
                Pattern p = regex(name, "");
                yield n -> p.matcher(n).find();
            }
            default -> throw new ConfigException("-m with unsupported matching method '" + method + "'");
        };
        return (txn, msg) -> {
            HttpHeaders h = msg.headers();
            for (int i = 0, n = h.slots(); i < n; i++) {
                if (!h.removed(i) && match.test(h.name(i))) {
                    h.remove(i);
                }
            }
            return Verdict.CONTINUE;
        };
    }

    /**
     * replace-header: each field's whole value; replace-value: each comma-separated value of each field, matched
     * without the spaces around it. As HAProxy, a replaced value takes the place of those spaces too, the others
     * keep theirs ("a , no-cache ,b" gives "a ,stale,b").
     */
    private static HttpAction replace(ActionArgs a, boolean eachValue) throws ConfigException {
        if (a.remaining() != 3) {
            throw new ConfigException("expects exactly 3 arguments");
        }
        String name = a.next().toLowerCase(Locale.ROOT);
        Pattern regex = regex(a.next(), "");
        Replacement r = new Replacement(regex, a.format(a.next()));
        return (txn, msg) -> {
            HttpHeaders h = msg.headers();
            for (int i = h.indexOf(name, 0); i >= 0; i = h.indexOf(name, i + 1)) {
                AsciiString value = h.value(i);
                if (!eachValue) {
                    String v = r.apply(value, txn);
                    if (v != null) {
                        if (!txn.fits(msg, v.length() - value.length())) {
                            return txn.rewriteFailed();
                        }
                        h.setValue(i, v);
                    }
                    continue;
                }
                List<String> parts = new ArrayList<>();
                boolean changed = false;
                for (String part : value.toString().split(",", -1)) {
                    String v = r.apply(part.strip(), txn);
                    changed |= v != null;
                    parts.add(v != null ? v : part);
                }
                if (changed) {
                    String v = String.join(",", parts);
                    if (!txn.fits(msg, v.length() - value.length())) {
                        return txn.rewriteFailed();
                    }
                    h.setValue(i, v);
                }
            }
            return Verdict.CONTINUE;
        };
    }

    /** A rule's regex; {@code failed} is what HAProxy's message says first ("failed to parse the regex : "), or empty. */
    static Pattern regex(String text, String failed) throws ConfigException {
        try {
            return PcreRegex.compile(text, false);
        } catch (PatternSyntaxException e) {
            throw new ConfigException(failed + "regex '" + text + "' is invalid" + PcreRegex.reason(e));
        }
    }
}
