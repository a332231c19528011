package io.fulcrum.runtime;

import io.fulcrum.cfg.Args;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.DefaultPath;
import io.fulcrum.cfg.Environment;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Registry.TableKey;
import io.fulcrum.cfg.Units;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.ProxyModule;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The {@code global} section and the process-management keywords of HAProxy's section 3.1. */
public final class GlobalModule implements Module {

    /** The global section's keywords; other modules add theirs (log, stats, tune.*...). */
    public static final TableKey<GlobalContext> KEYWORDS = new TableKey<>("global");

    /** What a global keyword configures: the settings, and the environment that setenv and friends change. */
    public record GlobalContext(GlobalSettings settings, ConfigModel model) {
        public Environment env() {
            return model.env();
        }
    }

    /** The global settings recorded in {@code model}. */
    public static GlobalSettings settings(ConfigModel model) {
        return model.part(GlobalSettings.class, GlobalSettings::new);
    }

    @Override
    public void register(Registry registry) {
        KeywordTable<GlobalContext> kw = registry.table(KEYWORDS);
        ProcessCommands.register(CliCommands.of(registry));
        ActivityCommands.register(CliCommands.of(registry));
        ProfilingCommands.register(CliCommands.of(registry));
        PoolsCommand.register(CliCommands.of(registry));
        MemStatsCommand.register(CliCommands.of(registry));
        FdCommand.register(CliCommands.of(registry));
        RateLimitCommand.register(CliCommands.of(registry));
        registry.section("global", (header, model) -> {
            Args.noMoreThan(header, 0, "global");
            GlobalContext ctx = new GlobalContext(settings(model), model);
            return line -> {
                if (line.keyword().equals("no")) {
                    negated(kw, ctx, line);
                    return;
                }
                KeywordTable.Entry<GlobalContext> e = kw.find(line.keyword());
                if (e == null) {
                    throw kw.unknown(line.keyword(), "unknown keyword '" + line.keyword() + "' in 'global' section");
                }
                e.parser().parse(ctx, line);
            };
        });

        ProcessIdentity.register(kw);
        SoftStopKeywords.register(kw);
        PollerKeywords.register(kw, NEGATABLE);
        InternalsKeywords.register(kw, NEGATABLE);
        ThreadGroups.register(registry, kw);
        LuaKeywords.register(kw);
        kw.add("quiet", (g, l) -> {
            Args.noMoreThan(l, 0, "quiet");
            if (l.diag() != null) {
                l.diag().quiet(true); // as -q, from this line on
            }
        });
        // Fulcrum never splices (its data path copies between Netty buffers): these only have their syntax checked.
        kw.add("nosplice", (g, l) -> Args.noMoreThan(l, 0, "nosplice"));
        kw.add("maxpipes", (g, l) -> Args.required(l, 1, "maxpipes", "an integer argument"));
        kw.add("tune.pipesize", (g, l) -> Args.required(l, 1, "tune.pipesize", "an integer argument"));
        kw.add("maxconn", (g, l) -> g.settings().maxconn = (int) positive(l, 1, Integer.MAX_VALUE));
        registry.table(ProxyModule.KEYWORDS).add("rate-limit", Capability.FE, SessionRateLimit::parse);
        kw.add("ulimit-n", (g, l) -> {
            if (once(l, g.settings().ulimitN)) {
                g.settings().ulimitN = (int) Args.atol(l.arg(1));
            }
        });
        kw.add("fd-hard-limit", (g, l) -> {
            if (once(l, g.settings().fdHardLimit)) {
                g.settings().fdHardLimit = (int) Args.atol(l.arg(1));
            }
        });
        kw.add("strict-limits", NEGATABLE, (g, l) -> {
            ConfigLine k = InternalsKeywords.positive(l);
            Args.noMoreThan(k, 0, k.keyword());
            g.settings().strictLimits = k == l;
        });
        kw.add("noreuseport", (g, l) -> {
            Args.noMoreThan(l, 0, "noreuseport");
            g.settings().noReusePort = true;
        });
        kw.add("cpu-map", (g, l) -> g.settings().cpuMap.parse(l));
        kw.add("maxconnrate", (g, l) -> g.settings().maxconnrate = rate(l));
        kw.add("maxsessrate", (g, l) -> g.settings().maxsessrate = rate(l));
        kw.add("maxsslrate", (g, l) -> g.settings().maxsslrate = rate(l));
        kw.add("nbthread", (g, l) -> {
            if (!l.arg(1).matches("-?[0-9]+")) {
                throw new ConfigException("'nbthread' passed a missing or unparsable integer value in '" + l.arg(1) + "'");
            }
            g.settings().nbthread = (int) positive(l, 1, 64);
        });
        kw.add("nbproc", (g, l) -> {
            throw new ConfigException("nbproc is not supported any more since HAProxy 2.5. Threads will automatically be used on "
                    + "multi-processor machines if available.");
        });
        kw.add("daemon", (g, l) -> {
            Args.noMoreThan(l, 0, "daemon");
            g.settings().daemon = true;
        });
        kw.add("pidfile", (g, l) -> {
            Args.noMoreThan(l, 1, "pidfile");
            g.settings().pidfile = Path.of(Args.required(l, 1, "pidfile", "a file name as an argument"));
        });
        kw.add("hard-stop-after", (g, l) -> {
            Args.noMoreThan(l, 1, "hard-stop-after");
            String v = Args.required(l, 1, "hard-stop-after", "<time> as argument");
            if (!Character.isDigit(v.charAt(0))) { // (HAProxy's words for it)
                throw new ConfigException("unexpected character '" + v.charAt(0) + "' in argument to <hard-stop-after>.");
            }
            g.settings().hardStopAfter = Units.time(v, "hard-stop-after");
        });
        kw.add("tune.listener.multi-queue", (g, l) -> {
            Args.noMoreThan(l, 1, l.keyword());
            if (!l.arg(1).equals("on") && !l.arg(1).equals("off")) {
                throw new ConfigException("'" + l.keyword() + "' expects either 'on' or 'off' but got '" + l.arg(1) + "'.");
            }
            g.settings().multiQueue = l.arg(1).equals("on");
        });
        kw.add("expose-experimental-directives", (g, l) -> {
            Args.noMoreThan(l, 0, "expose-experimental-directives");
            g.settings().experimental = true;
        });
        kw.add("zero-warning", (g, l) -> {
            Args.noMoreThan(l, 0, "zero-warning");
            g.settings().zeroWarning = true;
        });
        kw.add("default-path", (g, l) -> DefaultPath.of(g.model()).parse(l));
        kw.add("setenv", (g, l) -> setenv(g, l, true));
        kw.add("presetenv", (g, l) -> setenv(g, l, false));
        kw.add("unsetenv", (g, l) -> {
            Args.required(l, 1, "unsetenv", "at least one variable name");
            for (int i = 1; i < l.size(); i++) {
                g.env().unset(l.arg(i));
            }
        });
        kw.add("resetenv", (g, l) -> {
            List<String> keep = new ArrayList<>();
            for (int i = 1; i < l.size(); i++) {
                keep.add(l.arg(i));
            }
            g.env().retainOnly(keep);
        });
    }

