package io.fulcrum.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * HAProxy's command-line flags (management.txt section 3), parsed. Flags Fulcrum does not implement
 * are refused with a {@link UsageException} naming them.
 */
public final class CommandLine {
    public final List<String> configs = new ArrayList<>();
    public boolean check;
    public String condition;
    public boolean foreground;
    public boolean debug;
    public boolean daemon;
    public String pidfile;
    public boolean quiet;
    public boolean verbose;
    public int version;
    public int defaultMaxconn;
    public int maxconn;
    /** {@code -m}: megabytes of memory, 0 for no limit. */
    public int memmaxMb;
    public String localPeer;
    public String directory;
    public boolean diagnostic;
    public boolean zeroWarning;
    /** {@code -dR}: as the global {@code noreuseport}. */
    public boolean noReusePort;
    /** {@code -de}: as the global {@code noepoll}. */
    public boolean noEpoll;
    /** {@code -dV}: as the global {@code ssl-server-verify none}, which the configuration may still set. */
    public boolean noServerVerify;
    /** {@code -dM[<byte>][,<option>...]}: HAProxy's pool debugging options ({@link MemoryDebug}), or null. */
    public String memoryDebug;
    /** {@code -dL}: list the loaded object files once the configuration is processed ({@link LoadedObjects}). */
    public boolean dumpLibs;
    /** {@code -dK<class>[,<class>...]}: the keyword classes to list once the configuration is read ({@link KeywordDump}), or null. */
    public String dumpKeywords;
    /** {@code -x <socket>}: the old process's CLI socket to take the listening sockets from, or null. */
    public String oldSocket;
    /** {@code -dr}: "none" ends every server's init-addr methods, so that no resolution failure stops the start. */
    public boolean resolutionNeverFails;
    public final List<Long> finishPids = new ArrayList<>();
    public final List<Long> terminatePids = new ArrayList<>();
    /** Set by a daemon's parent in its child's arguments: the child reports its start on stdout. */
    public boolean daemonChild;
    /** {@code -W} (or {@code -Ws}): a master process supervises the worker that serves. */
    public boolean masterWorker;
    /** {@code -Ws}: the master tells systemd about its state ({@code NOTIFY_SOCKET}). */
    public boolean systemd;
    /** {@code -S <bind>[,<option>...]}, once per master CLI socket. */
    public final List<String> masterCli = new ArrayList<>();
    /** Set by a master in its workers' arguments: the directory of its private channels. */
    public String masterChannels;

