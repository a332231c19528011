package io.fulcrum.rules;

/** What a rule's action tells the rule list. */
public enum Verdict {
    /** Go on with the next rule. */
    CONTINUE,
    /** Stop this list of rules ({@code allow}); later lists (the backend's) still run. */
    STOP,
    /** The rule waits (wait-for-body): the list resumes at this rule once what it waits for arrives. */
    WAIT,
    /** The transaction has its answer (deny, return, redirect...): no further rule runs. */
    DONE
}
