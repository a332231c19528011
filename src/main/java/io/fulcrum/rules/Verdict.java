package io.fulcrum.rules;

/** What a rule's action tells the rule list. */
public enum Verdict {
    /** Go on with the next rule. */
    CONTINUE,
    /** Stop this list of rules ({@code allow}); later lists (the backend's) still run. */
    STOP,
    /** The transaction has its answer (deny, return, redirect...): no further rule runs. */
    DONE
}
