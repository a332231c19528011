package io.fulcrum.master;

import io.fulcrum.Version;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cli.CliCommand;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliWords;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The master CLI ({@code -S <bind>[,<option>,<value>...]}, management.txt 9.4): {@code show proc}, {@code reload},
 * and the {@code @<n>}, {@code @!<pid>}, {@code @master} prefixes that send a command to a worker's CLI through
 * its private socket. Sessions run on virtual threads: this is admin traffic, off the data path.
 */
public final class MasterCli implements AutoCloseable {
    /** An address (a unix socket path, {@code unix@path}, or {@code host:port}) and the options Fulcrum supports. */
    public record Spec(SocketAddress address, Path path, Set<PosixFilePermission> mode, CliLevel level) {
        public static Spec parse(String text) throws ConfigException {
            String[] words = text.split(",", -1);
            String addr = words[0].startsWith("unix@") ? words[0].substring(5) : words[0];
            if (addr.isEmpty()) {
                throw new ConfigException("'-S' expects an address or a path to a UNIX socket");
            }
            Path path = null;
            SocketAddress address;
            int colon = addr.lastIndexOf(':');
            if (addr.contains("/") || colon < 0) {
                path = Path.of(addr);
                address = UnixDomainSocketAddress.of(path);
            } else {
                try {
                    address = new InetSocketAddress(addr.substring(0, colon), Integer.parseInt(addr.substring(colon + 1)));
                } catch (IllegalArgumentException e) {
                    throw new ConfigException("'" + words[0] + "' : invalid address");
                }
            }
            Set<PosixFilePermission> mode = null;
            CliLevel level = CliLevel.ADMIN; // HAProxy's master CLI is admin unless told otherwise
            for (int i = 1; i < words.length; i += 2) {
                String option = words[i];
                String value = i + 1 < words.length ? words[i + 1] : "";
                String where = "'" + words[0] + " " + option + "' : ";
                switch (option) {
                    case "level" -> {
                        level = CliLevel.of(value);
                        if (level == null) {
                            throw new ConfigException(where + "''level' only supports 'user', 'operator', and 'admin' (got '" + value + "')'");
                        }
                    }
                    case "mode" -> mode = mode(value, where);
                    default -> throw new ConfigException(where + "unknown keyword '" + option
                            + "' (Fulcrum's master CLI supports 'level' and 'mode').");
                }
            }
            return new Spec(address, path, mode, level);
        }

        private static Set<PosixFilePermission> mode(String octal, String where) throws ConfigException {
            int m;
            try {
                m = Integer.parseInt(octal, 8);
            } catch (NumberFormatException e) {
                throw new ConfigException(where + "'mode' : missing or invalid mode '" + octal + "' (octal integer expected)");
            }
            Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
            PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ first: bit 8 down to bit 0
            for (int i = 0; i < bits.length; i++) {
                if ((m & (1 << (8 - i))) != 0) {
                    set.add(bits[i]);
                }
            }
            return set;
        }
    }

    /** What {@code help} lists, as HAProxy 2.6's master CLI (every level sees them all). */
    private static final List<CliCommand> COMMANDS = List.of(
            command("@!<pid>", "send a command to the <pid> process"),
            command("@<relative pid>", "send a command to the <relative pid> process"),
            command("@master", "send a command to the master process"),
            command("operator", "lower the level of the current CLI session to operator"),
            command("reload", "reload fulcrum"),
            command("show cli level", "display the level of the current CLI session"),
            command("show cli sockets", "dump list of cli sockets"),
            command("show proc", "show processes status"),
            command("show version", "show version of the current process"),
            command("user", "lower the level of the current CLI session to user"));

    private static CliCommand command(String words, String help) {
        return new CliCommand(List.of(words.split(" ")), words, help, CliLevel.USER, CliCommand.Mode.NORMAL, null);
    }

    private final ServerSocketChannel server;
    private final Spec spec;
    private final Master master;

    private MasterCli(ServerSocketChannel server, Spec spec, Master master) {
        this.server = server;
        this.spec = spec;
        this.master = master;
    }

    static MasterCli open(Spec spec, Master master) throws IOException {
        ServerSocketChannel server;
        if (spec.path() != null) {
            Files.deleteIfExists(spec.path()); // as HAProxy, a stale socket file is replaced
            server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(spec.address());
            if (spec.mode() != null) {
                Files.setPosixFilePermissions(spec.path(), spec.mode());
            }
        } else {
            server = ServerSocketChannel.open();
            server.bind(spec.address());
        }
        MasterCli cli = new MasterCli(server, spec, master);
        Thread.ofVirtual().start(cli::accept);
        return cli;
    }

    private void accept() {
        while (server.isOpen()) {
            try {
                SocketChannel ch = server.accept();
                Thread.ofVirtual().start(() -> new Session(ch).run());
            } catch (IOException e) {
                return;
            }
        }
    }

    @Override
    public void close() {
        try {
            server.close();
            if (spec.path() != null) {
                Files.deleteIfExists(spec.path());
            }
        } catch (IOException e) {
            // the master is leaving: a socket file left behind is replaced at the next start
        }
    }

