package io.fulcrum.mux.h1;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.http.ErrorPages;
import io.fulcrum.proxy.Mode;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.runtime.GlobalModule;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.runtime.GlobalModule.GlobalContext;

/**
 * The global keywords of HTTP/1: its buffers ({@code tune.bufsize}, {@code tune.maxrewrite}, {@code tune.http.maxhdr},
 * with HAProxy's bounds and messages) and the case of header names ({@code h1-case-adjust}, {@code
 * h1-case-adjust-file}). Where HAProxy reads a number with atol() ("16k" is 16, "abc" is 0), Fulcrum
 * wants digits and refuses the line with HAProxy's message for a bad value.
 */
public final class H1Module implements Module {
    /** HAProxy's limit for tune.bufsize once an HTTP proxy exists. */
    private static final int HTTP_MAX_BUFSIZE = 256 << 20;

    @Override
    public void register(Registry registry) {
        H1Errors.register(CliCommands.of(registry));
        ProtoHttpFetch.register(SampleCatalog.of(registry));
        KeywordTable<GlobalContext> global = registry.table(GlobalModule.KEYWORDS);
        global.add("tune.bufsize", (g, l) -> {
            String bad = "'tune.bufsize' expects a positive integer argument.";
            // Rounded up to a multiple of 16 in an int: what overflows is not positive either.
            long rounded = number(l, bad) + 15 & -16;
            if (rounded <= 0 || rounded > Integer.MAX_VALUE) {
                throw new ConfigException(bad);
            }
            H1Settings.of(g.model()).bufsize = (int) rounded;
        });
        global.add("tune.maxrewrite", (g, l) -> {
            String bad = "'tune.maxrewrite' expects a positive integer argument.";
            long v = number(l, bad);
            if (v > Integer.MAX_VALUE) {
                throw new ConfigException(bad);
            }
            H1Settings.of(g.model()).maxrewrite = (int) v;
        });
        global.add("tune.http.maxhdr", (g, l) -> {
            String bad = "'tune.http.maxhdr' expects a numeric value between 1 and 32767";
            long v = number(l, bad);
            if (v < 1 || v > 32767) {
                throw new ConfigException(bad);
            }
            H1Settings.of(g.model()).maxhdr = (int) v;
        });
        global.add("h1-accept-payload-with-any-method", (g, l) -> {
            Args.noMoreThan(l, 0, "h1-accept-payload-with-any-method");
            H1Settings.of(g.model()).payloadWithAnyMethod = true;
        });
        global.add("h1-case-adjust", (g, l) -> {
            Args.noMoreThan(l, 2, "h1-case-adjust");
            if (l.arg(1).isEmpty() || l.arg(2).isEmpty()) {
                throw new ConfigException("'h1-case-adjust' expects <from> and <to> as argument.");
            }
            H1Settings.of(g.model()).adjustCase(l.arg(1), l.arg(2));
        });
        global.add("h1-case-adjust-file", (g, l) -> {
            Args.noMoreThan(l, 1, "h1-case-adjust-file");
            H1Settings.of(g.model()).caseAdjustFile = Args.required(l, 1, "h1-case-adjust-file", "<file> as argument");
        });
        registry.check(H1Module::checkBuffers);
        registry.check((model, diag) -> {
            H1Settings s = H1Settings.of(model);
            if (s.caseAdjustFile != null) {
                HeaderCaseFile.read(s.caseAdjustFile, s, diag);
            }
        });
    }

    /** The line's one argument, digits only; else {@code bad}, HAProxy's message for a bad value. */
    private static long number(ConfigLine l, String bad) throws ConfigException {
        Args.noMoreThan(l, 1, l.keyword());
        String text = Args.required(l, 1, l.keyword(), "an integer argument");
        if (text.length() > 18 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new ConfigException(bad);
        }
        return Long.parseLong(text);
    }

    /** HAProxy's start-up checks of the buffers: the built-in pages must fit, and HTTP wants less than 256 MB. */
    private static void checkBuffers(ConfigModel model, Diagnostics diag) {
        H1Settings t = H1Settings.of(model);
        ErrorPages.unfitting(t.bufsize, t.maxhdr).forEach((status, why) ->
                diag.configAlert("Internal error: invalid default message for HTTP return code " + status + ": " + why + "."));
        if (t.bufsize >= HTTP_MAX_BUFSIZE && ProxyTable.of(model).proxies().stream().anyMatch(p -> p.mode == Mode.HTTP)) {
            diag.configAlert("global.tune.bufsize must be below 256 MB when HTTP is in use (current value = " + t.bufsize + ").");
        }
    }
}
