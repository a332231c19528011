package io.fulcrum.listener;

import io.fulcrum.cfg.ConfigException;

/** A bind option's error that HAProxy words without the option's name ({@code 'TLSv9' : unknown ssl/tls version}). */
public final class BindOptionException extends ConfigException {
    private static final long serialVersionUID = 1L;

    public BindOptionException(String message) {
        super(message);
    }
}
