package io.fulcrum.cli;

import io.fulcrum.runtime.Fulcrum;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.util.concurrent.ScheduledFuture;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One connection to a stats socket. Lines are cut on the event loop and run in order on a virtual thread
 * (commands may wait for the loops); every piece of session state below is touched only by that chain of
 * runs, so it needs no lock. Without {@code prompt} one line is run and the connection closes.
 */
final class CliSession extends ChannelInboundHandlerAdapter {
    private static final ExecutorService RUNNER = Executors.newVirtualThreadPerTaskExecutor();
    /** Ids for {@code show sess}, in a range of their own: the streams' ids start with their loop's number. */
    private static final AtomicLong IDS = new AtomicLong(0xc11L << 40);

    private final CliCommands commands;
    private final Fulcrum process;
    private final int maxLine;
    private final StringBuilder line = new StringBuilder();
    private CompletableFuture<Void> tail = CompletableFuture.completedFuture(null);
    private Channel channel;
    private ScheduledFuture<?> idle;
    private boolean discarding;
    private volatile long timeoutMs;
    /** Reads and input shutdowns so far: a streaming command stops when the client sends anything. */
    private volatile long received;
    /** Lines cut so far, and the last one to drop unrun (the input that stopped a streaming command). */
    private volatile long lines;
    private volatile long discardThrough;
    /** The open sessions of the process's stats sockets, which this one joins while it is open (null: none). */
    private final Set<CliSession> live;
    private final long id = IDS.incrementAndGet();
    private long startMillis;
    private long startNanos;
    private volatile long idleDeadline = Long.MAX_VALUE;

    // Touched by the runs only.
    private CliLevel level;
    private Severity.Output severity;
    private boolean prompt;
    private boolean experimental;
    private boolean expert;
    private boolean done;
    private boolean quitting;
    private String payloadLine;
    private StringBuilder payload;

    CliSession(CliCommands commands, Fulcrum process, CliSocketOptions options, long timeoutMs, int maxLine, Set<CliSession> live) {
        this.live = live;
        this.commands = commands;
        this.process = process;
        this.level = options.level;
        this.severity = options.severity;
        this.timeoutMs = timeoutMs;
        this.maxLine = maxLine;
    }

    Channel channel() {
        return channel;
    }

    /** tune.bufsize: the longest command line, and the size of HAProxy's buffer for an answer. */
    int bufsize() {
        return maxLine;
    }

    Fulcrum process() {
        return process;
    }

    CliLevel level() {
        return level;
    }

    void level(CliLevel level) {
        this.level = level;
    }

    Severity.Output severityOutput() {
        return severity;
    }

    void severityOutput(Severity.Output severity) {
        this.severity = severity;
    }

    boolean experimental() {
        return experimental;
    }

    void experimental(boolean on) {
        experimental = on;
    }

    boolean expert() {
        return expert;
    }

    /** The session sees the commands of {@code mode}: it is on (HAProxy's expert and experimental modes). */
    boolean shows(CliCommand.Mode mode) {
        return switch (mode) {
            case NORMAL -> true;
            case EXPERT -> expert;
            case EXPERIMENTAL -> experimental;
        };
    }

    void expert(boolean on) {
        expert = on;
    }

    /** {@code prompt}: interactive mode on or off. */
    void togglePrompt() {
        prompt = !prompt;
        if (!prompt) {
            done = true; // leaving interactive mode ends the session after this line, as HAProxy does
        }
    }

    /** {@code quit}: close once this line's answers are written. */
    void quit() {
        done = true;
        quitting = true;
    }

    /** {@code set timeout cli}: the idle time allowed from now on. */
    void timeout(long ms) {
        timeoutMs = ms;
    }

    /** The idle time counts from the moment the session waits for a line again. */
    private void rearm() {
        try {
            channel.eventLoop().execute(this::armIdle);
        } catch (RejectedExecutionException e) {
            // The process is stopping and its loops take no more tasks: the session ends with them.
        }
    }

