package io.fulcrum.check;

import io.fulcrum.backend.Backend;
import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Registry;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.proxy.ProxyPart;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.runtime.GlobalModule;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerSpec;
import io.fulcrum.server.ServerState;
import io.fulcrum.server.ServerState.Op;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Server-state files ({@code server-state-file}, {@code server-state-base}, {@code load-server-state-from-file},
 * {@code server-state-file-name}): what {@code show servers state} saved before a reload is read at start, and each
 * server found in the running configuration gets its state back before any traffic, by HAProxy's rules (a
 * configuration change wins over the saved state). Files are read while the configuration is checked, so that
 * {@code -c} reports them as HAProxy does; the states apply when the servers exist.
 */
final class ServerStateFile {
    /** Fields of a version-1 line: HAProxy reads 20 at least (older dumps), 25 at most. */
    private static final int MIN_FIELDS = 20;
    private static final String CHANGED = ", changed from server-state after a reload";

    /** The global keywords' settings. */
    private static final class Settings {
        String file;
        String base;
    }

    /** A backend's {@code load-server-state-from-file} and {@code server-state-file-name}, inherited from defaults. */
    private static final class StatePart implements ProxyPart {
        String mode;
        String fileName;

        @Override
        public ProxyPart inherit() {
            StatePart copy = new StatePart();
            copy.mode = mode;
            copy.fileName = fileName;
            return copy;
        }
    }

    /** The lines read for each backend, by backend name. */
    private static final class Loaded {
        final Map<String, List<String[]>> lines = new HashMap<>();
    }

    private ServerStateFile() {
    }

    static void register(Registry registry) {
        KeywordTable<GlobalModule.GlobalContext> global = registry.table(GlobalModule.KEYWORDS);
        global.add("server-state-file", (g, l) -> {
            if (!l.has(1)) {
                throw new ConfigException("'server-state-file' expect one argument: a file path.");
            }
            Settings s = g.model().part(Settings.class, Settings::new);
            if (s.file != null) {
                l.alertNotCounted("'server-state-file' already specified. Continuing.");
                return;
            }
            s.file = l.arg(1);
        });
        global.add("server-state-base", (g, l) -> {
            if (!l.has(1)) {
                throw new ConfigException("'server-state-base' expects one argument: a directory path.");
            }
            Settings s = g.model().part(Settings.class, Settings::new);
            if (s.base != null) {
                l.alertNotCounted("'server-state-base' already specified. Continuing.");
                return;
            }
            s.base = l.arg(1);
        });
        KeywordTable<ProxySpec> keywords = registry.table(ProxyModule.KEYWORDS);
        keywords.add("load-server-state-from-file", Capability.BE | Capability.PARSED_WHEN_IGNORED, (p, l) -> {
            String mode = l.arg(1);
            if (!mode.equals("global") && !mode.equals("local") && !mode.equals("none")) {
                throw new ConfigException("'load-server-state-from-file' expects 'global', 'local' or 'none'. Got '" + mode + "'");
            }
            p.part(StatePart.class, StatePart::new).mode = mode;
        });
        keywords.add("server-state-file-name", Capability.BE, (p, l) -> {
            Args.noMoreThan(l, 1, "server-state-file-name");
            p.part(StatePart.class, StatePart::new).fileName = l.arg(1).isEmpty() || l.arg(1).equals("use-backend-name") ? null : l.arg(1);
        });
        registry.check(ServerStateFile::read);
    }