    /** A command line Fulcrum cannot run. */
    public static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        public UsageException(String message) {
            super(message, null, false, false);
        }
    }

    /** HAProxy flags Fulcrum knows but does not implement yet; they get a precise message. */
    private static final List<String> NOT_YET = List.of(
            "-dI",
            "-dF", "-dZ", "-dC", "-dt");

    public static CommandLine parse(String[] args) throws UsageException {
        CommandLine c = new CommandLine();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "-f" -> c.configs.add(value(args, ++i, a));
                case "--" -> {
                    while (++i < args.length) {
                        c.configs.add(args[i]);
                    }
                }
                case "-c" -> c.check = true;
                case "-cc" -> {
                    // An empty condition is valid (and false), as in HAProxy.
                    if (++i >= args.length) {
                        throw new UsageException("option '-cc' expects an argument.");
                    }
                    c.condition = args[i];
                }
                case "-d" -> {
                    c.debug = true;
                    c.foreground = true;
                }
                case "-db" -> c.foreground = true;
                case "-D" -> c.daemon = true;
                case "-p" -> c.pidfile = value(args, ++i, a);
                case "-q" -> c.quiet = true;
                case "-V" -> c.verbose = true;
                case "-v" -> c.version = Math.max(c.version, 1);
                case "-vv" -> c.version = 2;
                case "-N" -> c.defaultMaxconn = number(value(args, ++i, a), a);
                case "-n" -> c.maxconn = number(value(args, ++i, a), a);
                case "-m" -> c.memmaxMb = number(value(args, ++i, a), a);
                case "-L" -> c.localPeer = value(args, ++i, a);
                case "-C" -> c.directory = value(args, ++i, a);
                case "-dD" -> c.diagnostic = true;
                case "-dW" -> c.zeroWarning = true;
                case "-dR" -> c.noReusePort = true;
                case "-dS" -> { } // disables splicing, which Fulcrum never does (as the global nosplice)
                case "-de" -> c.noEpoll = true;
                case "-dV" -> c.noServerVerify = true;
                case "-dr" -> c.resolutionNeverFails = true;
                case "-dL" -> c.dumpLibs = true;
                case "-x" -> c.oldSocket = value(args, ++i, a);
                // Fulcrum has no poll nor kqueue poller to disable, and resolves with the JDK, not getaddrinfo.
                case "-dp", "-dk", "-dG" -> { }
                case "-sf", "-st" -> {
                    List<Long> pids = a.equals("-sf") ? c.finishPids : c.terminatePids;
                    while (i + 1 < args.length && !args[i + 1].startsWith("-")) {
                        pids.add((long) number(args[++i], a));
                    }
                }
                case "--daemon-child" -> c.daemonChild = true;
                case "-W" -> c.masterWorker = true;
                case "-Ws" -> {
                    c.masterWorker = true;
                    c.systemd = true;
                }
                case "-S" -> c.masterCli.add(value(args, ++i, a));
                case "--mworker-channels" -> c.masterChannels = value(args, ++i, a);
                default -> {
                    // As HAProxy, these take their value in the same word (-dM0x41,no-merge, -dKcfg,smp).
                    if (a.startsWith("-dM")) {
                        c.memoryDebug = a.substring(3);
                        continue;
                    }
                    if (a.startsWith("-dK")) {
                        c.dumpKeywords = a.substring(3);
                        continue;
                    }
                    String base = a.length() > 3 && a.startsWith("-d") ? a.substring(0, 3) : a;
                    if (NOT_YET.contains(a) || NOT_YET.contains(base)) {
                        throw new UsageException("option '" + a + "' is an HAProxy flag that Fulcrum does not support yet.");
                    }
                    if (a.startsWith("-")) {
                        throw new UsageException("unknown option '" + a + "'.");
                    }
                    // HAProxy takes a bare word as a config file only after "--".
                    throw new UsageException("unexpected argument '" + a + "' (use -f to name a configuration file).");
                }
            }
        }
        return c;
    }

    private static String value(String[] args, int i, String flag) throws UsageException {
        if (i >= args.length || args[i].isEmpty()) {
            throw new UsageException("option '" + flag + "' expects an argument.");
        }
        return args[i];
    }

    private static int number(String s, String flag) throws UsageException {
        try {
            int v = Integer.parseInt(s);
            if (v < 0) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new UsageException("option '" + flag + "' expects a positive integer, got '" + s + "'.");
        }
    }

    public static String usage() {
        return """
                Usage : fulcrum [-f <cfgfile|cfgdir>]* [ -vdVD ] [ -n <maxconn> ] [ -N <maxpconn> ]
                        [ -p <pidfile> ] [ -m <max megs> ] [ -C <dir> ] [-- <cfgfile>*]
                        -v displays version ; -vv shows known build options.
                        -d enters debug mode ; -db only disables background mode.
                        -V enters verbose mode (disables quiet mode)
                        -D goes daemon ; -C changes to <dir> before loading files.
                        -q quiet mode : don't display messages
                        -c check mode : only check config files and exit
                        -cc check condition : evaluate a condition and exit
                        -n sets the maximum total # of connections (uses ulimit -n)
                        -m limits the usable amount of memory (in MB; Netty's buffers)
                        -N sets the default, per-proxy maximum # of connections (0)
                        -L set local peer name (default to hostname)
                        -p writes pids of all children to this file
                        -W master-worker mode.
                        -Ws master-worker mode with systemd notify support.
                        -S <bind>[,<bind options>...] new master CLI
                        -dS disables splice usage (Fulcrum never splices)
                        -de disables epoll() usage (the JDK's NIO selector serves)
                        -dp, -dk disable poll(), kqueue() usage (Fulcrum has neither)
                        -dG disables getaddrinfo() usage (Fulcrum resolves with the JDK)
                        -dM[<byte>,help,...] debug memory (accepted, no effect: Netty's allocator)
                        -dL dumps loaded object files after config checks
                        -dK{class[,...]} dump registered keywords (use 'help' for list)
                        -dr ignores server address resolution failures
                        -dV disables SSL verify on the server side
                        -dW fails if any warning is emitted
                        -dD diagnostic mode : warn about suspicious configuration statements
                        -sf/-st [pid ]* finishes/terminates old pids.
                        -x <unix_socket> get listening sockets from a unix socket (Fulcrum: see the docs)
                """;
    }
}
