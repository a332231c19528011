package io.fulcrum.mailers;

import io.fulcrum.proxy.ProxyPart;

/**
 * A proxy's {@code email-alert} settings (configuration.txt 4.2), inherited from defaults: the mailers section, the
 * sender, the recipient, the most verbose level mailed (alert by default) and the name given in HELO (the host's
 * name by default).
 */
final class EmailAlert implements ProxyPart {
    String mailers;
    String from;
    String to;
    String myhostname;
    /** A syslog severity: 0 (emerg) to 7 (debug); a message is mailed when its severity is at most this. */
    int level = 1;
    /** The section {@link #mailers} names, once the configuration is checked; null when the alerts are off. */
    MailersSpec section;

    @Override
    public ProxyPart inherit() {
        EmailAlert copy = new EmailAlert();
        copy.mailers = mailers;
        copy.from = from;
        copy.to = to;
        copy.myhostname = myhostname;
        copy.level = level;
        return copy;
    }
}