    /** Flag of the keywords that take HAProxy's {@code no} prefix; their parser sees "no" as the keyword. */
    public static final int NEGATABLE = 1;

    /** HAProxy's words for a "no" before a keyword that does not take it (any section but the proxies'). */
    public static final String NEGATION_REFUSED = "negation/default currently supported only for options, log, busy-polling, "
            + "set-dumpable, strict-limits, insecure-fork-wanted and numa-cpu-mapping.";

    /** A line {@code no <keyword> ...}: only the keywords HAProxy lets be negated accept it. */
    private static void negated(KeywordTable<GlobalContext> kw, GlobalContext ctx, ConfigLine line) throws ConfigException {
        KeywordTable.Entry<GlobalContext> e = kw.find(line.arg(1));
        if (e == null || (e.flags() & NEGATABLE) == 0) {
            throw ConfigException.unspaced(NEGATION_REFUSED);
        }
        e.parser().parse(ctx, line);
    }

    /**
     * Checks a keyword that takes one integer and may be given once ({@code ulimit-n}, {@code tune.maxaccept}...): false,
     * after HAProxy's alert (not fatal), when {@code current} shows it was given already. The integer is read as C's
     * atol reads it: "abc" is 0, which leaves the setting unset.
     */
    public static boolean once(ConfigLine l, int current) throws ConfigException {
        Args.noMoreThan(l, 1, l.keyword());
        if (current != 0) {
            l.alertNotCounted("'" + l.keyword() + "' already specified. Continuing.");
            return false;
        }
        Args.required(l, 1, l.keyword(), "an integer argument");
        return true;
    }

    /** A rate limit, read as HAProxy reads it (C's atol: "10k" is 10); a negative one is no limit. */
    private static int rate(ConfigLine l) throws ConfigException {
        Args.noMoreThan(l, 1, l.keyword());
        return (int) Math.max(0, Args.atol(Args.required(l, 1, l.keyword(), "an integer argument")));
    }

    private static long positive(ConfigLine l, long min, long max) throws ConfigException {
        Args.noMoreThan(l, 1, l.keyword());
        return Units.integer(Args.required(l, 1, l.keyword(), "an integer argument"), l.keyword(), min, max);
    }

    private static void setenv(GlobalContext g, ConfigLine l, boolean overwrite) throws ConfigException {
        Args.noMoreThan(l, 2, l.keyword());
        if (!l.has(2)) {
            throw ConfigException.unspaced("'" + l.keyword() + "' expects a name and a value.");
        }
        if (overwrite || !g.env().defined(l.arg(1))) {
            g.env().set(l.arg(1), l.arg(2));
        }
    }
}