    /** What {@code show sess} shows of the session. */
    CliConnection view() {
        return new CliConnection(id, startMillis, startNanos, channel, lines, idleDeadline);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        startMillis = System.currentTimeMillis();
        startNanos = System.nanoTime();
        process.logging().nextStream(); // a CLI connection is a stream of HAProxy's: it counts in CumReq
        if (live != null) {
            live.add(this);
        }
        armIdle();
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf buf = (ByteBuf) msg;
        received++;
        try {
            while (buf.isReadable()) {
                char c = (char) (buf.readByte() & 0xff);
                if (c == '\n') {
                    if (!discarding) {
                        int n = line.length();
                        String text = n > 0 && line.charAt(n - 1) == '\r' ? line.substring(0, n - 1) : line.toString();
                        long seq = ++lines;
                        tail = tail.thenRunAsync(() -> run(seq, text), RUNNER);
                    }
                    line.setLength(0);
                    discarding = false;
                } else if (line.length() < maxLine) {
                    line.append(c);
                } else {
                    discarding = true; // a line longer than a buffer is dropped whole, never cut into commands
                }
            }
        } finally {
            buf.release();
        }
        armIdle();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            received++;
            // The client sent its last line ("echo cmd | socat"): answer what came, then close.
            tail = tail.thenRunAsync(() -> {
                done = true;
                channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            }, RUNNER);
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (idle != null) {
            idle.cancel(false);
        }
        idleDeadline = Long.MAX_VALUE;
        if (live != null) {
            live.remove(this);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    private void armIdle() {
        if (idle != null) {
            idle.cancel(false);
        }
        idleDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        idle = channel.eventLoop().schedule(() -> {
            channel.close();
        }, timeoutMs, TimeUnit.MILLISECONDS);
    }

    /** Runs one received line: a command line, or a line of the payload being collected. */
    private void run(long seq, String text) {
        if (done || seq <= discardThrough) {
            return;
        }
        if (payload != null) {
            if (!text.isEmpty()) {
                payload.append(text).append('\n');
                write(prompt ? "+ " : "");
                return;
            }
            String first = payloadLine;
            String body = payload.toString();
            payload = null;
            answer(first, body);
            return;
        }
        if (text.endsWith("<<") && (text.length() == 2 || Character.isWhitespace(text.charAt(text.length() - 3)))) {
            payloadLine = text.substring(0, text.length() - 2);
            payload = new StringBuilder();
            write(prompt ? "+ " : "");
            return;
        }
        answer(text, null);
    }

    private void answer(String text, String body) {
        StringBuilder out = new StringBuilder();
        List<List<String>> lines = CliWords.split(text);
        for (int i = 0; i < lines.size() && !done; i++) {
            // (an empty command, a blank line or nothing between two ';', is answered too: HAProxy lists the commands)
            String answer = execute(lines.get(i), i == lines.size() - 1 ? body : null);
            if (quitting) {
                break; // quit answers nothing, not even the empty line
            }
            out.append(answer).append('\n');
            if (prompt && !done) {
                out.append("> "); // interactive: a prompt after each command of the line
            }
        }
        if (!prompt) {
            done = true;
        }
        if (done) {
            channel.writeAndFlush(Unpooled.copiedBuffer(out, StandardCharsets.UTF_8)).addListener(ChannelFutureListener.CLOSE);
        } else {
            write(out.toString());
            rearm();
        }
    }

    /**
     * Runs the commands operators start with once, off the loops, so that their code is loaded and compiled
     * before the first real session (the first answer took over a second, more than socat waits by default).
     */
    static void warmUp(CliSession s) {
        RUNNER.execute(() -> {
            for (String c : List.of("help", "show info", "show stat", "show servers state")) {
                s.execute(CliWords.split(c).get(0), null);
            }
        });
    }

    /** The open sessions of the process's stats sockets. */
    List<CliConnection> connections() {
        return live == null ? List.of() : live.stream().map(CliSession::view).toList();
    }

    /** How much the client has sent so far (for {@link CliRequest#flush()}). */
    long received() {
        return received;
    }

    /**
     * Writes {@code text} now, for a command that goes on; false when it should stop: the client is gone, or sent
     * something since {@code since} (which is dropped, as HAProxy drops the key that stops {@code show events -w}).
     * The idle timeout does not apply while a command streams.
     */
    boolean stream(String text, long since) {
        if (idle != null) {
            idle.cancel(false);
        }
        idleDeadline = Long.MAX_VALUE;
        write(text);
        if (received != since) {
            discardThrough = lines;
            return false;
        }
        return channel.isActive();
    }

    String execute(List<String> words, String body) {
        CliRequest req = new CliRequest(words, body, this);
        CliCommand command = commands.find(words);
        try {
            if (command == null) {
                req.feedback(Severity.INFO, commands.usage(words, false, this::shows));
                return req.output();
            }
            if (!shows(command.mode())) {
                throw new CliException(command.mode().refusal); // checked before the level, as HAProxy does
            }
            req.require(command.level());
            command.handler().run(req);
        } catch (CliException e) {
            req.feedback(Severity.ERR, e.getMessage());
        } catch (RuntimeException e) {
            // A defect in a command must not end the session nor reach the user as a stack trace.
            req.feedback(Severity.ERR, "Internal error while running '" + String.join(" ", words) + "'.\n");
        }
        return req.output();
    }

    private void write(String text) {
        if (!text.isEmpty()) {
            channel.writeAndFlush(Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
        }
    }
}
