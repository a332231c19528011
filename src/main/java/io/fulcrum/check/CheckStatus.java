package io.fulcrum.check;

/** HAProxy's check statuses (check.h): the short names {@code show stat} reports and the words logs use. */
public enum CheckStatus {
    UNK("Unknown"),
    INI("Initializing"),
    /** An agent's answer that names no state ("75%", "drain"): HAProxy's HCHK_STATUS_CHECKED. */
    CHECKED("No status change"),
    HANA("Health analyze"),
    SOCKERR("Socket error"),
    L4OK("Layer4 check passed"),
    L4TOUT("Layer4 timeout"),
    L4CON("Layer4 connection problem"),
    L6OK("Layer6 check passed"),
    L6TOUT("Layer6 timeout"),
    L6RSP("Layer6 invalid response"),
    L7TOUT("Layer7 timeout"),
    L7RSP("Layer7 invalid response"),
    L7OK("Layer7 check passed"),
    L7OKC("Layer7 check conditionally passed"),
    L7STS("Layer7 wrong status"),
    PROCERR("External check error"),
    PROCTOUT("External check timeout"),
    PROCOK("External check passed");

    private final String description;

    CheckStatus(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    /** HAProxy's number for the status (HCHK_STATUS_*), as {@code show servers state} writes it. */
    public int number() {
        return switch (this) {
            case UNK -> 0;
            case INI -> 1;
            case CHECKED -> 3;
            case HANA -> 4;
            case SOCKERR -> 5;
            case L4OK -> 6;
            case L4TOUT -> 7;
            case L4CON -> 8;
            case L6OK -> 9;
            case L6TOUT -> 10;
            case L6RSP -> 11;
            case L7TOUT -> 12;
            case L7RSP -> 13;
            case L7OK -> 15;
            case L7OKC -> 16;
            case L7STS -> 17;
            case PROCERR -> 18;
            case PROCTOUT -> 19;
            case PROCOK -> 20;
        };
    }

    /** Statuses that carry a code (HAProxy's "status >= HCHK_STATUS_L57DATA"). */
    public boolean hasCode() {
        return this.compareTo(L7OK) >= 0;
    }

    /** A check ended with this status (HAProxy's "status >= HCHK_STATUS_CHECKED"). */
    boolean finished() {
        return this != INI && this != UNK;
    }

    boolean passed() {
        return this == L4OK || this == L6OK || this == L7OK || this == L7OKC || this == PROCOK;
    }

    /** The status a keyword names ({@code ok-status L7OK}...). */
    static CheckStatus named(String name) {
        for (CheckStatus s : values()) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return null;
    }
}
