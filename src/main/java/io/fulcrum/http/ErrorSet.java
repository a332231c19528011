package io.fulcrum.http;

import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.Source;
import io.fulcrum.proxy.ProxyPart;
import io.fulcrum.proxy.ProxySpec;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;

/**
 * A proxy's own error responses: its {@code errorfile}, {@code errorloc*} and {@code errorfiles} lines
 * in order, those of its defaults section first, later lines overriding earlier ones. The
 * {@code errorfiles} imports are resolved once every {@code http-errors} section is known
 * ({@link #resolve}); then {@link #message(int)} answers for any status.
 */
public final class ErrorSet implements ProxyPart {

    /** One line: a message of the proxy's own, or an import from an {@code http-errors} section. */
    private sealed interface Rule permits Own, Live, Import {
    }

    private record Own(int status, ErrorMessage message) implements Rule {
    }

    private record Live(int status, LiveReply reply) implements Rule {
    }

    /**
     * {@code statuses} (ascending) empty: all of the section's messages, without complaining about the
     * missing ones.
     */
    private record Import(String section, SortedSet<Integer> statuses, Source source) implements Rule {
    }

    /** The set of a proxy without error lines: HAProxy's pages. */
    private static final ErrorSet BUILTIN = new ErrorSet(new ErrorMessage[0]);

    private final List<Rule> rules = new ArrayList<>();
    /** By status once resolved; null entries fall back to the built-in pages. */
    private ErrorMessage[] messages;
    /** By status once resolved: the replies made for each transaction, where {@link #messages} has none. */
    private LiveReply[] live;

    ErrorSet() {
        this(null);
    }

    private ErrorSet(ErrorMessage[] messages) {
        this.messages = messages;
    }

    /** The error set of {@code proxy} (inherited from its defaults section, possibly empty). */
    public static ErrorSet of(ProxySpec proxy) {
        ErrorSet set = proxy.partOrNull(ErrorSet.class);
        return set == null ? BUILTIN : set;
    }

    /**
     * The message for {@code status}: the proxy's own, else HAProxy's page. A status HAProxy has no page
     * for gets the 500 one, as in HAProxy.
     */
    public ErrorMessage message(int status) {
        ErrorMessage own = own(status);
        return own != null ? own : ErrorPages.message(key(status));
    }

    /**
     * The message for {@code status}: this proxy's own, else {@code fallback}'s (a backend's set falls back on its
     * frontend's), else HAProxy's page, as HAProxy's {@code http_error_message()} looks them up.
     */
    public ErrorMessage message(int status, ErrorSet fallback) {
        ErrorMessage own = own(status);
        return own != null ? own : fallback.message(status);
    }

    /**
     * The reply for {@code status} made for each transaction, looked up as {@link #message(int, ErrorSet)} (a
     * message of this proxy's own comes first); null when a message applies.
     */
    public LiveReply live(int status, ErrorSet fallback) {
        if (own(status) != null) {
            return null;
        }
        int key = key(status);
        LiveReply r = live != null && key < live.length ? live[key] : null;
        return r != null || fallback == null ? r : fallback.live(status, null);
    }

    private ErrorMessage own(int status) {
        if (messages == null) {
            throw new IllegalStateException("error set used before the configuration check resolved it");
        }
        int key = key(status);
        return key < messages.length ? messages[key] : null;
    }

    private static int key(int status) {
        return ErrorPages.hasBuiltin(status) ? status : 500;
    }

    /** The error set of {@code proxy}'s own, made on first use (its lines come in order). */
    public static ErrorSet own(ProxySpec proxy) {
        return proxy.part(ErrorSet.class, ErrorSet::new);
    }

    /** {@code status}'s message from now on; null: none of the proxy's (its frontend's, else HAProxy's page). */
    public void add(int status, ErrorMessage message) {
        rules.add(new Own(status, message));
    }

    /** {@code status}'s reply from now on, made for each transaction. */
    public void addLive(int status, LiveReply reply) {
        rules.add(new Live(status, reply));
    }

    /** The messages of {@code section} for {@code statuses} (empty: all it has) from now on. */
    public void importSection(String section, SortedSet<Integer> statuses, Source source) {
        rules.add(new Import(section, statuses, source));
    }

    /** Applies the lines in order, reporting imports of unknown sections and of statuses they lack. */
    void resolve(ProxySpec proxy, HttpErrorsTable sections, Diagnostics diag) {
        messages = new ErrorMessage[600];
        live = new LiveReply[600];
        for (Rule rule : rules) {
            switch (rule) {
                case Own own -> {
                    messages[own.status()] = own.message();
                    live[own.status()] = null;
                }
                case Live l -> {
                    live[l.status()] = l.reply();
                    messages[l.status()] = null;
                }
                case Import imp -> apply(imp, proxy, sections, diag);
            }
        }
    }

    private void apply(Import imp, ProxySpec proxy, HttpErrorsTable sections, Diagnostics diag) {
        HttpErrorsTable.Section section = sections.find(imp.section());
        if (section == null) {
            diag.configAlert("proxy '" + proxy.name() + "': unknown http-errors section '" + imp.section()
                    + "' (at " + imp.source() + ").");
            return;
        }
        boolean all = imp.statuses().isEmpty();
        for (int status : all ? ErrorPages.statuses() : imp.statuses()) {
            ErrorMessage m = section.messages.get(status);
            if (m != null) {
                messages[status] = m;
                live[status] = null;
            } else if (!all) {
                diag.configWarning("config: proxy '" + proxy.name() + "' : status '" + status
                        + "' not declared in http-errors section '" + imp.section() + "' (at " + imp.source() + ").");
            }
        }
    }

    @Override
    public ProxyPart inherit() {
        ErrorSet copy = new ErrorSet();
        copy.rules.addAll(rules);
        return copy;
    }
}
