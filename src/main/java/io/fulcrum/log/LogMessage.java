package io.fulcrum.log;

/**
 * A message waiting to be sent: its text without a header, to every target of {@code targets} that takes
 * it. The sender adds each target's header.
 *
 * @param epochMicros when it was emitted (the date of the syslog headers)
 * @param sd          the structured data of rfc5424 headers ({@code log-format-sd}), or null for none ("-")
 */
record LogMessage(LogTarget[] targets, String tag, int level, long epochMicros, byte[] text, String sd) {
}