    /** One connection: one line of commands, or lines until {@code quit} in interactive mode ({@code prompt}). */
    private final class Session {
        private final SocketChannel channel;
        private CliLevel level = spec.level();
        private boolean prompt;
        private boolean done;
        /** Where commands go without a prefix: a worker after "@1" alone, the master (null) after "@". */
        private Worker target;

        Session(SocketChannel channel) {
            this.channel = channel;
        }

        void run() {
            try (channel; BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(channel), StandardCharsets.UTF_8))) {
                OutputStream out = Channels.newOutputStream(channel);
                while (!done) {
                    String line = in.readLine();
                    if (line == null) {
                        return;
                    }
                    StringBuilder answer = new StringBuilder();
                    for (List<String> words : CliWords.split(line)) {
                        if (!words.isEmpty() && !done) {
                            execute(words, answer);
                        }
                    }
                    if (!prompt) {
                        done = true;
                    } else if (!done) {
                        answer.append(prompt());
                    }
                    out.write(answer.toString().getBytes(StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                // the client left
            }
        }

        private String prompt() {
            if (target != null) {
                return target.pid() + "> ";
            }
            return master.lastReloadFailed() ? "master[ReloadFailed]> " : "master> ";
        }

        private void execute(List<String> words, StringBuilder out) {
            String first = words.get(0);
            if (first.startsWith("@")) {
                Worker w = null;
                if (!first.equals("@") && !first.equals("@master")) {
                    w = find(first);
                    if (w == null) {
                        out.append("Can't find the target PID matching the prefix '").append(first).append("'\n");
                        done = true; // as HAProxy: the rest of the line is dropped and the session ends
                        return;
                    }
                }
                if (words.size() == 1) {
                    target = w;
                    return;
                }
                run(w, words.subList(1, words.size()), out);
                return;
            }
            run(target, words, out);
        }

        private Worker find(String prefix) {
            List<Worker> workers = master.workers();
            if (prefix.startsWith("@!")) {
                return workers.stream().filter(w -> Long.toString(w.pid()).equals(prefix.substring(2))).findFirst().orElse(null);
            }
            // Relative numbers name the current processes only: Fulcrum runs one worker, "@1".
            return prefix.equals("@1") ? workers.stream().filter(w -> !w.leaving).reduce((a, b) -> b).orElse(null) : null;
        }

        private void run(Worker worker, List<String> words, StringBuilder out) {
            if (worker != null) {
                out.append(relay(worker, words));
                return;
            }
            if (words.get(0).equals("help")) {
                out.append(CliCommands.usage(COMMANDS, words.subList(1, words.size()), true)).append('\n');
                return;
            }
            String command = String.join(" ", words);
            switch (command) {
                case "prompt" -> {
                    prompt = !prompt;
                    done = !prompt;
                    return;
                }
                case "quit" -> {
                    done = true;
                    return;
                }
                case "show proc" -> out.append(ShowProc.render(master));
                case "show version" -> out.append(Version.FULCRUM).append('\n');
                case "show cli level" -> out.append(level.keyword()).append('\n');
                case "show cli sockets" -> {
                    // HAProxy 2.6's master lists the sockets of its workers' stats frontend, which it has none of
                }
                case "operator", "user" -> {
                    CliLevel to = CliLevel.of(command);
                    if (!level.allows(to)) {
                        out.append("Permission denied!\n"); // as HAProxy: the rest of the line is dropped, the session ends
                        done = true;
                    } else {
                        level = to;
                    }
                    return;
                }
                case "reload" -> {
                    if (!level.allows(CliLevel.OPERATOR)) {
                        out.append("Permission denied\n");
                    } else {
                        master.requestReload();
                        done = true; // as HAProxy's re-executed master, the connection closes
                        return;
                    }
                }
                default -> out.append(CliCommands.usage(COMMANDS, words, false));
            }
            out.append('\n');
        }

        /** A command for a worker's CLI, at this session's level; its answer as the worker gives it. */
        private String relay(Worker worker, List<String> words) {
            StringBuilder command = new StringBuilder();
            if (level != CliLevel.ADMIN) {
                command.append(level.keyword()).append("; ");
            }
            for (String w : words) {
                command.append(w.replace("\\", "\\\\").replace(";", "\\;").replace(" ", "\\ ")).append(' ');
            }
            command.setCharAt(command.length() - 1, '\n');
            try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
                ch.connect(UnixDomainSocketAddress.of(Worker.cli(master.channels(), worker.pid())));
                Channels.newOutputStream(ch).write(command.toString().getBytes(StandardCharsets.UTF_8));
                ch.shutdownOutput();
                String answer = new String(Channels.newInputStream(ch).readAllBytes(), StandardCharsets.UTF_8);
                // The level change answers with its empty line first: not part of the command's answer.
                return level != CliLevel.ADMIN && answer.startsWith("\n") ? answer.substring(1) : answer;
            } catch (IOException e) {
                return "Can't connect to the target CLI!\n";
            }
        }
    }
}
