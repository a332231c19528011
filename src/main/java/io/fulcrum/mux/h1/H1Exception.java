package io.fulcrum.mux.h1;

/**
 * A message HAProxy would refuse: {@link #status()} is what it answers (400 for a bad request, 422 for a
 * transfer coding it does not implement, 505 for a major version other than 1, 502 for a bad response),
 * {@link #position()} where in the message the problem was found, for {@code show errors}.
 */
public final class H1Exception extends Exception {
    private final int status;
    private final int position;

    public H1Exception(int status, String reason, long position) {
        super(reason, null, false, false);
        this.status = status;
        this.position = (int) Math.min(position, Integer.MAX_VALUE);
    }

    public int status() {
        return status;
    }

    /** Byte offset in the message (from the first byte after the previous message) where the error was found. */
    public int position() {
        return position;
    }

    /** A short reason ("invalid character in field name"). */
    public String reason() {
        return getMessage();
    }

    @Override
    public String toString() {
        return status + " at " + position + ": " + getMessage();
    }
}
