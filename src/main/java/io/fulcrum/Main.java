package io.fulcrum;

import io.fulcrum.cfg.Condition;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLoader;
import io.fulcrum.cfg.ConfigLoader.ConfigFile;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.Environment;
import io.fulcrum.cfg.Registry;
import io.fulcrum.runtime.CommandLine;
import io.fulcrum.runtime.Daemon;
import io.fulcrum.runtime.Fulcrum;
import io.fulcrum.runtime.GlobalModule;
import io.fulcrum.runtime.GlobalSettings;
import io.fulcrum.runtime.Signals;
import io.fulcrum.runtime.VersionReport;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The {@code fulcrum} command: HAProxy's flags, configuration check, start, and stop. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        // Configuration bytes are echoed in messages as they are, like HAProxy does: one byte, one char.
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.ISO_8859_1);
        System.exit(run(args, System.out, err));
    }

    /** Runs the command; returns the exit status (a running server returns when it stops). */
    static int run(String[] args, PrintStream out, PrintStream err) {
        long pid = ProcessHandle.current().pid();
        Diagnostics diag = new Diagnostics(err, pid);
        CommandLine cl;
        try {
            cl = CommandLine.parse(args);
        } catch (CommandLine.UsageException e) {
            diag.alert(e.getMessage());
            err.print(CommandLine.usage());
            return 1;
        }
        if (cl.version > 0) {
            out.print(VersionReport.text(cl.version > 1));
            return 0;
        }
        diag.quiet(cl.quiet && !cl.verbose);
        diag.diagMode(cl.diagnostic);
        Environment env = Environment.ofProcess();
        if (cl.localPeer != null) {
            env.setFixed("HAPROXY_LOCALPEER", cl.localPeer);
        } else {
            env.set("HAPROXY_LOCALPEER", hostname());
        }

        if (cl.condition != null) {
            try {
                // Tokenized like a configuration line first (quotes, escapes, "$VAR"), as HAProxy does.
                return Condition.commandLine(cl.condition, env) ? 0 : 1;
            } catch (ConfigException e) {
                diag.configAlert(e.getMessage());
                return 2;
            }
        }
        if (cl.configs.isEmpty()) {
            err.print(VersionReport.text(false));
            err.print(CommandLine.usage());
            return 1;
        }
        List<ConfigFile> files = new ArrayList<>();
        for (String name : cl.configs) {
            if (!expand(name, cl.directory, files)) {
                diag.configAlert("Cannot open configuration file/directory " + name + " : No such file or directory");
                return 1;
            }
        }
        if (files.isEmpty()) {
            // Only empty directories: HAProxy then has no configuration and prints its usage (exit 1).
            diag.configAlert("No configuration file found in " + String.join(", ", cl.configs) + " (a directory's *.cfg files are loaded).");
            err.print(CommandLine.usage());
            return 1;
        }
        env.set("HAPROXY_CFGFILES", String.join(";", files.stream().map(ConfigFile::name).toList()));

        ConfigModel model = new ConfigLoader(Registry.of(Modules.ALL), diag, env).load(files);
        if (diag.alerts() > 0) {
            return 1;
        }
        GlobalSettings global = GlobalModule.settings(model);
        applyOverrides(cl, global);
        if (global.zeroWarning && diag.warnings() > 0) {
            diag.configAlert("Some warnings were found and 'zero-warning' is set. Aborting.");
            return 1;
        }
        if (cl.check) {
            if (diag.warnings() > 0 && !diag.quiet()) {
                out.println("Warnings were found.");
            }
            if (!Fulcrum.listens(model)) {
                if (!diag.quiet()) {
                    out.println("Configuration file has no error but will not start (no listener) => exit(2).");
                }
                return 2;
            }
            if (!diag.quiet()) {
                out.println("Configuration file is valid");
            }
            return 0;
        }
        if (global.daemon && !cl.foreground && !cl.daemonChild) {
            return Daemon.spawn(args, diag);
        }
        return serve(model, cl, global, diag);
    }

    private static int serve(ConfigModel model, CommandLine cl, GlobalSettings global, Diagnostics diag) {
        Signals.early(); // a signal sent while the listeners are being bound is handled once they are
        Fulcrum fulcrum = new Fulcrum(model, diag, cl.defaultMaxconn);
        if (!fulcrum.listens()) {
            // As HAProxy: a process that cannot accept anything does not start.
            diag.alert("[fulcrum.main()] No enabled listener found (check for 'bind' directives) ! Exiting.");
            fulcrum.hardStop();
            return 1;
        }
        if (!fulcrum.start()) {
            diag.alert("[fulcrum.main()] Some protocols failed to start their listeners! Exiting.");
            fulcrum.hardStop();
            return 1;
        }
        if (global.pidfile != null) {
            try {
                Files.writeString(global.pidfile, ProcessHandle.current().pid() + "\n");
            } catch (IOException e) {
                diag.alert("[fulcrum.main()] Cannot create pidfile " + global.pidfile);
                fulcrum.hardStop();
                return 1;
            }
        }
        if (!fulcrum.lockDown()) {
            fulcrum.hardStop();
            return 1;
        }
        Signals.install(fulcrum);
        Signals.finishOld(cl, diag);
        if (cl.daemonChild) {
            Daemon.detached();
        }
        try {
            fulcrum.awaitStop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    private static void applyOverrides(CommandLine cl, GlobalSettings global) {
        if (cl.maxconn > 0) {
            global.maxconn = cl.maxconn;
        }
        if (cl.pidfile != null) {
            global.pidfile = Path.of(cl.pidfile);
        }
        if (cl.daemon) {
            global.daemon = true;
        }
        if (cl.zeroWarning) {
            global.zeroWarning = true;
        }
        global.oldProcesses = cl.finishPids.size() + cl.terminatePids.size();
    }

    /** A file, or a directory's {@code *.cfg} files in lexical order; false when it does not exist. */
    private static boolean expand(String name, String directory, List<ConfigFile> out) {
        Path p = directory == null ? Path.of(name) : Path.of(directory).resolve(name);
        if (Files.isDirectory(p)) {
            try (Stream<Path> s = Files.list(p)) {
                s.filter(f -> f.getFileName().toString().endsWith(".cfg") && Files.isRegularFile(f))
                        .sorted()
                        .forEach(f -> out.add(new ConfigFile(f, name.endsWith("/") ? name + f.getFileName() : name + "/" + f.getFileName())));
            } catch (IOException e) {
                return false;
            }
            return true;
        }
        if (!Files.exists(p)) {
            return false;
        }
        out.add(new ConfigFile(p, name));
        return true;
    }

    private static String hostname() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }
}
