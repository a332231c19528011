package io.fulcrum.cli;

import io.fulcrum.runtime.Fulcrum;

import java.util.List;

/** One command as a handler sees it: its words, its payload, the process, and where its answer goes. */
public final class CliRequest {
    private final List<String> args;
    private final String payload;
    private final CliSession session;
    private final StringBuilder out = new StringBuilder();
    /** What the client had sent when the command began. */
    private final long received;

    CliRequest(List<String> args, String payload, CliSession session) {
        this.args = List.copyOf(args);
        this.payload = payload;
        this.session = session;
        this.received = session.received();
    }

    /** Word {@code i} of the command (0 is its first word), or "" when absent, as HAProxy passes them. */
    public String arg(int i) {
        return i < args.size() ? args.get(i) : "";
    }

    /** Word {@code i} read as HAProxy's atoi() reads it: an optional '-', the leading digits (capped), 0 without any. */
    public int atoi(int i) {
        String s = arg(i);
        int at = s.startsWith("-") ? 1 : 0;
        long v = 0;
        while (at < s.length() && Character.isDigit(s.charAt(at)) && v <= Integer.MAX_VALUE) {
            v = v * 10 + s.charAt(at++) - '0';
        }
        v = Math.min(v, Integer.MAX_VALUE);
        return (int) (s.startsWith("-") ? -v : v);
    }

    public int size() {
        return args.size();
    }

    public List<String> args() {
        return args;
    }

    /** The lines after a first line ending with "&lt;&lt;", up to the empty line, or null. */
    public String payload() {
        return payload;
    }

    /**
     * The size of HAProxy's buffer for an answer ({@code tune.bufsize}): a command whose answer fills it goes on
     * when it is sent, and some start their next part anew then.
     */
    public int bufsize() {
        return session.bufsize();
    }

    public Fulcrum process() {
        return session.process();
    }

    public CliLevel level() {
        return session.level();
    }

    /** The index of the event loop serving the CLI's connection: HAProxy's thread running the command. */
    public int thread() {
        return process().loops().indexOf(session.channel().eventLoop());
    }

    /** The open sessions of the stats sockets, this one included ({@code show sess}). */
    public List<CliConnection> connections() {
        return session.connections();
    }

    /** Refuses the command unless the session has {@code required}. */
    public void require(CliLevel required) throws CliException {
        if (!session.level().allows(required)) {
            throw new CliException("Permission denied\n");
        }
    }

    /** Data the command shows: never prefixed with a severity. */
    public CliRequest print(CharSequence text) {
        out.append(text);
        return this;
    }

    /** A feedback message (a confirmation, a warning...), prefixed as the session's {@code severity-output} says. */
    public CliRequest feedback(Severity severity, String message) {
        out.append(severity.prefix(session.severityOutput())).append(message);
        return this;
    }

    /**
     * For a command that goes on until the client stops it ({@code show events -w}): sends what was printed so
     * far now. False when the command should end: the client closed, or sent anything (which is discarded).
     */
    public boolean flush() {
        String text = out.toString();
        out.setLength(0);
        return session.stream(text, received);
    }

    CliSession session() {
        return session;
    }

    String output() {
        return out.toString();
    }
}
