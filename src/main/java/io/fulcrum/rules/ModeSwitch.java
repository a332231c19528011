package io.fulcrum.rules;

/**
 * What {@code tcp-request content switch-mode http} does to a TCP session: it becomes an HTTP/1 connection once its
 * rules are done. Only a TCP session implements it; an HTTP stream already is HTTP, its rules just stop.
 */
public interface ModeSwitch {

    /** The session continues in HTTP: the frontend's HTTP rules and switching rules run on its requests. */
    void switchToHttp();
}
