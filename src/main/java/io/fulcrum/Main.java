package io.fulcrum;

import io.fulcrum.cfg.Condition;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLoader;
import io.fulcrum.cfg.ConfigLoader.ConfigFile;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.Environment;
import io.fulcrum.cfg.Registry;
import io.fulcrum.master.Master;
import io.fulcrum.master.MasterCli;
import io.fulcrum.master.MasterSettings;
import io.fulcrum.master.SystemdNotify;
import io.fulcrum.master.WorkerChannel;
import io.fulcrum.runtime.BufferPoolDefaults;
import io.fulcrum.runtime.CommandLine;
import io.fulcrum.runtime.Daemon;
import io.fulcrum.runtime.Fulcrum;
import io.fulcrum.runtime.GlobalModule;
import io.fulcrum.runtime.GlobalSettings;
import io.fulcrum.runtime.KeywordDump;
import io.fulcrum.runtime.LoadedObjects;
import io.fulcrum.runtime.MemoryDebug;
import io.fulcrum.runtime.MemoryLimit;
import io.fulcrum.runtime.OldSocketsSource;
import io.fulcrum.runtime.OldProcesses;
import io.fulcrum.runtime.Signals;
import io.fulcrum.runtime.VersionReport;
import io.fulcrum.server.ServerModule;
import io.fulcrum.tls.TlsModule;

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
        MemoryLimit.apply(cl.memmaxMb); // before Netty's first buffer
        BufferPoolDefaults.apply();
        if (cl.memoryDebug != null) {
            try {
                String help = MemoryDebug.parse(cl.memoryDebug);
                if (help != null) {
                    out.print(help);
                    return 0;
                }
            } catch (IllegalArgumentException e) {
                diag.alert(e.getMessage());
                return 1;
            }
        }
        if (cl.version > 0) {
            out.print(VersionReport.text(cl.version > 1));
            return 0;
        }
        diag.quiet(cl.quiet && !cl.verbose);
        diag.silent(cl.quiet && !cl.verbose);
        diag.diagMode(cl.diagnostic);
        if (cl.condition != null) {
            try {
                // Tokenized like a configuration line first (quotes, escapes, "$VAR"), as HAProxy does.
                return Condition.commandLine(cl.condition, environment(cl)) ? 0 : 1;
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
        // A worker reads the configuration its master has read and reported on: without its warnings again.
        diag.quiet(cl.masterChannels != null || diag.quiet());
        Loaded loaded = load(cl, diag, err);
        diag.quiet(cl.quiet && !cl.verbose);
        if (loaded.model() == null) {
            return loaded.status();
        }
        ConfigModel model = loaded.model();
        GlobalSettings global = GlobalModule.settings(model);
        boolean masterWorker = cl.masterChannels == null && (cl.masterWorker || MasterSettings.of(model).enabled);
        if (MasterSettings.of(model).hasPrograms() && !masterWorker && cl.masterChannels == null) {
            diag.configAlert("Can't use a 'program' section without master worker mode.");
            diag.configAlert("Fatal errors found in configuration.");
            return 1;
        }
        if (!cl.masterCli.isEmpty() && !masterWorker) {
            diag.configWarning("a master CLI socket was defined, but master-worker mode (-W) is not enabled.");
        }
        if (cl.dumpLibs) {
            if (!diag.quiet()) {
                out.println("List of loaded object files:");
            }
            LoadedObjects.list().forEach(out::println);
        }
        if (cl.dumpKeywords != null && cl.masterChannels == null) {
            // As HAProxy: once the configuration is read, and then the process goes on (-q -c stops it).
            KeywordDump.print(cl.dumpKeywords, loaded.registry(), out);
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
        if (cl.oldSocket != null && cl.masterChannels == null && !OldSocketsSource.check(cl.oldSocket, diag)) {
            return 1;
        }
        if (global.daemon && !cl.foreground && !cl.daemonChild) {
            return Daemon.spawn(args, diag);
        }
        if (masterWorker) {
            return master(args, cl, model, global, diag, err);
        }
        return serve(model, cl, global, diag);
    }

    /** A configuration read, or the exit status of a failed read (its errors reported). */
    private record Loaded(ConfigModel model, Registry registry, int status) {
    }

    /** Reads the configuration the command line names, as at start and at each reload of a master. */
    private static Loaded load(CommandLine cl, Diagnostics diag, PrintStream err) {
        Environment env = environment(cl);
        List<ConfigFile> files = new ArrayList<>();
        for (String name : cl.configs) {
            if (!expand(name, cl.directory, files)) {
                diag.configAlert("Cannot open configuration file/directory " + name + " : No such file or directory");
                return new Loaded(null, null, 1);
            }
        }
        if (files.isEmpty()) {
            // Only empty directories: HAProxy then has no configuration and prints its usage (exit 1).
            diag.configAlert("No configuration file found in " + String.join(", ", cl.configs) + " (a directory's *.cfg files are loaded).");
            err.print(CommandLine.usage());
            return new Loaded(null, null, 1);
        }

        Registry registry = Registry.of(Modules.ALL);
        if (cl.resolutionNeverFails) {
            ServerModule.resolutionNeverFails(registry);
        }
        ConfigLoader loader = new ConfigLoader(registry, diag, env);
        if (cl.noServerVerify) {
            TlsModule.noServerVerify(loader.model()); // before the files, as HAProxy: ssl-server-verify may set it back
        }
        ConfigModel model = loader.load(files);
        // As HAProxy: defined once the files are read (the configuration itself does not see it).
        env.set("HAPROXY_CFGFILES", String.join(";", files.stream().map(ConfigFile::name).toList()));
        if (diag.alerts() > 0) {
            return new Loaded(null, null, 1);
        }
        GlobalSettings global = GlobalModule.settings(model);
        applyOverrides(cl, global);
        if (global.zeroWarning && diag.warnings() > 0) {
            diag.configAlert("Some warnings were found and 'zero-warning' is set. Aborting.");
            return new Loaded(null, null, 1);
        }
        return new Loaded(model, registry, 0);
    }

    private static Environment environment(CommandLine cl) {
        Environment env = Environment.ofProcess();
        // HAProxy's "setenv(..., 0)": a reloaded master's workers keep the version the master started with.
        if (!env.defined("HAPROXY_STARTUP_VERSION")) {
            env.set("HAPROXY_STARTUP_VERSION", Version.FULCRUM);
        }
        if (cl.localPeer != null) {
            env.setFixed("HAPROXY_LOCALPEER", cl.localPeer);
        } else {
            env.set("HAPROXY_LOCALPEER", hostname());
        }
        return env;
    }

    /** Master-worker mode: this process supervises workers (each a JVM that serves), reloads them, and stops them. */
    private static int master(String[] args, CommandLine cl, ConfigModel model, GlobalSettings global, Diagnostics diag, PrintStream err) {
        List<MasterCli.Spec> cli = new ArrayList<>();
        for (String spec : cl.masterCli) {
            try {
                cli.add(MasterCli.Spec.parse(spec));
            } catch (ConfigException e) {
                diag.configAlert(e.getMessage());
                diag.configAlert("Can't create the master's CLI.");
                return 1;
            }
        }
        if (!writePidfile(global, diag)) {
            return 1;
        }
        Master.Options options = new Master.Options(Master.workerArgs(args), MasterSettings.of(model), cl.daemonChild,
                cl.systemd ? SystemdNotify.fromEnvironment(diag) : null, cli);
        try {
            return new Master(options, () -> {
                // A reload is judged by its own alerts and warnings, as a new HAProxy process.
                Loaded again = load(cl, diag.fresh(), err);
                return again.model() == null ? null : MasterSettings.of(again.model());
            }, diag).run();
        } catch (IOException e) {
            diag.alert("[fulcrum.main()] Cannot start the master: " + e.getMessage());
            return 1;
        }
    }

    /** The pid file of {@code -p} or {@code pidfile}: this process's PID (a master's own, as HAProxy). */
    private static boolean writePidfile(GlobalSettings global, Diagnostics diag) {
        if (global.pidfile != null) {
            try {
                Files.writeString(global.pidfile, ProcessHandle.current().pid() + "\n");
            } catch (IOException e) {
                diag.alert("[fulcrum.main()] Cannot create pidfile " + global.pidfile);
                return false;
            }
        }
        return true;
    }

    private static int serve(ConfigModel model, CommandLine cl, GlobalSettings global, Diagnostics diag) {
        Signals.early(); // a signal sent while the listeners are being bound is handled once they are
        WorkerChannel master = null;
        if (cl.masterChannels != null) {
            try {
                master = WorkerChannel.open(model, Path.of(cl.masterChannels));
            } catch (IOException | ConfigException e) {
                diag.alert("[fulcrum.main()] Cannot reach the master: " + e.getMessage());
                return 1;
            }
        }
        Fulcrum fulcrum = new Fulcrum(model, diag, cl.defaultMaxconn);
        if (!fulcrum.listens()) {
            // As HAProxy: a process that cannot accept anything does not start.
            diag.alert("[fulcrum.main()] No enabled listener found (check for 'bind' directives) ! Exiting.");
            fulcrum.hardStop();
            return 1;
        }
        if (!fulcrum.fds().apply(diag)) {
            fulcrum.hardStop();
            return 1;
        }
        if (!fulcrum.start(new OldProcesses(cl))) {
            diag.alert("[fulcrum.main()] Some protocols failed to start their listeners! Exiting.");
            fulcrum.hardStop();
            return 1;
        }
        if (!writePidfile(global, diag)) {
            fulcrum.hardStop();
            return 1;
        }
        if (!fulcrum.lockDown()) {
            fulcrum.hardStop();
            return 1;
        }
        Signals.install(fulcrum);
        if (master == null) {
            Signals.finishOld(cl, diag); // a worker's master does it: chroot and user do not stand in its way
        }
        if (cl.daemonChild) {
            Daemon.detached(diag);
        }
        if (master != null) {
            master.ready(fulcrum::hardStop);
        }
        diag.started();
        fulcrum.startChecks();
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
        global.memmaxMb = cl.memmaxMb;
        if (cl.pidfile != null) {
            global.pidfile = Path.of(cl.pidfile);
        }
        if (cl.daemon) {
            global.daemon = true;
        }
        if (cl.zeroWarning) {
            global.zeroWarning = true;
        }
        if (cl.noReusePort) {
            global.noReusePort = true;
        }
        if (cl.noEpoll) {
            global.noEpoll = true;
        }
        global.oldProcesses = cl.finishPids.size() + cl.terminatePids.size();
        if (cl.masterChannels != null) {
            global.pidfile = null; // a worker's master holds the pid file
        }
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
