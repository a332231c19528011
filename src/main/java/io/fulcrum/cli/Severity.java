package io.fulcrum.cli;

/** The syslog severity of a feedback message, and how a session prefixes it ({@code severity-output}). */
public enum Severity {
    EMERG, ALERT, CRIT, ERR, WARNING, NOTICE, INFO, DEBUG;

    /** {@code severity-output none|number|string}. */
    public enum Output {
        NONE, NUMBER, STRING;

        static Output of(String word) {
            return switch (word) {
                case "none" -> NONE;
                case "number" -> NUMBER;
                case "string" -> STRING;
                default -> null;
            };
        }
    }

    /** "[3]: " or "[err]: " or nothing. */
    String prefix(Output output) {
        return switch (output) {
            case NONE -> "";
            case NUMBER -> "[" + ordinal() + "]: ";
            case STRING -> "[" + name().toLowerCase(java.util.Locale.ROOT) + "]: ";
        };
    }
}
