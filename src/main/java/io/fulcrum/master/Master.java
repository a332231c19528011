package io.fulcrum.master;

import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.runtime.Daemon;
import io.fulcrum.runtime.LibC;
import sun.misc.Signal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Supplier;

/**
 * The master of master-worker mode (management.txt 4.4): it serves nothing itself, it starts a worker (a JVM
 * running Fulcrum on the same command line), starts a new one on a reload (SIGUSR2, SIGHUP, the master CLI's
 * {@code reload}) that takes over from the old ones as {@code -sf} does, forwards the stop signals, and leaves
 * when its workers are gone. It runs the {@code program} sections beside them, as HAProxy 2.6 does: started
 * before the first worker; on a reload every running instance gets SIGUSR1 and becomes an "old program", and
 * those with {@code option start-on-reload} start anew; the stop signals reach them too, and the master leaves
 * once they are gone. Everything it decides runs on its own thread, one event at a time, from a queue that
 * signals, worker and program exits, the private channels and the master CLI feed.
 */
public final class Master {
    /** What the master needs from the command line and the configuration it was started with. */
    public record Options(List<String> workerArgs, MasterSettings settings, boolean daemon, SystemdNotify systemd,
            List<MasterCli.Spec> cli) {
    }

    private final Options options;
    /** Reads the configuration again for a reload: its settings, or null when it has errors (already reported). */
    private final Supplier<MasterSettings> reread;
    private final Diagnostics diag;
    private final long startMillis = System.currentTimeMillis();
    private final BlockingQueue<Runnable> events = new LinkedBlockingQueue<>();
    /** Newest first. */
    private final List<Worker> workers = new CopyOnWriteArrayList<>();
    /** The instances of the program sections, the newest ones first (each start's in the configuration's order). */
    private final List<Program> programs = new CopyOnWriteArrayList<>();
    private final Path channels;
    private MasterSettings settings;
    private volatile int reloads;
    private volatile int failedReloads;
    private volatile boolean lastReloadFailed;
    private Worker current;
    private boolean stopping;
    private boolean detached;
    /** The last worker that exited had served: the master says so when it leaves. */
    private boolean served;
    /** The programs were sent SIGTERM: the master leaves once they are gone. */
    private boolean programsStopped;
    private int exitCode = -1;
    private boolean done;

    public Master(Options options, Supplier<MasterSettings> reread, Diagnostics diag) throws IOException {
        this.options = options;
        this.settings = options.settings();
        this.reread = reread;
        this.diag = diag;
        this.channels = Files.createTempDirectory("fulcrum-master-"); // 0700: the private channels' home
    }

