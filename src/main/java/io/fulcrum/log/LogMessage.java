package io.fulcrum.log;

/**
 * A message waiting to be sent: its text without a header, to every target of {@code targets} that takes
 * it. The sender adds each target's header.
 *
 * @param epochMicros when it was emitted (the date of the syslog headers)
 * @param sd          the structured data of rfc5424 headers ({@code log-format-sd}), or null for none ("-")
 * @param received    true for a syslog message a {@code log-forward} section received: {@code text} is the whole
 *                    message, whose own header gives level, facility, date, host and tag
 */
record LogMessage(LogTarget[] targets, String tag, int level, long epochMicros, byte[] text, String sd, boolean received) {

    /** A message a {@code log-forward} section received, for its targets. */
    static LogMessage received(LogTarget[] targets, byte[] message, long epochMicros) {
        return new LogMessage(targets, null, -1, epochMicros, message, null, true);
    }
}