    /** Reads the files the proxies ask for, with HAProxy's warnings. */
    private static void read(ConfigModel model, Diagnostics diag) {
        Settings settings = model.part(Settings.class, Settings::new);
        Loaded loaded = model.part(Loaded.class, Loaded::new);
        Map<String, List<String[]>> globalLines = null;
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            StatePart part = p.partOrNull(StatePart.class);
            if (p.disabled || part == null || part.mode == null || part.mode.equals("none")) {
                continue;
            }
            if (part.mode.equals("global")) {
                if (settings.file == null) {
                    diag.configWarning("backend '" + p.name() + "' configured to load server state file from global section "
                            + "'server-state-file' directive. Unfortunately, 'server-state-file' is not set!");
                    continue;
                }
                if (globalLines == null) {
                    globalLines = new HashMap<>();
                    parse(path(settings, settings.file), "config: ", "global server state file", "", diag, globalLines);
                }
                loaded.lines.put(p.name(), globalLines.getOrDefault(p.name(), List.of()));
            } else {
                Map<String, List<String[]>> own = new HashMap<>();
                String name = part.fileName != null ? part.fileName : p.name();
                parse(path(settings, name), "Proxy '" + p.name() + "': ", "server state file", ".", diag, own);
                loaded.lines.put(p.name(), own.getOrDefault(p.name(), List.of()));
            }
        }
    }

    private static Path path(Settings s, String name) {
        return name.startsWith("/") || s.base == null ? Path.of(name) : Path.of(s.base, name);
    }

    /**
     * Reads one file into its lines by backend name; stops at the first corrupted line, as HAProxy. Lines are
     * numbered from the one after the version.
     */
    /** @param end what HAProxy ends its "Can't open" warning with: a global file's has no period, a backend's has one */
    private static void parse(Path file, String who, String what, String end, Diagnostics diag,
                              Map<String, List<String[]>> into) {
        List<String> text;
        try {
            text = Files.readAllLines(file, java.nio.charset.StandardCharsets.ISO_8859_1);
        } catch (NoSuchFileException e) {
            diag.configWarning(who + "Can't open " + what + " '" + file + "': No such file or directory" + end);
            return;
        } catch (IOException e) {
            diag.configWarning(who + "Can't open " + what + " '" + file + "': " + e.getMessage() + end);
            return;
        }
        if (text.isEmpty() || !text.getFirst().strip().equals("1")) {
            diag.configWarning(who + "Can't get version of the " + what + " '" + file + "'.");
            return;
        }
        for (int i = 1; i < text.size(); i++) {
            String line = text.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("[ \t]+");
            if (f.length < MIN_FIELDS) {
                diag.configWarning(who + "corrupted " + what + " '" + file + "' at line " + i + ".");
                return;
            }
            into.computeIfAbsent(f[1], k -> new ArrayList<>()).add(f);
        }
    }

    /** Gives the servers of {@code backends} their saved states; before the checks start. */
    static void apply(ConfigModel model, Map<String, Backend> backends, HealthChecks checks) {
        Loaded loaded = model.part(Loaded.class, Loaded::new);
        loaded.lines.forEach((name, lines) -> {
            Backend b = backends.get(name);
            if (b == null) {
                return;
            }
            for (String[] f : lines) {
                for (Server s : b.servers()) {
                    if (s.name().equals(f[3])) {
                        apply(s, checks.of(s), f);
                    }
                }
            }
        });
    }

    private static void apply(Server s, ServerChecks k, String[] f) {
        int op = number(s, f, 5, "srv_op_state");
        int admin = number(s, f, 6, "srv_admin_state");
        int uweight = number(s, f, 7, "srv_uweight");
        int iweight = number(s, f, 8, "srv_iweight");
        int since = number(s, f, 9, "srv_last_time_change");
        int checkState = number(s, f, 13, "srv_check_state");
        int port = number(s, f, 18, "srv_port");
        if (op < 0 || op > 3 || admin < 0 || uweight < 0 || iweight < 0 || since < 0 || checkState < 0 || port < 0) {
            return;
        }
        ServerState st = s.state();
        k.restoreHealth(switch (Op.values()[op]) {
            case STARTING -> k.rise() == 1 ? Op.RUNNING : Op.STOPPING; // HAProxy falls through to STOPPING
            case STOPPING -> Op.STOPPING;
            case STOPPED -> Op.STOPPED;
            case RUNNING -> Op.RUNNING;
        }, CHANGED);
        boolean configDisabled = (st.admin() & ServerState.CMAINT) != 0;
        if ((admin & ServerState.CMAINT) == (configDisabled ? ServerState.CMAINT : 0)) {
            if ((admin & ServerState.FMAINT) != 0 && !configDisabled) {
                st.restoreAdmin(ServerState.FMAINT);
            }
        }
        if ((st.admin() & ServerState.FMAINT) == 0 && (admin & ServerState.FDRAIN) != 0 && (iweight > 0 || st.initialWeight() == 0)) {
            st.restoreAdmin(ServerState.FDRAIN);
            st.group().events().alert(st.named() + " remains in forced drain mode.");
        }
        st.restoreLastChange(since);
        if (k.hasHealthCheck() && (checkState & CheckView.CONFIGURED) != 0 && (checkState & CheckView.ENABLED) == 0) {
            k.healthEnabled(false);
        }
        if (iweight == st.initialWeight() && uweight <= 256) {
            st.setWeight(uweight);
        }
        Server.Address a = s.address();
        Endpoint at = a.endpoint();
        if (at instanceof Endpoint.Inet inet && !f[4].equals("-") && s.spec().initAddr.startsWith("last") && s.spec().hostname) {
            try {
                at = new Endpoint.Inet(InetAddress.getByName(f[4]), inet.port(), inet.family());
            } catch (java.net.UnknownHostException e) {
                return;
            }
        }
        int newPort = a.portMode() == ServerSpec.PortMode.FIXED && port > 0 ? port : a.port();
        if (at != a.endpoint() || newPort != a.port()) {
            s.moveTo(new Server.Address(at, a.portMode(), newPort));
        }
    }

    /** A field's number, or -1 after HAProxy's warning when it is not one. */
    private static int number(Server s, String[] f, int i, String name) {
        if (f[i].matches("[0-9]{1,9}")) {
            return Integer.parseInt(f[i]);
        }
        s.state().group().events().alert("server-state application failed for server '" + s.id() + "', invalid " + name
                + " value '" + f[i] + "'");
        return -1;
    }
}