    /**
     * A worker's arguments: the master's, without what only the master does (-W, -Ws, -S, -D, -p, -sf/-st and
     * their values). The configuration files named after "--" are kept as they are.
     */
    public static List<String> workerArgs(String[] args) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-W", "-Ws", "-D", "-db", "--daemon-child" -> { }
                case "-S", "-p" -> i++;
                case "-sf", "-st" -> {
                    while (i + 1 < args.length && !args[i + 1].startsWith("-")) {
                        i++;
                    }
                }
                case "--" -> {
                    out.addAll(List.of(args).subList(i, args.length));
                    return out;
                }
                default -> out.add(args[i]);
            }
        }
        return out;
    }

    /** Starts the first worker and supervises until every worker has exited; returns the exit status. */
    public int run() throws IOException {
        List<MasterCli> clis = new ArrayList<>();
        try (ServerSocketChannel master = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            for (MasterCli.Spec spec : options.cli()) {
                clis.add(MasterCli.open(spec, this));
            }
            master.bind(UnixDomainSocketAddress.of(channels.resolve(WorkerChannel.MASTER)));
            Thread.ofVirtual().start(() -> acceptWorkers(master));
            for (String name : List.of("USR2", "HUP")) {
                Signal.handle(new Signal(name), s -> events.add(this::reload));
            }
            for (String name : List.of("TERM", "INT", "USR1", "TTOU", "TTIN")) {
                Signal.handle(new Signal(name), s -> events.add(() -> signalled(name)));
            }
            startPrograms(false);
            spawn();
            while (!done) {
                events.take().run();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            for (MasterCli cli : clis) {
                cli.close();
            }
            clean();
        }
        stop();
        return Math.max(exitCode, 0);
    }

    /** Asks for a reload, as SIGUSR2 does (the master CLI's {@code reload}). */
    void requestReload() {
        events.add(this::reload);
    }

    /** The workers, newest first (the master CLI reads them from its own threads). */
    List<Worker> workers() {
        return workers;
    }

    /** The programs' instances, newest first (read by the master CLI). */
    List<Program> programs() {
        return programs;
    }

    long startMillis() {
        return startMillis;
    }

    int reloads() {
        return reloads;
    }

    int failedReloads() {
        return failedReloads;
    }

    /** The last reload did not start a worker: the master CLI's prompt says so. */
    boolean lastReloadFailed() {
        return lastReloadFailed;
    }

    Path channels() {
        return channels;
    }

    private void spawn() {
        List<String> cmd = new ArrayList<>(Daemon.self());
        cmd.addAll(List.of("-db", "--mworker-channels", channels.toString()));
        if (!workers.isEmpty()) {
            // The older workers, for what the new one shares with them (the stick tables); the master sends them
            // SIGUSR1 once the new one serves.
            cmd.add("-sf");
            workers.forEach(w -> cmd.add(Long.toString(w.pid())));
        }
        cmd.addAll(options.workerArgs());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        // A daemon's workers write where the master does (nowhere once it has left the terminal).
        pb.redirectOutput(options.daemon() ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.INHERIT);
        pb.redirectError(options.daemon() ? ProcessBuilder.Redirect.PIPE : ProcessBuilder.Redirect.INHERIT);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            diag.alert("[fulcrum.main()] Cannot fork: " + e.getMessage());
            if (current == null) {
                exitCode = 1;
                leaveIfAlone();
            }
            return;
        }
        Worker w = new Worker(p);
        workers.add(0, w);
        if (options.daemon()) {
            Thread.ofVirtual().start(() -> relay(p.getErrorStream()));
        }
        diag.notice("New worker (" + p.pid() + ") forked");
        p.onExit().thenRun(() -> events.add(() -> exited(w)));
    }

    /** SIGUSR2/SIGHUP: read the configuration again; if it has no error, a new worker takes over. */
    private void reload() {
        if (stopping) {
            return;
        }
        diag.notice("Reloading Fulcrum");
        if (options.systemd() != null) {
            options.systemd().send("RELOADING=1\nSTATUS=Reloading Configuration.\n");
        }
        reloads++;
        workers.forEach(w -> w.reloads++);
        MasterSettings next = reread.get();
        if (next == null) {
            failed();
            return;
        }
        settings = next;
        for (Program p : programs) {
            p.reloads++;
            p.leaving = true;
            kill(p.pid(), "USR1");
        }
        startPrograms(true);
        spawn();
    }

    /** Starts the program sections (on a reload, those with {@code option start-on-reload}). */
    private void startPrograms(boolean reload) {
        List<Program> started = new ArrayList<>();
        for (ProgramSpec spec : settings.programs.values()) {
            if (reload && !spec.startOnReload) {
                continue;
            }
            Program p;
            try {
                p = Program.start(spec, settings, options.daemon());
            } catch (IOException e) {
                diag.alert("Cannot fork program '" + spec.name + "': " + e.getMessage());
                continue;
            }
            started.add(p);
            diag.notice("New program '" + spec.name + "' (" + p.pid() + ") forked");
            p.process.onExit().thenRun(() -> events.add(() -> exited(p)));
        }
        programs.addAll(0, started); // newest first, in the configuration's order: show proc lists them so
    }

    private void exited(Program p) {
        programs.remove(p);
        int status = p.process.exitValue();
        String text = "program '" + p.spec.name + "' (" + p.pid() + ") exited with code " + status + " (" + Worker.reason(status) + ")";
        if (p.leaving) {
            diag.warning("Former " + text);
        } else {
            diag.alert("Current " + text);
        }
        leaveIfAlone();
    }

    /**
     * Once the workers are gone the programs are stopped (SIGTERM); once they are gone too, the master leaves.
     */
    private void leaveIfAlone() {
        if (!workers.isEmpty()) {
            return;
        }
        if (!programs.isEmpty()) {
            if (!programsStopped) {
                programsStopped = true;
                programs.forEach(p -> kill(p.pid(), "TERM"));
            }
            return;
        }
        if (served) {
            diag.warning("All workers exited. Exiting... (" + Math.max(exitCode, 0) + ")");
        }
        done = true;
    }

    private void failed() {
        failedReloads++;
        lastReloadFailed = true;
        diag.warning("Loading failure!");
        if (options.systemd() != null) {
            options.systemd().send("READY=1\nSTATUS=Reload failed!\n");
        }
    }

    /** A worker said it serves: it becomes the current one, the older ones leave. */
    private void ready(long pid) {
        Worker w = workers.stream().filter(x -> x.pid() == pid).findFirst().orElse(null);
        if (w == null || w.ready) {
            return;
        }
        w.ready = true;
        for (Worker old : workers) {
            if (old != w && !old.leaving && old.startMillis <= w.startMillis) {
                old.leaving = true;
                kill(old.pid(), "USR1"); // -sf: finish the sessions, then leave
            }
        }
        current = w;
        lastReloadFailed = false;
        diag.notice("Loading success.");
        if (options.systemd() != null) {
            options.systemd().send("READY=1\nMAINPID=" + ProcessHandle.current().pid() + "\nSTATUS=Ready.\n");
        }
        for (Worker old : workers) {
            if (old.leaving && settings.maxReloads >= 0 && old.reloads > settings.maxReloads) {
                kill(old.pid(), "TERM");
            }
        }
        if (options.daemon() && !detached) {
            detached = true;
            Daemon.detached(diag);
        }
    }

    private void exited(Worker w) {
        workers.remove(w);
        int status = w.process.exitValue();
        if (!w.ready) {
            // It never served: the old workers (if any) go on, as after a reload whose configuration is wrong.
            if (!stopping && current != null) {
                failed();
            } else if (exitCode < 0 && status != 0) {
                exitCode = status;
            }
        } else if (w == current) {
            current = null;
            String text = "Current worker (" + w.pid() + ") exited with code " + status + " (" + Worker.reason(status) + ")";
            if (status < 128) {
                diag.warning(text);
            } else {
                diag.alert(text);
            }
            if (status != 0 && status != 130 && status != 143 && settings.exitOnFailure && !stopping) {
                diag.alert("exit-on-failure: killing every processes with SIGTERM");
                stop();
                signalAll("TERM");
            }
            // 0 and SIGTERM are normal ends; the master reports the others as its own status.
            if (exitCode < 0 && status != 0 && status != 143) {
                exitCode = status;
            }
        } else {
            diag.warning("Former worker (" + w.pid() + ") exited with code " + status + " (" + Worker.reason(status) + ")");
        }
        served = w.ready;
        leaveIfAlone();
    }

    /** TERM/INT stop everything, USR1 asks every worker to finish, TTOU/TTIN pause and resume them. */
    private void signalled(String name) {
        if (name.equals("TERM") || name.equals("INT") || name.equals("USR1")) {
            if (!name.equals("USR1")) {
                diag.warning("Exiting Master process...");
            }
            stop();
        }
        signalAll(name);
        leaveIfAlone();
    }

    /** Sends {@code signal} to every worker and program (a SIGTERM to the programs need not be sent again). */
    private void signalAll(String signal) {
        workers.forEach(w -> kill(w.pid(), signal));
        programs.forEach(p -> kill(p.pid(), signal));
        programsStopped |= signal.equals("TERM");
    }

    /** From now on the master leaves once its workers have; systemd hears it once. */
    private void stop() {
        if (!stopping && options.systemd() != null) {
            options.systemd().send("STOPPING=1\n");
        }
        stopping = true;
    }

    private void kill(long pid, String signal) {
        String failure = LibC.kill(pid, signal);
        if (failure != null) {
            diag.warning("Failed to send signal " + signal + " to process " + pid + ": " + failure);
        }
    }

    /** The workers' announcements on {@code master.sock}: "PID" once serving; the connection stays open. */
    private void acceptWorkers(ServerSocketChannel master) {
        while (master.isOpen()) {
            SocketChannel ch;
            try {
                ch = master.accept();
            } catch (IOException e) {
                return; // closed: the master leaves
            }
            Thread.ofVirtual().start(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(Channels.newInputStream(ch), StandardCharsets.US_ASCII))) {
                    String line = r.readLine();
                    if (line != null && line.chars().allMatch(Character::isDigit) && !line.isEmpty()) {
                        long pid = Long.parseLong(line);
                        events.add(() -> ready(pid));
                    }
                    while (r.readLine() != null) {
                        // held open: its end tells the worker that the master is gone
                    }
                } catch (IOException | NumberFormatException e) {
                    // a worker that breaks its channel is judged by its exit
                }
            });
        }
    }

    private static void relay(InputStream in) {
        byte[] b = new byte[4096];
        try (in) {
            for (int n; (n = in.read(b)) > 0; ) {
                System.err.write(b, 0, n);
                System.err.flush();
            }
        } catch (IOException e) {
            // the worker is gone
        }
    }

    private void clean() {
        try (var files = Files.list(channels)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(channels);
        } catch (IOException e) {
            // a temporary directory left behind
        }
    }
}
