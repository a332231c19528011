package io.fulcrum.stats;

/**
 * How the stats page's last admin action went, as {@code ;st=} tells the page after the redirect: HAProxy's codes,
 * the class (colour) and the text of the message the page shows.
 */
enum StatsStatus {
    DENY("active_down", "<b>Action denied.</b>"),
    DONE("active_up", "Action processed successfully."),
    ERRP("active_down", "Action not processed because of invalid parameters.<ul><li>The action is maybe unknown.</li>"
            + "<li>Invalid key parameter (empty or too long).</li>"
            + "<li>The backend name is probably unknown or ambiguous (duplicated names).</li>"
            + "<li>Some server names are probably unknown or ambiguous (duplicated names in the backend).</li></ul>"),
    EXCD("active_down", "<b>Action not processed : the buffer couldn't store all the data.<br>"
            + "You should retry with less servers at a time.</b>"),
    NONE("active_going_down", "Nothing has changed."),
    PART("active_going_down", "Action partially processed.<br>"
            + "Some server names are probably unknown or ambiguous (duplicated names in the backend)."),
    UNKN("active_no_check", "Unexpected result."),
    IVAL("active_down", "<b>Invalid requests (unsupported method or chunked encoded request).</b>");

    private final String style;
    private final String message;

    StatsStatus(String style, String message) {
        this.style = style;
        this.message = message;
    }

    String style() {
        return style;
    }

    String message() {
        return message;
    }

    /** The status whose code starts {@code text}, UNKN for any other text. */
    static StatsStatus of(String text) {
        for (StatsStatus s : values()) {
            if (text.startsWith(s.name())) {
                return s;
            }
        }
        return UNKN;
    }
}
